/**
 * Protected paths inside a sandbox: how a backend shows a request's
 * `readOnly` paths read-only and keeps its `pinned` folders from being
 * renamed, and the checks made on them just before the sandbox starts.
 *
 * Each pinned folder is bound over itself (read-write): a mount point cannot
 * be renamed, removed or replaced (`EBUSY`), so a protected file inside
 * cannot be moved away with its folder and replaced by a new one. Each
 * protected entry is then bound read-only over itself: writing, truncating,
 * removing or renaming it, renaming something over it, creating inside a
 * protected folder (`.git/hooks` made later) and hard-linking it elsewhere
 * (`EXDEV`) all fail, and a link in the workspace pointing at it leads to
 * the read-only file.
 *
 * Not covered, by design: a protected name that does not exist when the
 * command starts can be created (a new top-level `Makefile`); a protected
 * name that is a link is not bound (binding follows links, and would show an
 * outside file inside) and can be replaced.
 *
 * A race remains and is tolerated: the paths are checked here (no link on
 * the way, still there), but the backend resolves them again when it mounts;
 * a process already running in the workspace that swaps a folder on the way
 * for a link in that instant can make the bind land elsewhere, or bind
 * another file of a protected name read-only into this one sandbox.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { SandboxWrapRequest } from "../core/command_sandbox.ts";
import { WorkspaceError } from "../core/errors.ts";

/** The protected paths of a request that still exist, checked: pinned folders first, each list sorted. */
export interface CheckedProtectedPaths {
  /** Folders to bind over themselves (read-write). */
  pinned: string[];
  /** Entries to bind read-only over themselves. */
  readOnly: string[];
}

function changed(): WorkspaceError {
  return new WorkspaceError(
    "PATH_CHANGED",
    "Cannot sandbox the command: a protected path became a link while the sandbox was set up",
    { hint: "try again; another process is changing the workspace" },
  );
}

// Whether `target` below `root` still exists with no link on the way (itself included).
function existsWithoutLinks(root: string, target: string, wantFolder: boolean): boolean {
  const parts = target.slice(root.length + 1).split("/");
  let at = root;
  for (let i = 0; i < parts.length; i++) {
    at = `${at}/${parts[i]}`;
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (stat === undefined) return false; // gone since the scan: nothing left to protect there
    if (stat.isSymbolicLink()) throw changed();
    if (i < parts.length - 1 && !stat.isDirectory()) return false;
    if (i === parts.length - 1 && wantFolder && !stat.isDirectory()) throw changed();
  }
  return true;
}

/**
 * Checks a request's protected paths: each must lie below one of its
 * writable folders, have no link on the way and not be one; a path gone since
 * the caller's scan is dropped.
 *
 * @param request The request to wrap.
 * @returns The paths still to bind.
 * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a path outside the writable folders;
 *   `PATH_CHANGED` when one (or a folder on its way) is now a link.
 */
export function checkProtectedPaths(request: SandboxWrapRequest): CheckedProtectedPaths {
  const rootOf = (target: string): string => {
    const root = request.writable.find((dir) => target.startsWith(`${dir.replace(/\/+$/, "")}/`));
    if (root === undefined || !path.isAbsolute(target) || target.split("/").includes("..")) {
      throw new WorkspaceError(
        "INVALID_ARGUMENTS",
        "Cannot sandbox the command: a protected path must lie inside a writable folder",
      );
    }
    return root.replace(/\/+$/, "");
  };
  const keep = (list: readonly string[] | undefined, wantFolder: boolean) =>
    [...(list ?? [])].sort().filter((target) => existsWithoutLinks(rootOf(target), target, wantFolder));
  return { pinned: keep(request.pinned, true), readOnly: keep(request.readOnly, false) };
}

/**
 * bwrap arguments for a request's protected paths, to follow the writable
 * binds: `--bind P P` for each pinned folder, then `--ro-bind R R` for each
 * protected entry (bwrap mounts in argument order, parents first).
 *
 * @param request The request to wrap.
 * @returns The arguments (empty without protected paths).
 * @throws {WorkspaceError} as {@link checkProtectedPaths}.
 */
export function protectedBinds(request: SandboxWrapRequest): string[] {
  const { pinned, readOnly } = checkProtectedPaths(request);
  return [...pinned.flatMap((dir) => ["--bind", dir, dir]), ...readOnly.flatMap((entry) => ["--ro-bind", entry, entry])];
}
