import { WorkspaceError } from "../errors.ts";
import { closeFolder, type Folder } from "./folder.ts";
import { mapHostError } from "./map_host_error.ts";
import { type Resolved, sameIdentity, type Workspace } from "./workspace.ts";

/** A folder resolved and held, to list or walk; the caller releases it. */
export interface HeldFolder {
  /** The folder itself, held (its `at` is where its entries are listed and reached). */
  folder: Folder;
  /** Its canonical segments below the root. */
  segments: string[];
  /** Closes the handle (never the root's). Safe to call twice. */
  release(): Promise<void>;
}

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
 * Resolves `segments` confined (links followed), requires a folder there, and
 * holds it: opened at its held parent, and the same folder the walk saw.
 * Does not check the root (callers do that first).
 *
 * @param workspace The workspace.
 * @param segments The normalized path.
 * @param options The action and path for messages, and the hint.
 * @returns The held folder.
 * @throws {WorkspaceError} `NOT_A_DIRECTORY` when the path names something else, `PATH_CHANGED`, or what
 * {@link Workspace.resolve} throws.
 */
export async function resolveFolder(
  workspace: Workspace,
  segments: readonly string[],
  options: ResolveFolderOptions,
): Promise<HeldFolder> {
  const target = await workspace.resolve(segments, { action: options.action, display: options.display });
  try {
    return await holdFolder(workspace, target, options);
  } finally {
    await target.release();
  }
}

/**
 * Holds the folder a walk resolved: it must be a folder, opened at its held
 * parent, and the same folder the walk saw. The caller still releases `target`.
 *
 * @param workspace The workspace.
 * @param target What {@link Workspace.resolve} returned.
 * @param options The action and path for messages, and the hint.
 * @returns The held folder.
 * @throws {WorkspaceError} `NOT_A_DIRECTORY`, `PATH_CHANGED`, or a mapped host error.
 */
export async function holdFolder(
  workspace: Workspace,
  target: Resolved,
  options: ResolveFolderOptions,
): Promise<HeldFolder> {
  const { action, display, hint } = options;
  if (target.stat === null || target.stat.kind !== "directory") {
    throw new WorkspaceError("NOT_A_DIRECTORY", `Cannot ${action} '${display}': it is not a folder`, {
      path: display,
      hint,
    });
  }
  if (target.name === null) return { folder: target.folder, segments: [], release: () => Promise.resolve() };
  const found = await workspace.openFolder(target.folder, target.name).catch((error) => {
    throw mapHostError(error, action, display);
  });
  if (found.kind !== "folder" || !sameIdentity(found.folder.stat, target.stat)) {
    if (found.kind === "folder") await closeFolder(found.folder);
    throw new WorkspaceError("PATH_CHANGED", `Cannot ${action} '${display}': the folder changed while it was opened`, {
      path: display,
    });
  }
  const folder = found.folder;
  return { folder, segments: [...folder.segments], release: () => closeFolder(folder) };
}
