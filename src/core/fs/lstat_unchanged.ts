import { type Host, type HostStat, isHostError } from "../../host.ts";
import { sameIdentity } from "./same_identity.ts";

/**
 * Whether an lstat of `path` still finds what a check saw: still nothing when
 * `seen` is `null`, else the same object of the same kind. Kind too: a
 * link swapped in may reuse the freed inode number, and some hosts report no
 * birth time for links.
 *
 * @param host The host.
 * @param path The host path to look at.
 * @param seen The lstat the check saw, or `null` when the path was missing.
 * @param sameVersion Also require the same size and modification time (the stale-write guard's version). @default false
 * @returns Whether nothing changed there.
 * @throws {HostError} When the path cannot be examined (anything but `ENOENT`).
 */
export async function lstatUnchanged(
  host: Host,
  path: string,
  seen: HostStat | null,
  sameVersion = false,
): Promise<boolean> {
  let now: HostStat | null = null;
  try {
    now = await host.lstat(path);
  } catch (error) {
    if (!isHostError(error, "ENOENT")) throw error;
  }
  if (seen === null || now === null) return seen === now;
  if (sameVersion && (now.size !== seen.size || now.mtimeMs !== seen.mtimeMs)) return false;
  return now.kind === seen.kind && sameIdentity(now, seen);
}
