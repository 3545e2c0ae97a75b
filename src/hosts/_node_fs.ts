/**
 * The filesystem half of the Node host, on `node:fs`: also what the Deno host
 * uses for files and folders (Deno's `node:fs` gives real descriptors,
 * `O_NOFOLLOW` and `O_NONBLOCK`, which its native `open` lacks), so both
 * runtimes reach held folders through `/proc/self/fd` the same way.
 *
 * Two speeds. With `sync` (the Node host's default), every primitive but `fsync`
 * (and reads larger than {@link SYNC_READ_MAX_BYTES}) is one direct system call:
 * the lowest latency, at the price of blocking the
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
  lstatSync,
  mkdirSync,
  openSync,
  promises as fsp,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmdirSync,
  type Stats,
  statSync,
  unlinkSync,
} from "node:fs";
import { type ByteSearch, type Host, type HostDirEntry, HostError } from "../host.ts";
import type { NativeErrors } from "./_native_errors.ts";
import { nodeByteSearch } from "./_node_byte_search.ts";
import { nodeHandles, procFdFolder } from "./_node_handles.ts";
import { listHeld } from "./_libc_at.ts";
import { openFlags, refuseLinkWithoutNoFollow } from "./_node_open_flags.ts";
import { readSyncWith } from "./_node_read_sync.ts";
import { kindOf, toStat } from "./_node_stat.ts";

/** The filesystem primitives of a {@link Host}. */
export type HostFileSystem = Pick<
  Host,
  | "realpath"
  | "lstat"
  | "stat"
  | "statSync"
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
  /** The byte search grep uses. @default `node:buffer`'s ({@link nodeByteSearch}) */
  byteSearch?: ByteSearch;
}

/**
 * The `node:fs` primitives of a host.
 *
 * @param options Speed, error mapping, and whether `/proc/self/fd` reaches held descriptors.
 * @returns The primitives.
 */
export function nodeFileSystem(options: NodeFileSystemOptions): HostFileSystem {
  const { mapError, call, callSync } = options.errors;
  const sync = options.sync ?? false;
  const { wrapFd, wrapHandle, openDir } = nodeHandles(options.errors, options.procfs);

  // unlink(2) and rmdir(2) as POSIX has them, on a runtime with one remove for both.
  const removeKind = (path: string, want: "file" | "folder"): void => {
    if (!options.removeChecksKind) return;
    const isFolder = lstatSync(path).isDirectory();
    if (want === "file" && isFolder) throw new HostError("EISDIR", "unlink");
    if (want === "folder" && !isFolder) throw new HostError("ENOTDIR", "rmdir");
  };

  // A held folder named as its descriptor, listed through it (`_libc_at.ts`); null: the runtime lists the path.
  const listAt = (path: string): HostDirEntry[] | null => options.procfs ? listHeld(path, procFdFolder()) : null;

  const readdirEntries = (entries: { name: string }[]): HostDirEntry[] =>
    entries.map((entry) => ({ name: entry.name, kind: kindOf(entry as unknown as Stats) }));
  // The same in both modes: a listing is one synchronous step.
  const readdir = (path: string): Promise<HostDirEntry[]> =>
    callSync("readdir", () => listAt(path) ?? readdirEntries(readdirSync(path, { withFileTypes: true })));

  const base = {
    realpath: (path: string) => callSync("realpath", () => realpathSync.native(path)),
    lstat: (path: string) => callSync("lstat", () => toStat(lstatSync(path))),
    stat: (path: string) => callSync("stat", () => toStat(statSync(path))),
    statSync: (path: string) => {
      try {
        return toStat(statSync(path));
      } catch (error) {
        throw mapError(error, "stat");
      }
    },
    readlink: (path: string) => callSync("readlink", () => readlinkSync(path)),
    openDir,
    readSync: readSyncWith(mapError),
    byteSearch: options.byteSearch ?? nodeByteSearch,
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
      readdir,
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
    readdir,
  };
}
