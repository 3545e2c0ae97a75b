/**
 * Raw, synchronous file operations for building and inspecting race
 * fixtures, on the real disk (`node:fs`) or inside a memory host — never
 * through Paddock's confinement, which is what is under test.
 *
 * @module
 */
import * as fs from "node:fs";
import type { EntryKind } from "../../host.ts";
import type { MemoryHost } from "../../testing.ts";
import { exchangeSync } from "../helpers/swapper.ts";

/** What `lstat` says about an entry (not following a final link). */
export interface RawStat {
  kind: EntryKind;
  size: number;
  mode: number;
  ino: number;
  mtimeMs: number;
}

/** Synchronous raw operations on absolute paths. */
export interface FixtureFs {
  /** Whether this is the real disk (`true`) or a memory host. */
  readonly disk: boolean;
  mkdir(path: string): void;
  writeFile(path: string, text: string): void;
  readFile(path: string): Uint8Array;
  /** `null` when nothing is there. */
  lstat(path: string): RawStat | null;
  readdir(path: string): string[];
  readlink(path: string): string;
  symlink(target: string, path: string): void;
  unlink(path: string): void;
  rmdir(path: string): void;
  rename(from: string, to: string): void;
  /** Exchanges two names atomically. */
  exchange(a: string, b: string): void;
  /** Removes `path` and everything below it, never following a link; nothing there is fine. */
  removeTree(path: string): void;
}

function diskKind(stat: fs.Stats): EntryKind {
  if (stat.isFile()) return "file";
  if (stat.isDirectory()) return "directory";
  if (stat.isSymbolicLink()) return "symlink";
  if (stat.isFIFO()) return "fifo";
  if (stat.isSocket()) return "socket";
  if (stat.isBlockDevice()) return "block-device";
  if (stat.isCharacterDevice()) return "char-device";
  return "other";
}

/** The real disk. Exchanges go through the compiled swapper (`renameat2(RENAME_EXCHANGE)`). */
export const DISK_FS: FixtureFs = {
  disk: true,
  mkdir: (path) => fs.mkdirSync(path),
  writeFile: (path, text) => fs.writeFileSync(path, text),
  readFile: (path) => fs.readFileSync(path),
  lstat: (path) => {
    try {
      const stat = fs.lstatSync(path);
      return { kind: diskKind(stat), size: stat.size, mode: stat.mode & 0o7777, ino: stat.ino, mtimeMs: stat.mtimeMs };
    } catch {
      return null;
    }
  },
  readdir: (path) => fs.readdirSync(path),
  readlink: (path) => fs.readlinkSync(path),
  symlink: (target, path) => fs.symlinkSync(target, path),
  unlink: (path) => fs.unlinkSync(path),
  rmdir: (path) => fs.rmdirSync(path),
  rename: (from, to) => fs.renameSync(from, to),
  exchange: exchangeSync,
  removeTree: (path) => fs.rmSync(path, { recursive: true, force: true }),
};

/**
 * The tree of a memory host. `rename` and `rmdir` have no synchronous helper
 * there; the host's primitives act when called (the promise only reports), so
 * the result is checked with `lstatSync` right after.
 */
export function memoryFs(host: MemoryHost, exchange: (host: MemoryHost, a: string, b: string) => void): FixtureFs {
  const lstat = (path: string): RawStat | null => {
    try {
      const stat = host.lstatSync(path);
      return { kind: stat.kind, size: stat.size, mode: stat.mode, ino: stat.ino, mtimeMs: stat.mtimeMs };
    } catch {
      return null;
    }
  };
  const rename = (from: string, to: string): void => {
    const moving = lstat(from);
    host.rename(from, to).catch(() => {});
    if (moving === null || lstat(to)?.ino !== moving.ino) throw new Error(`Cannot rename ${from} to ${to}`);
  };
  const rmdir = (path: string): void => {
    host.rmdir(path).catch(() => {});
    if (lstat(path) !== null) throw new Error(`Cannot remove the folder ${path}`);
  };
  const removeTree = (path: string): void => {
    const stat = lstat(path);
    if (stat === null) return;
    if (stat.kind === "directory") {
      for (const entry of host.readdirSync(path)) removeTree(`${path}/${entry.name}`);
      rmdir(path);
    } else host.unlinkSync(path);
  };
  return {
    disk: false,
    mkdir: (path) => host.mkdirSync(path),
    writeFile: (path, text) => host.writeFileSync(path, text),
    readFile: (path) => host.readFileSync(path),
    lstat,
    readdir: (path) => host.readdirSync(path).map((entry) => entry.name),
    readlink: (path) => host.readlinkSync(path),
    symlink: (target, path) => host.symlinkSync(target, path),
    unlink: (path) => host.unlinkSync(path),
    rmdir,
    rename,
    exchange: (a, b) => exchange(host, a, b),
    removeTree,
  };
}
