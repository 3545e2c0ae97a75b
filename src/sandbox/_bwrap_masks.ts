// What the bubblewrap sandbox hides of the host folders it shows: every entry that other users may not
// read. A command may run as uid 0 (a root caller over a root-owned workspace) with no capability, yet uid
// 0 *owns* root's files, and the owner reads a 0600 file or enters a 0700 folder without any capability
// (`/etc/ssl/private`). So whatever the command's uid, an entry of a shown folder is visible inside only
// if any user could read it outside:
// - a folder other users may not both list and enter (o+rx) becomes an empty tmpfs of mode 0000,
//   read-only (its owner, uid 0 included, can neither list it nor chmod it);
// - any other entry other users may not read (o+r) — a file, a socket, a device — gets the host's
//   `/dev/null` bound over it read-only: bwrap's binds are `nodev`, so opening it fails (EACCES), and
//   nothing can be written or chmod-ed.
// The list is made once per sandbox (at its probe) by `find` over the shown folders; a file made, or
// made unreadable, later is not hidden until a new sandbox is made.
import * as fs from "node:fs";
import { SANDBOX_MASK_MAX_PATHS, SANDBOX_MASK_WALK_TIMEOUT_MS } from "../core/limits.ts";
import { runProcess } from "../core/process/run_process.ts";
import type { Host } from "../host.ts";
import { findOnPath, isExecutableFile, reasonOf } from "./_bwrap_probe.ts";
import { unavailable } from "./_sandbox_unavailable.ts";

// Bytes of find's answer read: the most paths, each at most PATH_MAX (4096) with its NUL.
const MASK_OUTPUT_BYTES = SANDBOX_MASK_MAX_PATHS * 4097;

/**
 * find's predicates, -H so that a shown root that is a link (`/etc/localtime`) is judged by what bwrap
 * binds, its target: a folder lacking o+rx is printed and not entered; any other entry but a link lacking
 * o+r is printed. Links are never judged: what they point to is judged where it is shown.
 */
// deno-fmt-ignore
const PREDICATES = [
  "(", "-type", "d", "!", "-perm", "-005", "-prune", "-print0", ")",
  "-o",
  "(", "!", "-type", "d", "!", "-type", "l", "!", "-perm", "-004", "-print0", ")",
];

/** One masked entry: a folder or anything else. */
export interface MaskedPath {
  path: string;
  folder: boolean;
}

/**
 * Lists the entries below `roots` (host paths shown at their own place inside) that other users may not
 * read.
 *
 * @param host The host that runs find.
 * @param roots Existing host paths, each walked without following links below it.
 * @returns The entries to hide, in find's order (a folder before anything under it: none is listed).
 * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` without find, when it fails, or past SANDBOX_MASK_MAX_PATHS.
 */
export async function unreadableEntries(host: Host, roots: readonly string[]): Promise<MaskedPath[]> {
  if (roots.length === 0) return [];
  const find = findOnPath("find");
  if (find === undefined || !isExecutableFile(find)) {
    throw unavailable(
      "find was not found (it lists the host files the sandbox hides)",
      "install findutils (Debian and Ubuntu: apt-get install findutils)",
    );
  }
  // 1. One walk lists them; 2. a stat of each (few) tells folders from the rest (following a link, as
  // bwrap does for a shown root); an entry gone since is left out (a bind over it would fail).
  const listed = await listWith(host, [find, "-H", ...roots, ...PREDICATES]);
  const entries: MaskedPath[] = [];
  for (const path of listed) {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(path, { throwIfNoEntry: false });
    } catch {
      stat = fs.lstatSync(path); // not reachable by stat: hidden as what it is here
    }
    if (stat !== undefined) entries.push({ path, folder: stat.isDirectory() });
  }
  return entries;
}

/** Runs one find and splits its NUL-separated answer; fails closed on any error or too long an answer. */
async function listWith(host: Host, argv: string[]): Promise<string[]> {
  const result = await runProcess(host, {
    argv,
    cwd: "/",
    env: { PATH: "/usr/bin:/bin", LC_ALL: "C" },
    timeoutMs: SANDBOX_MASK_WALK_TIMEOUT_MS,
    maxOutputBytes: MASK_OUTPUT_BYTES,
  }).catch(() => null);
  if (result === null || result.exitCode !== 0 || result.stdout.truncated) {
    throw unavailable(
      `the host files to hide could not be listed (${
        result === null ? "find did not start" : result.timedOut ? "find timed out" : reasonOf(result.stderr.text)
      })`,
      "check that the runtime may run find and read the folders the sandbox shows",
    );
  }
  const paths = result.stdout.text.split("\0").filter((entry) => entry.length > 0);
  if (paths.length > SANDBOX_MASK_MAX_PATHS) {
    throw unavailable(
      `more than ${SANDBOX_MASK_MAX_PATHS} host entries would have to be hidden`,
      "make the folders the sandbox shows readable by other users, or show fewer (readOnly)",
    );
  }
  return paths;
}

/**
 * The bwrap arguments that hide `entries` (after the binds that show them).
 *
 * @param entries From {@link unreadableEntries}.
 * @returns `--perms 0000 --tmpfs F --remount-ro F` per folder, `--ro-bind /dev/null P` per other entry.
 */
export function maskArguments(entries: readonly MaskedPath[]): string[] {
  return entries.flatMap(({ path, folder }) =>
    folder ? ["--perms", "0000", "--tmpfs", path, "--remount-ro", path] : ["--ro-bind", "/dev/null", path]
  );
}
