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

/** Whether `error` is a {@link HostError}, optionally with one of `codes`. */
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

/** One directory entry. */
export interface HostDirEntry {
  /** The entry's name (one segment). */
  name: string;
  /** Its kind, not following links. */
  kind: EntryKind;
}

/**
 * Native searches on raw bytes, for grep's fast path (a file without the
 * needle is ruled out before it is decoded): Node's `Buffer` is one.
 */
export interface ByteView {
  /** The index of `needle` (one byte value, or a byte sequence) at or after `from`, or -1. */
  indexOf(needle: number | Uint8Array, from: number): number;
}

/** Makes {@link ByteView}s: views of the caller's bytes, never copies. */
export interface ByteSearch {
  /** A view of `bytes` with native searches. */
  view(bytes: Uint8Array): ByteView;
}

/**
 * One grep search, as plain data a worker thread can compile again (the
 * pattern, not the compiled matcher).
 */
export interface FileSearchSpec {
  /** The pattern as the call gave it. */
  pattern: string;
  /** Whether it is plain text. */
  literal: boolean;
  /** Whether matching ignores case. */
  ignoreCase: boolean;
  /** What is returned per file. */
  outputMode: "content" | "files_with_matches" | "count";
  /** Lines of context before and after each match (content mode). */
  context: number;
  /** Matching lines kept per file at most (content mode). */
  cap: number;
  /** Characters of a returned line at most. */
  maxLineChars: number;
  /** Bytes of a file searched at most; a larger one is skipped unread. */
  maxFileBytes: number;
}

/**
 * What searching one file found, as {@link FileSearchThreads} hand it back
 * (the core's `FileOutcome`).
 */
export interface FileSearchResult {
  /** Why it was not searched, when it was not. */
  skipped?: "binary" | "tooLarge" | "unreadable";
  /** Matching lines (content mode). */
  matches: {
    line: number;
    column: number;
    text: string;
    cut?: true;
    before?: string[];
    after?: string[];
  }[];
  /** Matching lines in all. */
  count: number;
}

/**
 * Searches files on other threads, for grep over a large tree: each path is
 * one name at a held folder (`${at}/${name}`), opened there exactly as the
 * calling thread would open it (no-follow, non-blocking, a regular file
 * only). Descriptors are process-wide, so another thread reaches a folder
 * this one holds; the caller keeps every folder of a batch held until the
 * batch has settled.
 */
export interface FileSearchThreads {
  /** Whether the threads have started; until then the caller searches in its own thread. */
  readonly ready: boolean;
  /**
   * Searches `paths`, in order, and resolves with one result per path; rejects
   * (when a thread fails) only once no thread uses the paths any more.
   */
  search(paths: readonly string[]): Promise<FileSearchResult[]>;
  /** Lets the threads go idle: this search sends no more batches. */
  close(): void;
}

/** A stream of output bytes from a child process. */
export interface ByteReader {
  /** The next chunk, or `null` at the end of the stream. */
  read(): Promise<Uint8Array | null>;
  /** Stops reading and releases the stream. */
  cancel(): Promise<void>;
}

/** How a process ended. */
export interface ExitStatus {
  /** The exit code, or `null` when a signal ended it. */
  code: number | null;
  /** The signal that ended it (`SIGKILL`, …), or `null`. */
  signal: string | null;
}

/** What to spawn. The host always starts it in its own process group, stdin closed, no shell. */
export interface SpawnRequest {
  /** The program (an absolute path) and its arguments. */
  argv: string[];
  /** The working directory (an absolute host path). */
  cwd: string;
  /** The complete environment; nothing of the parent's is added. */
  env: Record<string, string>;
}

/** A running child process. */
export interface HostChild {
  /** Its process id (also its process group id). */
  readonly pid: number;
  /** Its standard output. */
  readonly stdout: ByteReader;
  /** Its standard error. */
  readonly stderr: ByteReader;
  /** Resolves when the leader exits. */
  readonly exited: Promise<ExitStatus>;
  /** Sends `signal` to the whole process group; "no such process" is ignored. */
  killGroup(signal: "SIGTERM" | "SIGKILL"): void;
}

/** What {@link Host.scriptLaunch} needs to run a CommonJS file with the host runtime. */
export interface ScriptLaunchRequest {
  /** The script (absolute host path). */
  scriptPath: string;
  /** Where a bootstrap file may be written if the runtime needs one (absolute host path). */
  bootstrapPath: string;
  /** Arguments the script sees as `process.argv.slice(1)`. */
  args: string[];
  /** Paths the child may read and write, or `null` to run with the runtime's full rights. */
  confineTo: string[] | null;
  /**
   * With `confineTo`: the paths the child may write, when narrower than
   * `confineTo` (protected paths excluded); a path the runtime's flags cannot
   * name exactly is left out (not writable). @default confineTo
   */
  writable?: string[];
}

/** The command line for a script, and a bootstrap file to write first if the runtime needs one. */
export interface ScriptLaunch {
  /** The argv to spawn. */
  argv: string[];
  /** Source to write at the request's `bootstrapPath` before spawning, if any. */
  bootstrap?: string;
  /** Variables the runtime needs in the child's environment (e.g. `NO_COLOR`). */
  env?: Record<string, string>;
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
   * Every decision about what to read stays with the caller's `into`.
   *
   * @param path The file's absolute host path.
   * @param into The buffer to read into, given the opened handle's metadata, or `null` for none.
   * @returns The metadata and the bytes read (a view of the buffer `into` gave; empty when it gave `null`),
   * or `null` when the host will not read a buffer that large synchronously (use `open` then).
   * @throws {HostError} From open (`ELOOP` for a link, `ENOENT`, …), fstat or read.
   */
  readSync?(path: string, into: (stat: HostStat) => Uint8Array | null): { stat: HostStat; bytes: Uint8Array } | null;
  /** A link's target, as stored. */
  readlink(path: string): Promise<string>;
  /**
   * Optional: searches files on up to `threads` other threads (worker
   * threads), for a grep that has many files to search; `null` when this host
   * cannot now. The memory host does it in its own thread, on later turns.
   */
  searchThreads?(spec: FileSearchSpec, threads: number): FileSearchThreads | null;
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
