/** The identity of a filesystem object: device, inode and (where known) birth time. */
export interface Identity {
  dev: number;
  ino: number;
  birthtimeMs?: number;
}

/**
 * Whether two stats (or identities) name the same object. Birth times are
 * compared when both are known, so an inode number reused by a new object is
 * told apart from the old one.
 */
export function sameIdentity(a: Identity, b: Identity): boolean {
  if (a.dev !== b.dev || a.ino !== b.ino) return false;
  return !a.birthtimeMs || !b.birthtimeMs || a.birthtimeMs === b.birthtimeMs;
}
