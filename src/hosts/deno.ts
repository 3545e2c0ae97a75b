/**
 * The Deno host: native `Deno.*` APIs and `Deno.execPath()`.
 *
 * Deno's `open` has no O_NOFOLLOW and exposes no file descriptor, so
 * `noFollow` is an lstat just before opening; the core's identity check of the
 * opened handle (dev, ino) then catches a link swapped in between.
 *
 * @module
 */
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
import { ERRNO_CODES, nativeErrors } from "./_native_errors.ts";
import { type DenoEnv, denoEnvironment } from "./_deno_environment.ts";

// The slice of the Deno namespace this host uses, declared here so the file
// type-checks under tsc (no Deno types) and under `deno check` alike.
interface DenoFileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  isFifo?: boolean | null;
  isSocket?: boolean | null;
  isBlockDevice?: boolean | null;
  isCharDevice?: boolean | null;
  size: number;
  mtime: Date | null;
  birthtime: Date | null;
  dev: number;
  ino: number | null;
  mode: number | null;
}
interface DenoFsFile {
  read(p: Uint8Array): Promise<number | null>;
  write(p: Uint8Array): Promise<number>;
  seek(offset: number, whence: number): Promise<number>;
  sync(): Promise<void>;
  stat(): Promise<DenoFileInfo>;
  close(): void;
}
interface DenoChildProcess {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly status: Promise<{ code: number; signal: string | null }>;
}
interface DenoApi {
  build: { os: string };
  realPathSync(path: string): string;
  lstat(path: string): Promise<DenoFileInfo>;
  lstatSync(path: string): DenoFileInfo;
  statSync(path: string): DenoFileInfo;
  open(
    path: string,
    options: { read?: boolean; write?: boolean; createNew?: boolean; mode?: number },
  ): Promise<DenoFsFile>;
  chmod(path: string, mode: number): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  remove(path: string): Promise<void>;
  mkdir(path: string, options?: { mode?: number }): Promise<void>;
  readDir(path: string): AsyncIterable<{ name: string; isFile: boolean; isDirectory: boolean; isSymlink: boolean }>;
  readLinkSync(path: string): string;
  execPath(): string;
  cwd(): string;
  umask?(mask?: number): number;
  kill(pid: number, signal: string): void;
  env: DenoEnv;
  Command: new (
    program: string,
    options: {
      args: string[];
      cwd: string;
      env: Record<string, string>;
      clearEnv: boolean;
      stdin: "null";
      stdout: "piped";
      stderr: "piped";
      detached: boolean;
      windowsRawArguments?: boolean;
    },
  ) => { spawn(): DenoChildProcess };
}

function deno(): DenoApi {
  const api = (globalThis as { Deno?: DenoApi }).Deno;
  if (api === undefined) throw new HostError("UNSUPPORTED", "deno");
  return api;
}

// Deno error class names and native codes → host error codes, in one table.
// Metadata lookups run synchronously (`callSync`), as in the Node host:
// answered from the kernel's caches in microseconds, cheaper than a hop through
// the runtime's blocking-task pool once per path segment.
const { mapError, call, callSync } = nativeErrors({
  NotFound: "ENOENT",
  AlreadyExists: "EEXIST",
  PermissionDenied: "EACCES",
  NotADirectory: "ENOTDIR",
  IsADirectory: "EISDIR",
  FilesystemLoop: "ELOOP",
  Busy: "EBUSY",
  InvalidData: "EINVAL",
  NotSupported: "UNSUPPORTED",
  ...ERRNO_CODES,
});

function kindOf(info: DenoFileInfo): EntryKind {
  if (info.isFile) return "file";
  if (info.isDirectory) return "directory";
  if (info.isSymlink) return "symlink";
  if (info.isFifo) return "fifo";
  if (info.isSocket) return "socket";
  if (info.isBlockDevice) return "block-device";
  if (info.isCharDevice) return "char-device";
  return "other";
}

function toStat(info: DenoFileInfo): HostStat {
  return {
    kind: kindOf(info),
    size: info.size,
    mode: (info.mode ?? 0) & 0o7777,
    dev: info.dev,
    ino: info.ino ?? 0,
    mtimeMs: info.mtime?.getTime() ?? 0,
    birthtimeMs: info.birthtime?.getTime() ?? 0,
  };
}

const SEEK_START = 0;

function wrapFile(file: DenoFsFile): HostFile {
  let closed = false;
  // FsFile has no positional I/O; each handle serves one caller at a time, so
  // seeking before each call is enough.
  return {
    read: (buffer, position) =>
      call("read", async () => {
        await file.seek(position, SEEK_START);
        return (await file.read(buffer)) ?? 0;
      }),
    write: (data, position) =>
      call("write", async () => {
        await file.seek(position, SEEK_START);
        let done = 0;
        while (done < data.length) done += await file.write(data.subarray(done));
      }),
    sync: () => call("fsync", () => file.sync()),
    stat: () => call("fstat", async () => toStat(await file.stat())),
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      try {
        file.close();
      } catch (error) {
        return Promise.reject(mapError(error, "close"));
      }
      return Promise.resolve();
    },
  };
}

function readerOf(stream: ReadableStream<Uint8Array>): ByteReader {
  const reader = stream.getReader();
  return {
    read: async () => {
      const next = await reader.read();
      return next.done ? null : next.value;
    },
    cancel: async () => {
      await reader.cancel().catch(() => {});
    },
  };
}

/**
 * Creates the host for Deno, on the native `Deno.*` APIs.
 *
 * @returns A {@link Host} for the running Deno.
 *
 * @example Opening a workspace on the Deno host explicitly
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { createDenoHost } from "@paddock/tools/deno";
 * const workspace = await openWorkspace("./project", { host: createDenoHost() });
 * ```
 */
export function createDenoHost(): Host {
  const api = deno();
  const isWindows = api.build.os === "windows";
  return {
    runtime: "deno",
    platform: isWindows ? "win32" : "posix",
    realpath: (path) => callSync("realpath", () => api.realPathSync(path)),
    lstat: (path) => callSync("lstat", () => toStat(api.lstatSync(path))),
    stat: (path) => callSync("stat", () => toStat(api.statSync(path))),
    open: (path, options: OpenOptions) =>
      call("open", async () => {
        if (!options.createExclusive && (options.noFollow || options.nonBlocking)) {
          const info = options.noFollow ? api.lstatSync(path) : api.statSync(path);
          if (options.noFollow && info.isSymlink) throw new HostError("ELOOP", "open");
          // Deno's open has no O_NONBLOCK either: opening a FIFO (or a device)
          // would wait for a writer forever. Refuse what this look shows is
          // not a file or folder; a swap between the look and the open remains.
          if (options.nonBlocking && !info.isFile && !info.isDirectory && !info.isSymlink) {
            throw new HostError("ENXIO", "open");
          }
        }
        const write = options.write === true;
        const file = await api.open(path, {
          read: options.read ?? !write,
          write,
          // O_CREAT|O_EXCL never follows a final link: EEXIST instead.
          createNew: options.createExclusive === true,
          mode: options.mode ?? 0o600,
        });
        return wrapFile(file);
      }),
    openDirectory: (path) => call("open", async () => wrapFile(await api.open(path, { read: true }))),
    chmod: (path, mode) => call("chmod", () => api.chmod(path, mode)),
    rename: (from, to) => call("rename", () => api.rename(from, to)),
    // Deno.remove is unlink(2) or rmdir(2), whichever fits: look first so that
    // unlink never removes a folder and rmdir never removes a file (as on
    // Node). A swap between the look and the remove can still pick the other
    // call; the callers' identity checks around these primitives cover that.
    unlink: (path) =>
      call("unlink", async () => {
        if (api.lstatSync(path).isDirectory) throw new HostError(isWindows ? "EPERM" : "EISDIR", "unlink");
        await api.remove(path);
      }),
    mkdir: (path, mode) => call("mkdir", () => api.mkdir(path, { mode: mode ?? 0o777 })),
    rmdir: (path) =>
      call("rmdir", async () => {
        if (!api.lstatSync(path).isDirectory) throw new HostError("ENOTDIR", "rmdir");
        await api.remove(path);
      }),
    readdir: (path) =>
      call("readdir", async () => {
        const entries: HostDirEntry[] = [];
        for await (const entry of api.readDir(path)) {
          let kind: EntryKind = entry.isFile
            ? "file"
            : entry.isDirectory
            ? "directory"
            : entry.isSymlink
            ? "symlink"
            : "other";
          // readDir reports only three kinds; ask lstat about the rest.
          if (kind === "other") {
            const separator = isWindows ? "\\" : "/";
            kind = kindOf(await api.lstat(path + separator + entry.name));
          }
          entries.push({ name: entry.name, kind });
        }
        return entries;
      }),
    readlink: (path) => callSync("readlink", () => api.readLinkSync(path)),
    spawn: (request) => spawnDeno(api, request),
    execPath: () => api.execPath(),
    scriptLaunch: (request) => denoScriptLaunch(api, request),
    environment: (names) => denoEnvironment(api.env, names),
    cwd: () => api.cwd(),
    umask: () => {
      if (typeof api.umask !== "function") return 0o022;
      try {
        const mask = api.umask(0o022);
        api.umask(mask);
        return mask;
      } catch {
        return 0o022;
      }
    },
  };
}

function denoScriptLaunch(api: DenoApi, request: ScriptLaunchRequest): ScriptLaunch {
  const flags: string[] = ["run", "--no-config", "--no-lock", "--cached-only"];
  if (request.confineTo === null) {
    flags.push("--allow-all");
  } else {
    // Default-deny: read and write only the listed paths; no net, env, run,
    // ffi or sys. Deno splits permission lists at commas, so a path holding
    // one cannot be granted exactly.
    if (request.confineTo.some((path) => path.includes(","))) throw new HostError("UNSUPPORTED", "permission-path");
    flags.push(
      "--no-prompt",
      `--allow-read=${request.confineTo.join(",")}`,
      `--allow-write=${request.confineTo.join(",")}`,
    );
  }
  // Deno always puts the script at argv[1]; the bootstrap removes it so that
  // `process.argv.slice(1)` is exactly the arguments, then loads the script.
  const bootstrap = `"use strict";\nprocess.argv.splice(1, 1);\nrequire(${JSON.stringify(request.scriptPath)});\n`;
  // NO_COLOR: Deno's own error reports would otherwise reach the model as ANSI escapes.
  return {
    argv: [api.execPath(), ...flags, request.bootstrapPath, ...request.args],
    bootstrap,
    env: { NO_COLOR: "1" },
  };
}

function spawnDeno(api: DenoApi, request: SpawnRequest): Promise<HostChild> {
  return call("spawn", () => {
    const [program, ...args] = request.argv;
    const child = new api.Command(program, {
      args,
      cwd: request.cwd,
      env: request.env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // Own process group (and session), so the whole tree can be killed;
      // Deno's own signal option kills only the direct child.
      detached: true,
    }).spawn();
    const exited: Promise<ExitStatus> = child.status.then((status) => ({
      code: status.signal === null ? status.code : null,
      signal: status.signal,
    }));
    const isWindows = api.build.os === "windows";
    return Promise.resolve<HostChild>({
      pid: child.pid,
      stdout: readerOf(child.stdout),
      stderr: readerOf(child.stderr),
      exited,
      killGroup: (signal) => {
        try {
          api.kill(isWindows ? child.pid : -child.pid, signal);
        } catch {
          // The group is already gone (ESRCH): nothing left to kill.
        }
      },
    });
  });
}
