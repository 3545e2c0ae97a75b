import { isWorkspaceError } from "../core/errors.ts";
import { openWorkspace, type Workspace } from "../core/workspace.ts";
import { createAutoHost } from "../hosts/auto.ts";
import { UsageError } from "./usage_error.ts";

/**
 * Opens the `--root` workspace with the running runtime's host.
 *
 * @param root The folder, as given (relative to the current folder).
 * @returns The workspace.
 * @throws {UsageError} When the folder cannot be opened as a workspace.
 */
export async function openRoot(root: string): Promise<Workspace> {
  try {
    return await openWorkspace(root, { host: createAutoHost() });
  } catch (error) {
    if (isWorkspaceError(error)) throw new UsageError(`--root '${root}': ${error.message}`);
    throw error;
  }
}
