import { isWorkspaceError } from "../core/errors.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import type { Host } from "../host.ts";
import { createAutoHost } from "../hosts/auto.ts";
import { createNodeHost } from "../hosts/node.ts";
import { UsageError } from "./usage_error.ts";

/**
 * Opens the `--root` workspace with the running runtime's host.
 *
 * @param root The folder, as given (relative to the current folder).
 * @param options `syncFs`: on Node and Bun, use the host with synchronous
 *   filesystem calls (lower latency; right for a single-client process). @default false;
 *   `privatePaths`: what no tool reads, lists or changes (`--private`). @default []
 * @returns The workspace.
 * @throws {UsageError} When the folder cannot be opened as a workspace.
 */
export async function openRoot(
  root: string,
  options: { syncFs?: boolean; privatePaths?: readonly string[] } = {},
): Promise<Workspace> {
  const onDeno = typeof (globalThis as { Deno?: unknown }).Deno === "object";
  const host: Host = options.syncFs === true && !onDeno ? createNodeHost({ syncFileCalls: true }) : createAutoHost();
  try {
    return await openWorkspace(root, { host, privatePaths: options.privatePaths ?? [] });
  } catch (error) {
    if (isWorkspaceError(error)) throw new UsageError(`--root '${root}': ${error.message}`);
    throw error;
  }
}
