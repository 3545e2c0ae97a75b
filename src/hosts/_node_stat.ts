/**
 * `node:fs` metadata as the host seam's: an entry's kind and a
 * {@link HostStat}, shared by the Node and Deno hosts' filesystem.
 *
 * @module
 */
import type { Stats } from "node:fs";
import type { EntryKind, HostStat } from "../host.ts";

/** The kind of a `node:fs` stat or directory entry. */
export function kindOf(
  stats: Pick<
    Stats,
    "isFile" | "isDirectory" | "isSymbolicLink" | "isFIFO" | "isSocket" | "isBlockDevice" | "isCharacterDevice"
  >,
): EntryKind {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  if (stats.isBlockDevice()) return "block-device";
  if (stats.isCharacterDevice()) return "char-device";
  return "other";
}

/** A `node:fs` stat as a {@link HostStat}. */
export function toStat(stats: Stats): HostStat {
  return {
    kind: kindOf(stats),
    size: stats.size,
    mode: stats.mode & 0o7777,
    dev: stats.dev,
    ino: stats.ino,
    mtimeMs: stats.mtimeMs,
    birthtimeMs: stats.birthtimeMs,
  };
}
