/**
 * The Node.js host (also used under Bun): `node:fs/promises`,
 * `node:child_process` and `process.execPath`.
 *
 * @module
 */
import { spawn as spawnChild } from "node:child_process";
import {
  closeSync,
  constants,
  fstatSync,
  fsync as fsyncCallback,
  lstatSync,
  openSync,
  promises as fsp,
  read as readCallback,
  readlinkSync,
  readSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import type { Readable } from "node:stream";
import {
  type ByteReader,
  type EntryKind,
  type ExitStatus,
  type Host,
  type HostChild,
  type HostDirEntry,
  HostError,
  type HostFile,
  type HostStat,
  type OpenOptions,
  type ScriptLaunch,
  type ScriptLaunchRequest,
  type SpawnRequest,
} from "../host.ts";
import { ERRNO_CODES, type NativeErrors, nativeErrors } from "./_native_errors.ts";

// Native error codes → host error codes, in one table. Anything else is EIO.
// Metadata lookups (lstat, stat, readlink, realpath) run synchronously
// (`callSync`): the kernel answers them from its caches in microseconds, while
// a round trip through libuv's thread pool costs ten times that, and a confined
// walk makes one per path segment. Data I/O, fsync and everything that can
// block on a device stay asynchronous (`call`).
/** @internal shared with node_sync.ts */
export const NODE_ERRORS: NativeErrors = nativeErrors({
  ...ERRNO_CODES,
  EMLINK: "ELOOP", // FreeBSD reports O_NOFOLLOW on a link as EMLINK
  EFTYPE: "ELOOP", // NetBSD likewise
});
const { call, callSync } = NODE_ERRORS;

/** @internal shared with node_sync.ts: a native error → a {@link HostError}. */
export const mapError: NativeErrors["mapError"] = NODE_ERRORS.mapError;

/** @internal shared with node_sync.ts */
export function kindOf(stats: Stats): EntryKind {
  if (stats.isFile()) return "file";
  if (stats.isDirectory()) return "directory";
  if (stats.isSymbolicLink()) return "symlink";
  if (stats.isFIFO()) return "fifo";
  if (stats.isSocket()) return "socket";
  if (stats.isBlockDevice()) return "block-device";
  if (stats.isCharacterDevice()) return "char-device";
  return "other";
}

/** @internal shared with node_sync.ts */
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

/** @internal shared with node_sync.ts */
export const isWindows: boolean = process.platform === "win32";
const isBun = typeof (process.versions as Record<string, string | undefined>).bun === "string";

/** @internal shared with node_sync.ts */
export function openFlags(options: OpenOptions): number {
  let flags = options.write ? (options.read ? constants.O_RDWR : constants.O_WRONLY) : constants.O_RDONLY;
  if (options.createExclusive) flags |= constants.O_CREAT | constants.O_EXCL;
  if (options.noFollow && constants.O_NOFOLLOW !== undefined) flags |= constants.O_NOFOLLOW;
  if (options.nonBlocking && constants.O_NONBLOCK !== undefined) flags |= constants.O_NONBLOCK;
  return flags;
}

function wrapFile(handle: fsp.FileHandle): HostFile {
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
}

// A read-only, non-blocking open (what reading and searching use) is a path
// lookup like lstat: it cannot wait on a FIFO or a device, so it runs
// synchronously, and so do fstat and close of that descriptor. Reads of such
// a handle are synchronous too while they are small (at most
// SYNC_READ_MAX_BYTES: a page-cache copy of microseconds, against a thread-pool
// round trip that is most of grep's time on a large tree); larger reads go
// through the thread pool so a cold disk cannot stall the event loop for long.
const SYNC_READ_MAX_BYTES = 65_537;

function openForReading(path: string, options: OpenOptions): HostFile {
  const fd = openSync(path, openFlags(options));
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
    write: () => Promise.reject(new HostError("EINVAL", "write")), // opened read-only
    sync: () =>
      new Promise((resolve, reject) => {
        fsyncCallback(fd, (error) => (error ? reject(mapError(error, "fsync")) : resolve()));
      }),
    stat: () => callSync("fstat", () => toStat(fstatSync(fd))),
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return callSync("close", () => closeSync(fd));
    },
  };
}

const READ_SYNC_FLAGS = openFlags({ read: true, noFollow: true, nonBlocking: true });
const NOTHING = new Uint8Array(0);

// Host.readSync: open, fstat, read and close in one synchronous step, with no
// promise or handle object per file. The same calls as `openForReading`
// (and the same SYNC_READ_MAX_BYTES bound on a synchronous read); grep runs
// it once per file of a walk.
function readSyncNode(
  path: string,
  into: (stat: HostStat) => Uint8Array | null,
): { stat: HostStat; bytes: Uint8Array } | null {
  // Without O_NOFOLLOW (Windows), refuse a link seen just before opening, as `open` does.
  if (constants.O_NOFOLLOW === undefined) {
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
    if (buffer.length > SYNC_READ_MAX_BYTES) return null;
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
}

// Windows cannot open a directory as a file; durability of a rename there is
// the filesystem's own, so syncing the folder is a no-op.
const NO_OP_DIRECTORY: HostFile = {
  read: () => Promise.reject(new HostError("EISDIR", "read")),
  write: () => Promise.reject(new HostError("EISDIR", "write")),
  sync: () => Promise.resolve(),
  stat: () => Promise.reject(new HostError("UNSUPPORTED", "fstat")),
  close: () => Promise.resolve(),
};

function readerOf(stream: Readable): ByteReader {
  const iterator = stream[Symbol.asyncIterator]();
  return {
    read: async () => {
      const next = await iterator.next();
      return next.done ? null : (next.value as Uint8Array);
    },
    cancel: () => {
      stream.destroy();
      return Promise.resolve();
    },
  };
}

function nodeMajor(): number {
  return Number(process.versions.node.split(".")[0]);
}

/**
 * Creates the host for Node.js (and Bun, which runs the same APIs).
 *
 * @returns A {@link Host} backed by `node:fs/promises` and `node:child_process`.
 *
 * @example Opening a workspace on the Node host explicitly
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { createNodeHost } from "@paddock/tools/node";
 * const workspace = await openWorkspace("./project", { host: createNodeHost() });
 * ```
 */
export function createNodeHost(): Host {
  return {
    runtime: isBun ? "bun" : "node",
    platform: isWindows ? "win32" : "posix",
    realpath: (path) => callSync("realpath", () => realpathSync.native(path)),
    lstat: (path) => callSync("lstat", () => toStat(lstatSync(path))),
    stat: (path) => callSync("stat", () => toStat(statSync(path))),
    open: (path, options) =>
      call("open", async () => {
        // Without O_NOFOLLOW (Windows), refuse a link seen just before opening;
        // the caller's identity check after opening closes the rest of the gap.
        if (options.noFollow && constants.O_NOFOLLOW === undefined) {
          const before = await fsp.lstat(path).catch(() => undefined);
          if (before?.isSymbolicLink()) throw new HostError("ELOOP", "open");
        }
        if (options.nonBlocking && !options.write && !options.createExclusive) return openForReading(path, options);
        return wrapFile(await fsp.open(path, openFlags(options), options.mode ?? 0o600));
      }),
    openDirectory: (path) =>
      isWindows ? Promise.resolve(NO_OP_DIRECTORY) : call("open", async () => wrapFile(await fsp.open(path, "r"))),
    chmod: (path, mode) => call("chmod", () => fsp.chmod(path, mode)),
    rename: (from, to) => call("rename", () => fsp.rename(from, to)),
    unlink: (path) => call("unlink", () => fsp.unlink(path)),
    mkdir: (path, mode) => call("mkdir", () => fsp.mkdir(path, { mode: mode ?? 0o777 })),
    rmdir: (path) => call("rmdir", () => fsp.rmdir(path)),
    readdir: (path) =>
      call("readdir", async () => {
        const entries = await fsp.readdir(path, { withFileTypes: true });
        return entries.map((entry): HostDirEntry => ({ name: entry.name, kind: kindOf(entry as unknown as Stats) }));
      }),
    readlink: (path) => callSync("readlink", () => readlinkSync(path)),
    readSync: readSyncNode,
    spawn: spawnNode,
    execPath: () => process.execPath,
    scriptLaunch: nodeScriptLaunch,
    environment: () => {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
      return env;
    },
    umask: () => process.umask(),
    cwd: () => process.cwd(),
  };
}

function nodeScriptLaunch(request: ScriptLaunchRequest): ScriptLaunch {
  const flags: string[] = [];
  if (request.confineTo !== null) {
    // Bun has no permission model and silently ignores Node's flags: refuse
    // rather than pretend.
    if (isBun) throw new HostError("UNSUPPORTED", "permissions");
    // Node reads '*' in an allowed path as a wildcard ('/x/ws*' also grants
    // '/x/ws-secret'), with no way to escape it: a path holding one cannot be
    // granted exactly.
    if (request.confineTo.some((path) => path.includes("*"))) throw new HostError("UNSUPPORTED", "permission-path");
    flags.push(nodeMajor() >= 22 ? "--permission" : "--experimental-permission");
    for (const path of request.confineTo) flags.push(`--allow-fs-read=${path}`, `--allow-fs-write=${path}`);
    flags.push("--disable-warning=ExperimentalWarning");
  }
  // `-e` puts no script entry in argv, so `process.argv.slice(1)` is exactly
  // the arguments after `--`.
  const loader = `require(${JSON.stringify(request.scriptPath)})`;
  return { argv: [process.execPath, ...flags, "-e", loader, "--", ...request.args] };
}

function spawnNode(request: SpawnRequest): Promise<HostChild> {
  return new Promise((resolve, reject) => {
    const [program, ...args] = request.argv;
    const child = spawnChild(program, args, {
      cwd: request.cwd,
      env: request.env,
      // Own process group (and session), so the whole tree can be killed.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      windowsHide: true,
      shell: false,
    });
    const exited = new Promise<ExitStatus>((resolveExit) => {
      child.once("exit", (code, signal) => resolveExit({ code, signal }));
    });
    child.once("error", (error) => reject(mapError(error, "spawn")));
    child.once("spawn", () => {
      const pid = child.pid as number;
      resolve({
        pid,
        stdout: readerOf(child.stdout as Readable),
        stderr: readerOf(child.stderr as Readable),
        exited,
        killGroup: (signal) => {
          try {
            if (isWindows) child.kill(signal);
            else process.kill(-pid, signal);
          } catch {
            // The group is already gone (ESRCH): nothing left to kill.
          }
        },
      });
    });
  });
}
