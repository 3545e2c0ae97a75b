/**
 * The Node.js host (also used under Bun): `node:fs/promises`,
 * `node:child_process` and `process.execPath`.
 *
 * @module
 */
import { spawn as spawnChild } from "node:child_process";
import type { Readable, Writable } from "node:stream";
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
import { reserveReap } from "./_exit_reaper.ts";
import { killTree } from "./_kill_tree.ts";
import { NODE_ERRORS } from "./_node_errors.ts";
import { nodeFileSystem } from "./_node_fs.ts";
import { nodeSearchThreads, warmNodeSearchThreads } from "./_search_threads.ts";

const { mapError } = NODE_ERRORS;

const isWindows: boolean = process.platform === "win32";
const isBun = typeof (process.versions as Record<string, string | undefined>).bun === "string";

/** Options of {@link createNodeHost}. */
export interface NodeHostOptions {
  /**
   * Run every filesystem primitive but fsync as one synchronous system call
   * instead of a round trip through libuv's thread pool: on a local disk each
   * is a page-cache or metadata operation of microseconds, several times less
   * than a round trip (a 4 KiB `write_file` makes eight of them besides its
   * two fsyncs). `false` sends creates, writes, renames and removals through
   * the thread pool, for a process that serves many callers from a slow
   * (network) filesystem, where a synchronous call would stall its event
   * loop; reads of up to 64 KiB, look-ups and listings are synchronous either way.
   * @default true
   */
  syncFileCalls?: boolean;
}

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

function writerOf(stream: Writable): ByteWriter {
  // A write to a child that has gone fails with EPIPE as an event: never an uncaught error.
  stream.on("error", () => {});
  return {
    write: (data) =>
      new Promise((resolve, reject) => {
        if (stream.destroyed || stream.writableEnded) return reject(new HostError("EIO", "write"));
        stream.write(data, (error) => error ? reject(mapError(error, "write")) : resolve());
      }),
    // Ends the pipe; a child that has gone cannot take the end of file, and need not.
    close: () => {
      if (!stream.destroyed) stream.end();
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
 * @param options Whether file calls are synchronous.
 * @returns A {@link Host} backed by `node:fs` and `node:child_process`.
 *
 * @example Opening a workspace on the Node host explicitly
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { createNodeHost } from "@paddock/tools/node";
 * const workspace = await openWorkspace("./project", { host: createNodeHost() });
 * ```
 */
export function createNodeHost(options: NodeHostOptions = {}): Host {
  const files = nodeFileSystem({
    sync: options.syncFileCalls ?? true,
    errors: NODE_ERRORS,
    procfs: process.platform === "linux",
  });
  return {
    runtime: isBun ? "bun" : "node",
    platform: isWindows ? "win32" : "posix",
    ...files,
    searchThreads: nodeSearchThreads,
    warmSearchThreads: warmNodeSearchThreads,
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
    for (const path of request.confineTo) flags.push(`--allow-fs-read=${path}`);
    // A narrower write list leaves out what it cannot name exactly ('*'): not writable is the safe side.
    const writable = request.writable?.filter((path) => !path.includes("*")) ?? request.confineTo;
    for (const path of writable) flags.push(`--allow-fs-write=${path}`);
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
    // Detached, it would outlive this process: its group ends with it (SIGTERM, SIGINT, exit). The listeners
    // go in before the spawn: on a loaded host the child (and its children) can run before the next line does.
    const reap = reserveReap();
    let child: ReturnType<typeof spawnChild>;
    try {
      child = spawnChild(program, args, {
        cwd: request.cwd,
        env: request.env,
        // Own process group (and session), so the whole tree can be killed.
        detached: true,
        stdio: [request.stdin === "pipe" ? "pipe" : "ignore", "pipe", "pipe"],
        windowsHide: true,
        shell: false,
      });
    } catch (error) {
      reap.release();
      throw error;
    }
    const exited = new Promise<ExitStatus>((resolveExit) => {
      child.once("exit", (code, signal) => resolveExit({ code, signal }));
    });
    child.once("error", (error) => reject(mapError(error, "spawn")));
    // Tracked as soon as the pid is known, before the "spawn" event (Bun runs the child before it fires).
    const started = child.pid;
    if (started === undefined) reap.release();
    else reap.track(() => killTree(started, (target, signal) => process.kill(target, signal)), exited);
    child.once("spawn", () => {
      const pid = child.pid as number;
      resolve({
        pid,
        stdout: readerOf(child.stdout as Readable),
        stderr: readerOf(child.stderr as Readable),
        ...(request.stdin === "pipe" ? { stdin: writerOf(child.stdin as Writable) } : {}),
        exited,
        killGroup: (signal) => {
          try {
            if (isWindows) child.kill(signal);
            else if (signal === "SIGKILL") killTree(pid, (target, sent) => process.kill(target, sent));
            else process.kill(-pid, signal);
          } catch {
            // The group is already gone (ESRCH): nothing left to kill.
          }
        },
      });
    });
  });
}
