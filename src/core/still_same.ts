import { type EntryKind, type Host, type HostStat, isHostError } from "../host.ts";
import { type Identity, sameIdentity } from "./same_identity.ts";

/**
 * Whether `path` still names the object a check saw: an lstat (never
 * following a final link) finds the same identity and, when `kind` is given,
 * the same kind. A path that is gone or cannot be examined is not the same.
 * Each caller says what a `false` means (usually `PATH_CHANGED`).
 *
 * @param host The host.
 * @param path The host path to look at.
 * @param identity The identity seen earlier.
 * @param kind The kind seen earlier, when it must match too.
 * @returns Whether the path still names that object.
 */
export async function stillSame(host: Host, path: string, identity: Identity, kind?: EntryKind): Promise<boolean> {
  const now = await host.lstat(path).catch(() => null);
  return now !== null && sameIdentity(now, identity) && (kind === undefined || now.kind === kind);
}

/**
 * Whether `path` is still as a check saw it: still missing when `seen` is
 * `null`, else still the same object of the same kind (lstat). Kind too: a
 * link swapped in may reuse the freed inode number, and some hosts report no
 * birth time for links.
 *
 * @param host The host.
 * @param path The host path to look at.
 * @param seen The lstat the check saw, or `null` when the path was missing.
 * @returns Whether nothing changed there.
 * @throws {HostError} When the path cannot be examined (anything but `ENOENT`).
 */
export async function stillAsSeen(host: Host, path: string, seen: HostStat | null): Promise<boolean> {
  let now: HostStat | null = null;
  try {
    now = await host.lstat(path);
  } catch (error) {
    if (!isHostError(error, "ENOENT")) throw error;
  }
  if (seen === null || now === null) return seen === now;
  return now.kind === seen.kind && sameIdentity(now, seen);
}
