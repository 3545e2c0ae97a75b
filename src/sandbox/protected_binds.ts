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
 * outside file inside) and can be replaced; what it leads to inside the
 * workspace is in `readOnly` (the caller's scan puts it there).
 *
 * A race is closed inside: the paths are checked here (no link on the way,
 * still there), but the backend resolves them again when it mounts, so a
 * process already running in the workspace that swaps a folder on the way
 * for a link in that instant could make a bind land elsewhere, or show an
 * outside file of a protected name. So the command runs behind a check
 * (`verifiedArgv`) that reads the sandbox's own mount table first and runs
 * nothing unless every bind is where it belongs, from where it belongs.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { SandboxWrapRequest } from "../core/process/command_sandbox.ts";
import { WorkspaceError } from "../core/errors.ts";

/** The protected paths of a request that still exist, checked: pinned folders first, each list sorted. */
export interface CheckedProtectedPaths {
  /** Folders to bind over themselves (read-write). */
  pinned: string[];
  /** Entries to bind read-only over themselves. */
  readOnly: string[];
  /** Private entries to mask: an empty file (`/dev/null`, read-only) over a file, an empty read-only folder over a folder. */
  masked: Array<{ path: string; folder: boolean }>;
}

function changed(): WorkspaceError {
  return new WorkspaceError(
    "PATH_CHANGED",
    "Cannot sandbox the command: a protected path became a link while the sandbox was set up",
    { hint: "try again; another process is changing the workspace" },
  );
}

// Whether `target` below `root` still exists with no link on the way (itself included): its lstat, or undefined.
function existsWithoutLinks(root: string, target: string, wantFolder: boolean): fs.Stats | undefined {
  const parts = target.slice(root.length + 1).split("/");
  let at = root;
  for (let i = 0; i < parts.length; i++) {
    at = `${at}/${parts[i]}`;
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (stat === undefined) return undefined; // gone since the scan: nothing left to protect there
    if (stat.isSymbolicLink()) throw changed();
    if (i < parts.length - 1 && !stat.isDirectory()) return undefined;
    if (i === parts.length - 1 && wantFolder && !stat.isDirectory()) throw changed();
    if (i === parts.length - 1) return stat;
  }
  return undefined;
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
    [...(list ?? [])].sort().filter((target) => existsWithoutLinks(rootOf(target), target, wantFolder) !== undefined);
  const masked = [...(request.masked ?? [])].sort().flatMap((target) => {
    const stat = existsWithoutLinks(rootOf(target), target, false);
    return stat === undefined ? [] : [{ path: target, folder: stat.isDirectory() }];
  });
  return { pinned: keep(request.pinned, true), readOnly: keep(request.readOnly, false), masked };
}

/**
 * bwrap arguments for checked protected paths, to follow the writable binds:
 * `--bind P P` for each pinned folder, then `--ro-bind R R` for each
 * protected entry (bwrap mounts in argument order, parents first).
 *
 * @param checked From {@link checkProtectedPaths}.
 * @returns The arguments (empty without protected paths).
 */
export function protectedBinds(checked: CheckedProtectedPaths): string[] {
  return [
    ...checked.pinned.flatMap((dir) => ["--bind", dir, dir]),
    ...checked.readOnly.flatMap((entry) => ["--ro-bind", entry, entry]),
    ...checked.masked.flatMap(({ path: at, folder }) =>
      folder ? ["--perms", "0555", "--tmpfs", at, "--remount-ro", at] : ["--ro-bind", "/dev/null", at]
    ),
  ];
}

// A path as /proc/self/mountinfo shows it (space, tab, newline and backslash in octal).
function mountinfoPath(value: string): string {
  return value.replace(/[\\ \t\n]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

// Run first inside the sandbox, before the command: every mount below the
// workspace must be one of ours (listed between the workspace and `--`),
// each exactly once, of the workspace's filesystem at the workspace's own
// subpath. A bind that a swapped-in link redirected fails this (it shows
// another source, or sits elsewhere, or one of ours is missing), and then
// nothing runs (exit 125). A workspace holding mounts of its own fails it too.
// Masks (listed after a '+') are mounts of another filesystem (an empty tmpfs, /dev/null) exactly where listed.
const VERIFY_SCRIPT = `nl='
'
ws=$1; shift; want=$nl; masks=$nl
while [ "$1" != -- ] && [ "$1" != + ]; do want="$want$1$nl"; shift; done
if [ "$1" = + ]; then shift; while [ "$1" != -- ]; do masks="$masks$1$nl"; shift; done; fi
shift
left=$want; mleft=$masks; r=; d=; bad=
while read -r _ _ dev root mp _; do [ "$mp" = "$ws" ] && { r=$root; d=$dev; }; done < /proc/self/mountinfo
[ -n "$d" ] || bad=1
[ "$r" = / ] && r=
while read -r _ _ dev root mp _; do
  case "$mp" in "$ws"/*) ;; *) continue ;; esac
  case "$mleft" in *"$nl$mp$nl"*)
    if [ "$dev" != "$d" ]; then mleft="\${mleft%%"$nl$mp$nl"*}$nl\${mleft#*"$nl$mp$nl"}"; else bad=1; fi
    continue ;;
  esac
  case "$left" in *"$nl$mp$nl"*) ;; *) bad=1; continue ;; esac
  if [ "$dev" = "$d" ] && [ "$root" = "$r\${mp#"$ws"}" ]; then
    left="\${left%%"$nl$mp$nl"*}$nl\${left#*"$nl$mp$nl"}"
  else bad=1; fi
done < /proc/self/mountinfo
if [ -n "$bad" ] || [ "$left" != "$nl" ] || [ "$mleft" != "$nl" ]; then
  echo "paddock: the sandbox's protected paths are not mounted as set up (the workspace changed meanwhile, or holds mounts of its own); nothing ran" >&2
  exit 125
fi
exec "$@"`;

/**
 * The command, preceded by the in-sandbox check of the protected binds (see
 * above): a command that runs is known to see them where they belong.
 *
 * @param argv The command as it runs inside.
 * @param workspace The workspace's path inside.
 * @param paths The pinned folders and protected entries, as paths inside.
 * @param masks The masked private entries, as paths inside. @default []
 * @returns The argv to run inside (unchanged without protected or private paths).
 */
export function verifiedArgv(
  argv: string[],
  workspace: string,
  paths: readonly string[],
  masks: readonly string[] = [],
): string[] {
  if (paths.length === 0 && masks.length === 0) return argv;
  return [
    "/bin/sh",
    "-c",
    VERIFY_SCRIPT,
    "paddock-verify",
    mountinfoPath(workspace),
    ...paths.map(mountinfoPath),
    ...(masks.length === 0 ? [] : ["+", ...masks.map(mountinfoPath)]),
    "--",
    ...argv,
  ];
}
