// move_path never makes a link point outside the workspace: the lexical check
// of one link, and the scan of a folder that moves to a shallower place.
import { throwIfAborted } from "../core/errors.ts";
import { closeFolder, type Folder } from "../core/fs/folder.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import { isAbsoluteHostPath, segmentsBelow, splitHostPath } from "../core/path/host_path.ts";
import type { Fail } from "./_move_failure.ts";

/** Whether link `target`, stored in the folder at canonical `folder`, lands inside the workspace (lexically). */
export function landsInside(workspace: Workspace, folder: readonly string[], target: string): boolean {
  const platform = workspace.host.platform;
  if (isAbsoluteHostPath(platform, target)) {
    return (segmentsBelow(platform, workspace.root, target) ?? segmentsBelow(platform, workspace.rootEntry, target)) !==
      null;
  }
  let depth = folder.length;
  for (const part of splitHostPath(platform, target)) {
    if (part === "..") {
      if (depth === 0) return false;
      depth--;
    } else depth++;
  }
  return true;
}

/**
 * Refuses a folder move that would make a relative link inside it point
 * outside the workspace. Walks the held folder depth first, each subfolder
 * opened at its held parent, each link read at its folder.
 */
export async function checkLinksInside(
  workspace: Workspace,
  start: Folder,
  destination: readonly string[],
  maxEntries: number,
  fail: Fail,
  signal: AbortSignal | undefined,
): Promise<void> {
  let seen = 0;
  const visit = async (folder: Folder, at: string[]): Promise<void> => {
    throwIfAborted(signal);
    const entries = await workspace.host.readdir(folder.at);
    await workspace.confirm(folder);
    for (const entry of entries) {
      if (++seen > maxEntries) {
        throw fail(
          "TOO_MANY_ENTRIES",
          `the folder holds more than ${maxEntries} entries to check for links`,
          "move it to a place at least as deep as it is now, or move its subfolders one at a time",
        );
      }
      if (entry.kind === "directory") {
        const child = await workspace.openFolder(folder, entry.name);
        if (child.kind === "folder") {
          try {
            await visit(child.folder, [...at, entry.name]);
          } finally {
            await closeFolder(child.folder);
          }
        } else if (child.kind === "symlink") {
          await checkLink(folder, entry.name, at);
        }
      } else if (entry.kind === "symlink") {
        await checkLink(folder, entry.name, at);
      }
    }
  };
  const checkLink = async (folder: Folder, name: string, at: string[]): Promise<void> => {
    const target = await workspace.host.readlink(workspace.childPath(folder, name));
    if (!landsInside(workspace, at, target)) {
      throw fail("PATH_ESCAPES_WORKSPACE", `the symbolic link '${name}' inside would point outside the workspace`);
    }
  };
  await visit(start, [...destination]);
}
