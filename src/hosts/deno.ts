/**
 * The Deno host: native `Deno.*` APIs and `Deno.execPath()`.
 *
 * Files and folders go through Deno's `node:fs`, not the native `Deno.open`:
 * only `node:fs` gives real descriptors with `O_NOFOLLOW`, `O_NONBLOCK` and
 * `O_DIRECTORY`, and held folders reachable as `/proc/self/fd/<fd>` (which
 * Deno allows only with `--allow-all`; without it the workspace walks paths,
 * see the README's security model). Deno's permissions apply to `node:fs`
 * exactly as to `Deno.*`. Processes are native (`Deno.Command`).
 *
 * @module
 */
import { reserveReap } from "./_exit_reaper.ts";
import { killTree } from "./_kill_tree.ts";
import {
  type ByteReader,
  type ByteWriter,
  type ExitStatus,
  type Host,
  type HostChild,
  HostError,
  type ScriptLaunch,
  type ScriptLaunchRequest,
  type SpawnRequest,
} from "../host.ts";
import { denoScriptBootstrap } from "./_deno_script_bootstrap.ts";
import { ERRNO_CODES, nativeErrors } from "./_native_errors.ts";
import { nodeFileSystem } from "./_node_fs.ts";
import { denoByteSearch } from "./_deno_byte_search.ts";
import { nodeSearchThreads, warmNodeSearchThreads } from "./_search_threads.ts";
import { type DenoEnv, denoEnvironment } from "./_deno_environment.ts";

// The slice of the Deno namespace this host uses, declared here so the file
// type-checks under tsc (no Deno types) and under `deno check` alike.
interface DenoChildProcess {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  readonly stdin: WritableStream<Uint8Array> | null;
  readonly status: Promise<{ code: number; signal: string | null }>;
}
interface DenoApi {
  build: { os: string };
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
      stdin: "null" | "piped";
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
const DENO_ERRORS = nativeErrors({
  NotFound: "ENOENT",
  AlreadyExists: "EEXIST",
  PermissionDenied: "EACCES",
  NotCapable: "EACCES",
  NotADirectory: "ENOTDIR",
  IsADirectory: "EISDIR",
  FilesystemLoop: "ELOOP",
  Busy: "EBUSY",
  InvalidData: "EINVAL",
  NotSupported: "UNSUPPORTED",
  ...ERRNO_CODES,
});
const { call, mapError } = DENO_ERRORS;

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

function writerOf(stream: WritableStream<Uint8Array>): ByteWriter {
  const writer = stream.getWriter();
  // A child that has gone errors the stream: never an unhandled rejection.
  writer.closed.catch(() => {});
  return {
    write: async (data) => {
      try {
        await writer.write(data);
      } catch (error) {
        throw mapError(error, "write");
      }
    },
    close: async () => {
      await writer.close().catch(() => {});
    },
  };
}

/**
 * Creates the host for Deno: files through Deno's `node:fs`, processes through `Deno.Command`.
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
    ...nodeFileSystem({
      sync: true,
      errors: DENO_ERRORS,
      procfs: api.build.os === "linux",
      removeChecksKind: true,
      byteSearch: denoByteSearch(),
    }),
    // Deno runs `node:worker_threads` too (workers inherit the process's permissions).
    searchThreads: nodeSearchThreads,
    warmSearchThreads: warmNodeSearchThreads,
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
    flags.push("--no-prompt", `--allow-read=${request.confineTo.join(",")}`);
    // A narrower write list leaves out what it cannot name exactly (','): not writable is the safe side.
    // One flag per path (Deno adds them up), so a long list never makes one argument too long for exec;
    // an empty list gives no flag at all (a bare `--allow-write` would allow every write).
    const writable = request.writable?.filter((path) => !path.includes(",")) ?? request.confineTo;
    for (const path of writable) flags.push(`--allow-write=${path}`);
    // Private paths: denied both ways (a deny wins over an allow); one Deno cannot name exactly is refused.
    const denied = request.denied ?? { read: [], write: [] };
    if ([...denied.read, ...denied.write].some((path) => path.includes(","))) {
      throw new HostError("UNSUPPORTED", "permission-path");
    }
    for (const path of denied.read) flags.push(`--deny-read=${path}`);
    for (const path of denied.write) flags.push(`--deny-write=${path}`);
  }
  // Deno always puts the script at argv[1]; the bootstrap removes it so that
  // `process.argv.slice(1)` is exactly the arguments, then runs the script
  // without naming it to the module loader (see _deno_script_bootstrap.ts).
  const bootstrap = denoScriptBootstrap(request.scriptPath);
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
    const isWindows = api.build.os === "windows";
    // Detached, it would outlive this process: its group ends with it (SIGTERM, SIGINT, exit). The listeners
    // go in before the spawn: on a loaded host the child (and its children) can run before the next line does.
    const reap = reserveReap();
    let child: ReturnType<InstanceType<DenoApi["Command"]>["spawn"]>;
    try {
      child = new api.Command(program, {
        args,
        cwd: request.cwd,
        env: request.env,
        clearEnv: true,
        stdin: request.stdin === "pipe" ? "piped" : "null",
        stdout: "piped",
        stderr: "piped",
        // Own process group (and session), so the whole tree can be killed;
        // Deno's own signal option kills only the direct child.
        detached: true,
      }).spawn();
    } catch (error) {
      reap.release();
      throw error;
    }
    const exited: Promise<ExitStatus> = child.status.then((status) => ({
      code: status.signal === null ? status.code : null,
      signal: status.signal,
    }));
    const pid = child.pid;
    reap.track(() => killTree(pid, (target, signal) => api.kill(target, signal)), exited);
    return Promise.resolve<HostChild>({
      pid: child.pid,
      stdout: readerOf(child.stdout),
      stderr: readerOf(child.stderr),
      ...(request.stdin === "pipe" && child.stdin !== null ? { stdin: writerOf(child.stdin) } : {}),
      exited,
      killGroup: (signal) => {
        try {
          if (!isWindows && signal === "SIGKILL") killTree(child.pid, (target, sent) => api.kill(target, sent));
          else api.kill(isWindows ? child.pid : -child.pid, signal);
        } catch {
          // The group is already gone (ESRCH): nothing left to kill.
        }
      },
    });
  });
}
