/**
 * The host seam: the primitive operations Paddock needs from a runtime.
 *
 * A host is policy-free: it does what it is told, maps its native errors to
 * {@link HostErrorCode}s in one table, and hides the runtime's quirks (no
 * O_NOFOLLOW in Deno's `open`, signals that kill only the direct child). All
 * checks — confinement, limits, identities — live in the core, which sees
 * nothing but this interface. Only `src/hosts/*` may touch `node:*`, `Deno`
 * or `Bun`.
 *
 * @module
 */

import type { ByteSearch, FileSearchSpec, FileSearchThreads } from "./host_search.ts";
import type { HostChild, ScriptLaunch, ScriptLaunchRequest, SpawnRequest } from "./host_process.ts";

export type * from "./host_search.ts";
export type * from "./host_process.ts";

/** What a directory entry is. */
export type EntryKind =
  | "file"
  | "directory"
  | "symlink"
  | "fifo"
  | "socket"
  | "block-device"
  | "char-device"
  | "other";

/** File metadata, the subset every host fills in. */
export interface HostStat {
  /** The entry's kind (`symlink` only from `lstat`). */
  kind: EntryKind;
  /** Size in bytes. */
  size: number;
  /** Permission bits (`mode & 0o7777`). */
  mode: number;
  /** Device id; with `ino`, the identity of the object. */
  dev: number;
  /** Inode number; with `dev`, the identity of the object. */
  ino: number;
  /** Last modification, in milliseconds since the epoch. */
  mtimeMs: number;
  /**
   * Creation time in milliseconds, where the filesystem records it. Part of
   * the identity: filesystems reuse an inode number at once, so a folder
   * deleted and re-created can have the same (dev, ino) but not the same
   * birth time. Absent or 0 when unknown.
   */
  birthtimeMs?: number;
}

/** The error codes a host reports; each host maps its native errors to these in one table. */
export type HostErrorCode =
  | "ENOENT"
  | "EEXIST"
  | "ELOOP"
  | "ENOTDIR"
  | "EISDIR"
  | "EACCES"
  | "EPERM"
  | "ENOTEMPTY"
  | "EXDEV"
  | "EINVAL"
  | "ENAMETOOLONG"
  | "EBUSY"
  | "ESRCH"
  | "ENXIO"
  | "EAGAIN"
  | "UNSUPPORTED"
  | "EIO";

/** An error from a host primitive. Its message never holds more than the syscall name. */
export class HostError extends Error {
  /** The mapped code. */
  readonly code: HostErrorCode;
  /** The primitive that failed (`open`, `rename`, …). */
  readonly syscall: string;
  /**
   * The runtime permission flag that was missing when the runtime itself
   * refused (Deno's `NotCapable`), e.g. `--allow-write`; the code is then `EACCES`.
   */
  readonly missingPermission?: string;

  /**
   * Makes the error for primitive `syscall` failing with `code`; `cause` keeps
   * the native error, `missingPermission` names a runtime permission flag.
   */
  constructor(code: HostErrorCode, syscall: string, cause?: unknown, missingPermission?: string) {
    super(`${syscall} failed: ${code}`, cause === undefined ? undefined : { cause });
    this.name = "HostError";
    this.code = code;
    this.syscall = syscall;
    if (missingPermission !== undefined) this.missingPermission = missingPermission;
  }
}

/**
 * Whether `error` is a {@link HostError}, optionally with one of `codes`.
 *
 * @example Treating a missing entry as absent
 * ```ts
 * import { type Host, isHostError } from "@paddock/tools/host";
 * declare const host: Host;
 * const stat = await host.lstat("/work/project/.env")
 *   .catch((error) => isHostError(error, "ENOENT", "ENOTDIR") ? null : Promise.reject(error));
 * ```
 */
export function isHostError(error: unknown, ...codes: HostErrorCode[]): error is HostError {
  return error instanceof HostError && (codes.length === 0 || codes.includes(error.code));
}

/** How to open a file. */
export interface OpenOptions {
  /** Open for reading. @default true unless `write` */
  read?: boolean;
  /** Open for writing. @default false */
  write?: boolean;
  /** Create the file, failing with `EEXIST` if anything is there (O_CREAT|O_EXCL). @default false */
  createExclusive?: boolean;
  /** Fail with `ELOOP` when the final component is a symbolic link (O_NOFOLLOW, or an equivalent check). @default false */
  noFollow?: boolean;
  /** Do not block when opening a FIFO or device (O_NONBLOCK where the runtime has it). @default false */
  nonBlocking?: boolean;
  /** Permission bits for a created file. @default 0o600 */
  mode?: number;
}

/** An open file. Positions are absolute byte offsets. */
export interface HostFile {
  /** Reads up to `buffer.length` bytes at `position`; resolves to the count read (0 at end of file). */
  read(buffer: Uint8Array, position: number): Promise<number>;
  /** Writes all of `data` at `position`. */
  write(data: Uint8Array, position: number): Promise<void>;
  /** Flushes data and metadata to stable storage (fsync). */
  sync(): Promise<void>;
  /** Metadata of the open object (fstat). */
  stat(): Promise<HostStat>;
  /** Sets the open object's permission bits (fchmod), where the runtime can; else the caller uses `Host.chmod`. */
  chmod?(mode: number): Promise<void>;
  /** Closes the handle. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * A held directory: opened once (`O_RDONLY|O_DIRECTORY|O_NOFOLLOW|O_NONBLOCK`)
 * and kept open, so that names looked up at it are resolved in that very
 * folder even after its path has been renamed or swapped for a link.
 */
export interface HostDir {
  /**
   * Where one name at this folder is reached: `${at}/${name}` (on Linux
   * `/proc/self/fd/<fd>`, whose magic link resolves to the held folder). Only
   * one name may follow: a longer path would follow links like any path.
   * `null` when the host has no such route; the folder is then reached only by
   * its path.
   */
  readonly at: string | null;
  /** Metadata of the held folder itself (fstat): its identity never changes. */
  stat(): Promise<HostStat>;
  /** Flushes the folder's entries to stable storage (fsync), for a durable rename. */
  sync(): Promise<void>;
  /** Closes the handle. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * A look at a file's first bytes before the rest is read ({@link Host.readSync}):
 * grep reads no more of a file whose first bytes say it is binary.
 */
export interface ReadHead {
  /** The bytes read first, when the whole read would be longer. */
  readonly bytes: number;
  /** Given those bytes: `true` reads no more. */
  stop(head: Uint8Array): boolean;
}

/** One directory entry. */
export interface HostDirEntry {
  /** The entry's name (one segment). */
  name: string;
  /** Its kind, not following links. */
  kind: EntryKind;
}

/**
 * The primitive, promise-based operations of one runtime. Paths are absolute
 * host paths; hosts never check policy.
 */
export interface Host {
  /** Which runtime this host drives. */
  readonly runtime: "node" | "deno" | "bun" | "memory";
  /** Path flavour: separators, roots and quoting rules. */
  readonly platform: "posix" | "win32";
  /** Canonical absolute path (all links resolved). */
  realpath(path: string): Promise<string>;
  /** Metadata, not following a final link. */
  lstat(path: string): Promise<HostStat>;
  /** Metadata, following links. */
  stat(path: string): Promise<HostStat>;
  /**
   * Metadata, following links, as one synchronous call: lets a tool factory
   * given a root path refuse a root that does not exist where it is made.
   * Optional: without it the check waits for the first call.
   */
  statSync?(path: string): HostStat;
  /** Opens a file. */
  open(path: string, options: OpenOptions): Promise<HostFile>;
  /**
   * Opens a folder and holds it: read-only, `O_DIRECTORY`, not following a
   * final link and never blocking, so a link, FIFO or file swapped in fails
   * with `ELOOP` / `ENOTDIR` instead of redirecting or stalling the call.
   */
  openDir(path: string): Promise<HostDir>;
  /** Sets permission bits. */
  chmod(path: string, mode: number): Promise<void>;
  /** Renames, replacing a file at `to`. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file or link. */
  unlink(path: string): Promise<void>;
  /** Creates one directory (not recursive). */
  mkdir(path: string, mode?: number): Promise<void>;
  /** Removes one empty directory. */
  rmdir(path: string): Promise<void>;
  /** Lists a directory's entries, kinds not following links. */
  readdir(path: string): Promise<HostDirEntry[]>;
  /**
   * Optional: reads a small file synchronously, for hosts whose file calls
   * are direct system calls (the Node host). Opens `path` read-only,
   * non-blocking and not following a final link (as `open` with `read`,
   * `noFollow`, `nonBlocking`), takes the handle's metadata (fstat), and asks
   * `into(stat)` for the buffer to fill: `null` reads nothing. Reads from
   * offset 0 until the buffer is full or the file ends (a short read that
   * reaches the fstat size counts as the end), then closes the handle.
   * Every decision about what to read stays with the caller's `into`, and
   * with `head`: when the buffer is longer than `head.bytes`, those are read
   * first and `head.stop` sees them; `true` reads no more (the result then
   * says `stopped`, its bytes the head alone).
   *
   * @param path The file's absolute host path.
   * @param into The buffer to read into, given the opened handle's metadata, or `null` for none.
   * @param head A look at a large file's first bytes before the rest is read. @default undefined
   * @returns The metadata and the bytes read (a view of the buffer `into` gave; empty when it gave `null`),
   * or `null` when the host will not read a buffer that large synchronously (use `open` then).
   * @throws {HostError} From open (`ELOOP` for a link, `ENOENT`, …), fstat or read.
   */
  readSync?(
    path: string,
    into: (stat: HostStat) => Uint8Array | null,
    head?: ReadHead,
  ): { stat: HostStat; bytes: Uint8Array; stopped?: true } | null;
  /** A link's target, as stored. */
  readlink(path: string): Promise<string>;
  /**
   * Optional: searches files on up to `threads` other threads (worker
   * threads), for a grep that has many files to search; `null` when this host
   * cannot now. The memory host does it in its own thread, on later turns.
   */
  searchThreads?(spec: FileSearchSpec, threads: number): FileSearchThreads | null;
  /**
   * Optional: starts the threads {@link Host.searchThreads} would use (up to
   * `threads`) now, in the background, so that the first grep finds them
   * running (a worker takes tens of milliseconds to start and load its
   * modules). They never keep the process alive. Returns whether they are all
   * running now.
   */
  warmSearchThreads?(threads: number): boolean;
  /** Optional: a native {@link ByteSearch} (Node's `Buffer`); without one grep uses a portable one. */
  byteSearch?: ByteSearch;
  /** Starts a process in its own process group. */
  spawn(request: SpawnRequest): Promise<HostChild>;
  /** The running runtime's own executable. */
  execPath(): string;
  /** The command line to run a CommonJS file with this runtime; throws `UNSUPPORTED` when `confineTo` cannot be enforced. */
  scriptLaunch(request: ScriptLaunchRequest): ScriptLaunch;
  /**
   * The parent process's environment (read only to pick documented variables).
   * `names` are the variables the caller will pick; a host whose runtime
   * grants only some variables (Deno's `--allow-env=PATH,HOME`) reads just
   * those, and treats a variable it may not read as unset.
   */
  environment(names?: readonly string[]): Record<string, string>;
  /** The process's file-creation mask. */
  umask(): number;
  /** The current working directory, to make a relative workspace root absolute. */
  cwd(): string;
}
