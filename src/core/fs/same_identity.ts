/** The identity of a filesystem object: device, inode and (where known) birth time. */
export interface Identity {
  /** The device number. */
  dev: number;
  /** The inode number. */
  ino: number;
  /** The birth time in milliseconds, where the filesystem reports it. */
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
