import type { HostStat } from "../host.ts";
import { WorkspaceError } from "./errors.ts";
import type { Resolved, Workspace } from "./workspace.ts";

/** A {@link Resolved} path that names an existing folder. */
export type ResolvedFolder = Resolved & { stat: HostStat };

/** Options of {@link resolveFolder}. */
export interface ResolveFolderOptions {
  /** The action, for messages ("list", "search"). */
  action: string;
  /** The path as the caller gave it, for messages. */
  display: string;
  /** The hint when the path is not a folder. @default none */
  hint?: string;
}

/**
 * Resolves `segments` confined (links followed) and requires a folder there.
 * Does not check the root (callers do that first).
 *
 * @param workspace The workspace.
 * @param segments The normalized path.
 * @param options The action and path for messages, and the hint.
 * @returns The resolved folder.
 * @throws {WorkspaceError} `NOT_A_DIRECTORY` when the path names something else, or what
 * {@link Workspace.resolve} throws.
 */
export async function resolveFolder(
  workspace: Workspace,
  segments: readonly string[],
  options: ResolveFolderOptions,
): Promise<ResolvedFolder> {
  const { action, display, hint } = options;
  const folder = await workspace.resolve(segments, { action, display });
  if (folder.stat === null || folder.stat.kind !== "directory") {
    throw new WorkspaceError("NOT_A_DIRECTORY", `Cannot ${action} '${display}': it is not a folder`, {
      path: display,
      hint,
    });
  }
  return { ...folder, stat: folder.stat };
}
