/**
 * The filesystem half of the Node host, on `node:fs`: also what the Deno host
 * uses for files and folders (Deno's `node:fs` gives real descriptors,
 * `O_NOFOLLOW` and `O_NONBLOCK`, which its native `open` lacks), so both
 * runtimes reach held folders through `/proc/self/fd` the same way.
 *
 * Two speeds. With `sync`, every primitive but `fsync` (and reads larger than
 * {@link SYNC_READ_MAX_BYTES}) is one direct system call: the lowest latency
 * for a single client such as `paddock mcp`, at the price of blocking the
 * event loop for the call's duration on a slow (network) filesystem. Without
 * it, metadata look-ups, read-only opens and folder listings are still
 * synchronous (the kernel answers them from its caches in microseconds, a
 * tenth of a thread-pool round trip; for listings, a tree walk waited on one
 * round trip per folder: 2.7 s idle of a 3.4 s `find_files` over the 5,106
 * folders of the Linux tree on a loaded machine), while writes, creates,
 * renames and removals go through libuv's thread pool.
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsync as fsyncCallback,
  lstatSync,
  mkdirSync,
  openSync,
  promises as fsp,
  read as readCallback,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import {
  type EntryKind,
  type Host,
  type HostDir,
  type HostDirEntry,
  HostError,
  type HostFile,
  type HostStat,
  type OpenOptions,
} from "../host.ts";
import type { NativeErrors } from "./_native_errors.ts";
import { nodeByteSearch } from "./_node_byte_search.ts";

/** The filesystem primitives of a {@link Host}. */
export type HostFileSystem = Pick<
  Host,
  | "realpath"
  | "lstat"
  | "stat"
  | "open"
  | "openDir"
  | "chmod"
  | "rename"
  | "unlink"
  | "mkdir"
  | "rmdir"
  | "readdir"
  | "readlink"
  | "readSync"
  | "byteSearch"
>;

/** Options of {@link nodeFileSystem}. */
export interface NodeFileSystemOptions {
  /** Every primitive but fsync as one synchronous system call. @default false */
  sync?: boolean;
  /** The host's error mapping. */
  errors: NativeErrors;
  /** Whether `/proc/self/fd/<fd>` names a held descriptor (Linux). */
  procfs: boolean;
  /**
   * Look before `unlink` and `rmdir`, for runtimes whose `unlink` also
   * removes an empty folder and whose `rmdir` a file (Deno's `node:fs`, both
   * built on one remove): unlink then never removes a folder, nor rmdir a file.
   * A swap between the look and the remove can still pick the other call; the
   * callers' identity checks around these primitives cover that.
   * @default false
   */
  removeChecksKind?: boolean;
}

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

function toStat(stats: Stats): HostStat {
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

const HAS_NOFOLLOW = constants.O_NOFOLLOW !== undefined;

function openFlags(options: OpenOptions): number {
  let flags = options.write ? (options.read ? constants.O_RDWR : constants.O_WRONLY) : constants.O_RDONLY;
  if (options.createExclusive) flags |= constants.O_CREAT | constants.O_EXCL;
  if (options.noFollow && HAS_NOFOLLOW) flags |= constants.O_NOFOLLOW;
  if (options.nonBlocking && constants.O_NONBLOCK !== undefined) flags |= constants.O_NONBLOCK;
  return flags;
}

// A folder held open: read-only, O_DIRECTORY (a FIFO, device or file fails
// with ENOTDIR instead of blocking or opening), O_NOFOLLOW (a link fails with
// ELOOP), O_NONBLOCK for good measure.
const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

/**
 * A synchronous read larger than this goes through the thread pool instead,
 * so a cold disk cannot stall the event loop for long; smaller ones are a
 * page-cache copy of microseconds.
 */
const SYNC_READ_MAX_BYTES = 65_537;
/**
 * The largest whole-file read {@link Host.readSync} does in one synchronous
 * step (grep's default bound of 1 MiB, plus the byte that shows growth): a
 * page-cache copy of a few hundred microseconds at most; grep gives the event
 * loop a turn between files.
 */
const READ_SYNC_MAX_BYTES = 1_048_577;
const NOTHING = new Uint8Array(0);

/**
 * The `node:fs` primitives of a host.
 *
 * @param options Speed, error mapping, and whether `/proc/self/fd` reaches held descriptors.
 * @returns The primitives.
 */
export function nodeFileSystem(options: NodeFileSystemOptions): HostFileSystem {
  const { mapError, call, callSync } = options.errors;
  const sync = options.sync ?? false;

  const fsyncFd = (fd: number): Promise<void> =>
    new Promise((resolve, reject) => {
      fsyncCallback(fd, (error) => (error ? reject(mapError(error, "fsync")) : resolve()));
    });

  // A descriptor as a HostFile: reads synchronous while small, writes
  // synchronous in `sync` mode (else through the thread pool), fsync always
  // asynchronous.
  const wrapFd = (fd: number, writable: boolean): HostFile => {
    let closed = false;
    return {
      read: (buffer, position) =>
        buffer.length <= SYNC_READ_MAX_BYTES
          ? callSync("read", () => readSync(fd, buffer, 0, buffer.length, position))
          : new Promise((resolve, reject) => {
            readCallback(fd, buffer, 0, buffer.length, position, (error, bytesRead) => {
              if (error) reject(mapError(error, "read"));
              else resolve(bytesRead);
            });
          }),
      write: (data, position) => {
        if (!writable) return Promise.reject(new HostError("EINVAL", "write"));
        return callSync("write", () => {
          let done = 0;
          while (done < data.length) done += writeSync(fd, data, done, data.length - done, position + done);
        });
      },
      sync: () => fsyncFd(fd),
      stat: () => callSync("fstat", () => toStat(fstatSync(fd))),
      chmod: (mode) => callSync("fchmod", () => fchmodSync(fd, mode)),
      close: () => {
        if (closed) return Promise.resolve();
        closed = true;
        return callSync("close", () => closeSync(fd));
      },
    };
  };

  const wrapHandle = (handle: fsp.FileHandle): HostFile => {
    let closed = false;
    return {
      read: (buffer, position) =>
        call("read", async () => (await handle.read(buffer, 0, buffer.length, position)).bytesRead),
      write: (data, position) =>
        call("write", async () => {
          let done = 0;
          while (done < data.length) {
            const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
            done += bytesWritten;
          }
        }),
      sync: () => call("fsync", () => handle.sync()),
      stat: () => call("fstat", async () => toStat(await handle.stat())),
      chmod: (mode) => call("fchmod", () => handle.chmod(mode)),
      close: async () => {
        if (closed) return;
        closed = true;
        await call("close", () => handle.close());
      },
    };
  };

  // Without O_NOFOLLOW (Windows), refuse a link seen just before opening; the
  // caller's identity check after opening closes the rest of the gap.
  const refuseLinkWithoutNoFollow = (path: string, noFollow: boolean | undefined): void => {
    if (!noFollow || HAS_NOFOLLOW) return;
    let before: Stats | undefined;
    try {
      before = lstatSync(path);
    } catch {
      before = undefined;
    }
    if (before?.isSymbolicLink()) throw new HostError("ELOOP", "open");
  };

  const openDir = (path: string): Promise<HostDir> =>
    callSync("open", () => {
      const fd = openSync(path, DIR_FLAGS);
      let closed = false;
      return {
        at: options.procfs ? `/proc/self/fd/${fd}` : null,
        stat: () => callSync("fstat", () => toStat(fstatSync(fd))),
        sync: () => fsyncFd(fd),
        close: () => {
          if (closed) return Promise.resolve();
          closed = true;
          return callSync("close", () => closeSync(fd));
        },
      };
    });

  // unlink(2) and rmdir(2) as POSIX has them, on a runtime with one remove for both.
  const removeKind = (path: string, want: "file" | "folder"): void => {
    if (!options.removeChecksKind) return;
    const isFolder = lstatSync(path).isDirectory();
    if (want === "file" && isFolder) throw new HostError("EISDIR", "unlink");
    if (want === "folder" && !isFolder) throw new HostError("ENOTDIR", "rmdir");
  };

  const readdirEntries = (entries: { name: string }[]): HostDirEntry[] =>
    entries.map((entry) => ({ name: entry.name, kind: kindOf(entry as unknown as Stats) }));

  const base = {
    realpath: (path: string) => callSync("realpath", () => realpathSync.native(path)),
    lstat: (path: string) => callSync("lstat", () => toStat(lstatSync(path))),
    stat: (path: string) => callSync("stat", () => toStat(statSync(path))),
    readlink: (path: string) => callSync("readlink", () => readlinkSync(path)),
    openDir,
    readSync: readSyncWith(mapError),
    byteSearch: nodeByteSearch,
  };
  if (sync) {
    return {
      ...base,
      open: (path, options) =>
        callSync("open", () => {
          refuseLinkWithoutNoFollow(path, options.noFollow);
          const fd = openSync(path, openFlags(options), options.mode ?? 0o600);
          return wrapFd(fd, options.write === true);
        }),
      chmod: (path, mode) => callSync("chmod", () => chmodSync(path, mode)),
      rename: (from, to) => callSync("rename", () => renameSync(from, to)),
      unlink: (path) =>
        callSync("unlink", () => {
          removeKind(path, "file");
          unlinkSync(path);
        }),
      mkdir: (path, mode) => callSync("mkdir", () => void mkdirSync(path, { mode: mode ?? 0o777 })),
      rmdir: (path) =>
        callSync("rmdir", () => {
          removeKind(path, "folder");
          rmdirSync(path);
        }),
      readdir: (path) => callSync("readdir", () => readdirEntries(readdirSync(path, { withFileTypes: true }))),
    };
  }
  return {
    ...base,
    open: (path, options) =>
      call("open", async () => {
        refuseLinkWithoutNoFollow(path, options.noFollow);
        // A read-only, non-blocking open is a look-up like lstat: it cannot
        // wait on a FIFO or device, so it runs synchronously.
        if (options.nonBlocking && !options.write && !options.createExclusive) {
          return wrapFd(openSync(path, openFlags(options)), false);
        }
        return wrapHandle(await fsp.open(path, openFlags(options), options.mode ?? 0o600));
      }),
    chmod: (path, mode) => call("chmod", () => fsp.chmod(path, mode)),
    rename: (from, to) => call("rename", () => fsp.rename(from, to)),
    unlink: (path) =>
      call("unlink", () => {
        removeKind(path, "file");
        return fsp.unlink(path);
      }),
    mkdir: (path, mode) => call("mkdir", async () => void (await fsp.mkdir(path, { mode: mode ?? 0o777 }))),
    rmdir: (path) =>
      call("rmdir", () => {
        removeKind(path, "folder");
        return fsp.rmdir(path);
      }),
    readdir: (path) => callSync("readdir", () => readdirEntries(readdirSync(path, { withFileTypes: true }))),
  };
}

const READ_SYNC_FLAGS = openFlags({ read: true, noFollow: true, nonBlocking: true });

// Host.readSync: open, fstat, read and close in one synchronous step, with no
// promise or handle object per file (grep runs it once per file of a walk).
function readSyncWith(mapError: NativeErrors["mapError"]): NonNullable<Host["readSync"]> {
  return (path, into) => {
    if (!HAS_NOFOLLOW) {
      let before: Stats | undefined;
      try {
        before = lstatSync(path);
      } catch {
        before = undefined;
      }
      if (before?.isSymbolicLink()) throw new HostError("ELOOP", "open");
    }
    let fd: number;
    try {
      fd = openSync(path, READ_SYNC_FLAGS);
    } catch (error) {
      throw mapError(error, "open");
    }
    try {
      let stat: HostStat;
      try {
        stat = toStat(fstatSync(fd));
      } catch (error) {
        throw mapError(error, "fstat");
      }
      const buffer = into(stat);
      if (buffer === null) return { stat, bytes: NOTHING };
      if (buffer.length > READ_SYNC_MAX_BYTES) return null;
      let length = 0;
      try {
        while (length < buffer.length) {
          const count = readSync(fd, buffer, length, buffer.length - length, length);
          length += count;
          // The end: nothing more, or a short read that reached the size fstat gave.
          if (count === 0 || (length < buffer.length && length >= stat.size)) break;
        }
      } catch (error) {
        throw mapError(error, "read");
      }
      return { stat, bytes: buffer.subarray(0, length) };
    } finally {
      try {
        closeSync(fd);
      } catch {
        // A read-only descriptor: nothing is lost when its close fails.
      }
    }
  };
}
