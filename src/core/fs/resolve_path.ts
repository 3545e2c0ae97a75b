import { type HostStat, isHostError } from "../../host.ts";
import { WorkspaceError } from "../errors.ts";
import { closeFolder, type Folder } from "./folder.ts";
import { isAbsoluteHostPath, segmentsBelow, splitHostPath } from "../path/host_path.ts";
import { MAX_SYMLINK_HOPS, MAX_WALK_DEPTH } from "../limits.ts";
import { mapHostError } from "./map_host_error.ts";
import { recordChange } from "./change_journal.ts";
import { windowsNameProblem } from "../path/windows_name_problem.ts";
import { privatePathError, privatePattern } from "./private_paths.ts";
import type { ResolveOptions, Workspace } from "./workspace.ts";

/** What {@link resolvePath} found: a final name at a held folder. */
export interface Resolved {
  /** The held folder that contains the final object (for the root itself: the root). */
  folder: Folder;
  /** The final name at `folder`, or `null` when the path names the root. */
  name: string | null;
  /** Where the final object is reached: the name at the held folder (the folder's own `at` for the root). */
  hostPath: string;
  /** The canonical segments below the root (links resolved). */
  segments: string[];
  /** The final object's lstat, or `null` when it does not exist (only with `allowMissing`). */
  stat: HostStat | null;
  /** Closes the folders this walk holds (never the root's). Safe to call twice. */
  release(): Promise<void>;
}

interface PendingSegment {
  name: string;
  fromLink: boolean;
  /** It must name a folder: the last name of a link target ending in `/` (or `/.`), as POSIX and Go's `os.Root` read it. */
  folder: boolean;
  /** `folder` is the caller's own trailing `/` (carried through links whose targets do not end in one), for the message. */
  callerSlash: boolean;
}

/**
 * The one walker: resolves normalized segments from the workspace's held
 * root, one name at a time, as Go's `os.Root` does over `openat`.
 *
 * 1. Each folder on the way is opened *at* the folder before it (no-follow,
 *    `O_DIRECTORY`) and held: a later swap of any name above cannot redirect
 *    the walk, which keeps working in the folders it holds.
 * 2. A link is read at its folder and its target walked in turn: an absolute
 *    target must lie under the root and restarts at the held root; `..` steps
 *    back to the folder held before, never above the root; at most
 *    {@link MAX_SYMLINK_HOPS} links; a dangling link is never followed; a
 *    target ending in `/` (or `/.`) must lead to a folder (`link -> file/` is
 *    `NOT_A_DIRECTORY`, as `ENOTDIR` in POSIX and Go's `os.Root`).
 * 3. The final name is lstat'ed at the last held folder, where the caller then
 *    does its one operation ({@link Resolved.hostPath}).
 *
 * Does not check the root (callers do that first). On the `paths` route each
 * step re-verifies the chain (see {@link Workspace.confirm}).
 *
 * @param workspace The workspace.
 * @param segments The normalized path.
 * @param options Link, missing-file and folder-creation behaviour; names for messages.
 * @returns The final name at its held folder; the caller releases it.
 * @throws {WorkspaceError} `PATH_ESCAPES_WORKSPACE`, `SYMLINK_LOOP`,
 * `DANGLING_SYMLINK`, `NOT_FOUND`, `NOT_A_DIRECTORY`, `PATH_CHANGED`,
 * `PATH_TOO_DEEP`, or a mapped host error.
 */
export async function resolvePath(
  workspace: Workspace,
  segments: readonly string[],
  options: ResolveOptions = {},
): Promise<Resolved> {
  const { followFinal = true, allowMissing = false, createParents = false, action = "open" } = options;
  const display = options.display ?? (segments.join("/") || ".");
  const host = workspace.host;
  const platform = host.platform;
  const fail = (code: WorkspaceError["code"], detail: string, hint?: string) =>
    new WorkspaceError(code, `Cannot ${action} '${display}': ${detail}`, { path: display, hint });
  // Deeper than a walk may hold: refused before any step (and any folder made).
  if (segments.length - 1 > MAX_WALK_DEPTH) {
    throw fail("PATH_TOO_DEEP", `more than ${MAX_WALK_DEPTH} folder levels below the workspace root`);
  }
  // A private path (as given, and as resolved: every folder held, one about to be made, the final name) is
  // refused before anything is made or opened past it.
  const privatePaths = workspace.privatePaths ?? [];
  const refusePrivate = (at: readonly string[]): void => {
    const pattern = privatePattern(at, privatePaths);
    if (pattern !== undefined) throw privatePathError(action, display, pattern);
  };
  refusePrivate(segments);
  const root = await workspace.rootFolder();

  // The folders held, root first: '..' from a link target steps back one.
  const stack: Folder[] = [root];
  const top = (): Folder => stack[stack.length - 1];
  const closeAbove = async (depth: number): Promise<void> => {
    while (stack.length > depth) await closeFolder(stack.pop() as Folder);
  };
  const pending: PendingSegment[] = segments.map((name, index) => ({
    name,
    fromLink: false,
    folder: options.folder === true && index === segments.length - 1,
    callerSlash: options.folder === true && index === segments.length - 1,
  }));
  let hops = 0;

  try {
    while (pending.length > 0) {
      const { name, fromLink, folder: mustBeFolder, callerSlash } = pending.shift() as PendingSegment;
      if (name === "..") {
        // Only link targets bring '..' (the grammar refuses it): step back, never above the root.
        if (stack.length === 1) throw fail("PATH_ESCAPES_WORKSPACE", "a symbolic link points outside the workspace");
        await closeAbove(stack.length - 1);
        continue;
      }
      const folder = top();
      const isFinal = pending.length === 0;
      const path = workspace.childPath(folder, name);

      if (!isFinal) {
        // A folder on the way: hold it, or learn what is there instead.
        let found = await workspace.openFolder(folder, name).catch((error) => {
          throw mapHostError(error, action, display);
        });
        if (found.kind === "missing") {
          // A link whose target is missing is never followed, not even to create it.
          if (fromLink) throw fail("DANGLING_SYMLINK", "a symbolic link points to something that does not exist");
          if (!createParents) throw fail("NOT_FOUND", "no such file or folder");
          refusePrivate([...folder.segments, name]);
          found = await createFolder(workspace, folder, name, action, display);
        }
        if (found.kind === "folder") {
          stack.push(found.folder);
          refusePrivate(found.folder.segments);
          continue;
        }
        if (found.kind === "other") throw fail("NOT_A_DIRECTORY", "a path component is not a folder");
      }

      // The final name (or a link on the way): look without following.
      let stat: HostStat | null = null;
      try {
        stat = await host.lstat(path);
      } catch (error) {
        if (isHostError(error, "ENOTDIR")) throw fail("NOT_A_DIRECTORY", "a path component is not a folder");
        if (!isHostError(error, "ENOENT")) throw mapHostError(error, action, display);
      }
      await workspace.confirm(folder);
      if (!isFinal && stat?.kind !== "symlink") {
        throw fail("PATH_CHANGED", "a folder was replaced while the path was resolved");
      }
      if (stat === null) {
        if (fromLink) throw fail("DANGLING_SYMLINK", "a symbolic link points to something that does not exist");
        if (!allowMissing) throw fail("NOT_FOUND", "no such file or folder");
        return await finish(folder, name, null);
      }
      if (stat.kind === "symlink" && (!isFinal || followFinal)) {
        if (++hops > MAX_SYMLINK_HOPS) {
          throw fail("SYMLINK_LOOP", `more than ${MAX_SYMLINK_HOPS} symbolic links`, "the path runs in a link loop");
        }
        const target = await host.readlink(path).catch((error) => {
          // No longer a link (EINVAL) or gone: it changed between the look and the read.
          if (isHostError(error, "EINVAL", "ENOENT")) {
            throw fail("PATH_CHANGED", "a symbolic link was replaced while it was read");
          }
          throw mapHostError(error, action, display);
        });
        await workspace.confirm(folder);
        let targetSegments: string[];
        if (isAbsoluteHostPath(platform, target)) {
          // An absolute target must lie under the root (as canonical, or as given); it restarts at the held root.
          const below = segmentsBelow(platform, workspace.root, target) ??
            segmentsBelow(platform, workspace.rootEntry, target);
          if (below === null) throw fail("PATH_ESCAPES_WORKSPACE", "a symbolic link points outside the workspace");
          await closeAbove(1);
          targetSegments = below;
        } else {
          targetSegments = splitHostPath(platform, target);
        }
        // On Windows a target segment is not taken literally when it ends in a
        // dot or a space, holds a colon or names a device: `.. ` becomes `..`
        // and climbs out of the folder the walk believes it is in.
        if (platform === "win32" && targetSegments.some((part) => part !== ".." && windowsNameProblem(part) !== null)) {
          throw fail("PATH_ESCAPES_WORKSPACE", "a symbolic link target holds a name Windows would rewrite");
        }
        // A trailing '/' (of this target, or of the name this link stood for) binds the target's last name.
        const targetSlash = namesFolder(platform, target);
        const folderAtEnd = mustBeFolder || targetSlash;
        pending.unshift(...targetSegments.map((part, index) => ({
          name: part,
          fromLink: true,
          folder: folderAtEnd && index === targetSegments.length - 1,
          callerSlash: callerSlash && !targetSlash && index === targetSegments.length - 1,
        })));
        continue;
      }
      if (mustBeFolder && stat.kind !== "directory") {
        throw fail(
          "NOT_A_DIRECTORY",
          fromLink && !callerSlash
            ? "a symbolic link's target ends in '/' but does not lead to a folder"
            : "the path ends in '/' but does not name a folder",
        );
      }
      // A non-folder on the way was refused by openFolder; this is the final name.
      return await finish(folder, name, stat);
    }
    // The path names a held folder itself (the root, or a folder reached through links).
    const folder = top();
    if (folder.parent === null) return await finish(folder, null, folder.stat);
    // Re-express it as a name at the folder above, so callers always act at a parent.
    const parent = stack[stack.length - 2];
    const name = folder.segments[folder.segments.length - 1];
    const stat = await host.lstat(workspace.childPath(parent, name)).catch(() => null);
    await workspace.confirm(parent);
    if (stat === null || stat.kind !== "directory" || !sameObject(stat, folder.stat)) {
      throw fail("PATH_CHANGED", "a folder was replaced while the path was resolved");
    }
    await closeAbove(stack.length - 1);
    return await finish(parent, name, stat);
  } catch (error) {
    await closeAbove(1);
    throw error;
  }

  // Keeps the folder the result names and closes every other one held.
  async function finish(folder: Folder, name: string | null, stat: HostStat | null): Promise<Resolved> {
    refusePrivate(name === null ? folder.segments : [...folder.segments, name]);
    const keep = stack.indexOf(folder);
    for (let i = stack.length - 1; i > 0; i--) if (i !== keep) await closeFolder(stack[i]);
    stack.length = 0;
    let released = false;
    return {
      folder,
      name,
      hostPath: name === null ? folder.at : workspace.childPath(folder, name),
      segments: name === null ? [...folder.segments] : [...folder.segments, name],
      stat,
      release: async () => {
        if (released || folder.parent === null) return;
        released = true;
        await closeFolder(folder);
      },
    };
  }
}

// Whether a link target ends in a separator, or in `.` after one: POSIX then resolves its last name as a folder.
function namesFolder(platform: Workspace["host"]["platform"], target: string): boolean {
  return (platform === "win32" ? /[\\/]\.?$/ : /\/\.?$/).test(target);
}

function sameObject(a: HostStat, b: HostStat): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

// Creates one missing folder during a walk and holds it.
// 1. mkdir at the held folder; a folder made concurrently by someone else is fine…
// 2. …if it is a real folder: it is opened at the same held folder, no-follow,
//    so a link swapped in between fails here instead of being entered.
// 3. `paths` only: the chain is re-verified after the mkdir; if a folder above
//    was swapped for a link, the new folder was made wherever the link points:
//    refuse, and remove it if it is the one we just made.
async function createFolder(
  workspace: Workspace,
  parent: Folder,
  name: string,
  action: string,
  display: string,
): Promise<{ kind: "folder"; folder: Folder }> {
  const host = workspace.host;
  const path = workspace.childPath(parent, name);
  const changed = () =>
    new WorkspaceError("PATH_CHANGED", `Cannot ${action} '${display}': a folder was replaced while it was created`, {
      path: display,
    });
  let created = true;
  const journaled = await recordChange(workspace, { kind: "mkdir", segments: [...parent.segments, name] }, path, null);
  try {
    await host.mkdir(path);
  } catch (error) {
    journaled?.cancel();
    if (!isHostError(error, "EEXIST")) throw mapHostError(error, action, display);
    created = false;
  }
  let found;
  try {
    found = await workspace.openFolder(parent, name);
  } catch (error) {
    journaled?.cancel(); // the folder is ours but no longer where the walk held, or it was taken back
    if (created && parent.handle === null) {
      const stat = await host.lstat(path).catch(() => null);
      if (stat?.kind === "directory") await host.rmdir(path).catch(() => {});
    }
    throw error instanceof WorkspaceError ? changed() : mapHostError(error, action, display);
  }
  if (found.kind !== "folder") {
    journaled?.cancel();
    throw changed();
  }
  if (created) journaled?.done(found.folder.stat);
  return found;
}
