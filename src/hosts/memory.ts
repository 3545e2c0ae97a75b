/**
 * The in-memory host: a POSIX-like tree of folders, files and symbolic links
 * held in plain objects, behind the same {@link Host} seam as the Node and
 * Deno hosts. Pure TypeScript (no `node:*`, `Deno` or `Bun`), so it runs on
 * every runtime and type-checks with the core.
 *
 * What it models, as Linux does: stable identities (one constant `dev`, an
 * `ino` per object that is never reused), permission bits (stored, not
 * enforced: it behaves like a process running as root), mtimes, sizes, link
 * resolution with at most `MAX_SYMLINK_HOPS` hops (`ELOOP` after),
 * `O_CREAT|O_EXCL` that fails with `EEXIST` even on a dangling link,
 * `O_NOFOLLOW` that fails with `ELOOP` on a final link, and the error codes
 * of `rename`, `unlink`, `mkdir`, `rmdir`, `readdir` and `readlink` measured
 * on Linux. An unlinked or replaced file stays readable through handles
 * opened before.
 *
 * What it cannot do: run processes. `spawn` rejects with
 * `HostError("UNSUPPORTED", "spawn")`, so `node_process` reports
 * `SPAWN_FAILED`; commands for the `shell` tool are scripted by
 * `MemoryWorkspace` instead.
 *
 * @module
 */
import { inThreadSearchThreads } from "../core/search/in_thread_search_threads.ts";
import type {
  FileSearchSpec,
  FileSearchThreads,
  Host,
  HostDirEntry,
  HostErrorCode,
  HostStat,
  ScriptLaunch,
  ScriptLaunchRequest,
} from "../host.ts";
import { createMemoryHandles } from "./_memory_handles.ts";
import { createMemorySyscalls } from "./_memory_syscalls.ts";
import { createMemoryTree, fail } from "./_memory_tree.ts";

export { MEMORY_HOST_DEV } from "./_memory_tree.ts";

/** What {@link Host.execPath} returns on a memory host: a fixed path that exists nowhere. */
export const MEMORY_EXEC_PATH = "/opt/paddock-memory/bin/runtime";

/** The environment a memory host reports by default: a few of the minimal variables, fixed values. */
export const MEMORY_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/home/paddock",
  LANG: "C.UTF-8",
  TMPDIR: "/tmp",
});

/** Options of {@link createMemoryHost}. */
export interface MemoryHostOptions {
  /** What `environment()` returns. @default {@link MEMORY_ENVIRONMENT} */
  environment?: Record<string, string>;
  /** The file-creation mask. @default 0o022 */
  umask?: number;
  /** The clock for mtimes, in milliseconds since the epoch. @default Date.now */
  now?: () => number;
}

/**
 * A {@link Host} held in memory, with synchronous helpers to build and
 * inspect the tree. The helpers follow the same rules and throw the same
 * {@link HostError}s as the asynchronous primitives.
 */
export interface MemoryHost extends Host {
  /** Always `"memory"`. */
  readonly runtime: "memory";
  /** Always `"posix"`. */
  readonly platform: "posix";
  /** Creates a symbolic link at `path` holding `target` verbatim (relative or absolute; not checked). */
  symlink(target: string, path: string): Promise<void>;
  /** Like {@link MemoryHost.symlink}, synchronously. */
  symlinkSync(target: string, path: string): void;
  /** Creates a folder; with `recursive`, every missing folder on the way (following links), and an existing folder is fine. */
  mkdirSync(path: string, options?: { recursive?: boolean; mode?: number }): void;
  /**
   * Writes a whole file, following links: an existing file keeps its
   * identity and mode and gets the new content; a missing one is created
   * with `mode` (less the umask). The parent folder must exist.
   */
  writeFileSync(path: string, data: string | Uint8Array, options?: { mode?: number }): void;
  /** A file's whole content, following links. */
  readFileSync(path: string): Uint8Array;
  /** Metadata, not following a final link. */
  lstatSync(path: string): HostStat;
  /** Metadata, following links. */
  statSync(path: string): HostStat;
  /** A folder's entries, sorted by name, kinds not following links. */
  readdirSync(path: string): HostDirEntry[];
  /** A link's target, as stored. */
  readlinkSync(path: string): string;
  /** Removes a file or link. */
  unlinkSync(path: string): void;
  /**
   * Exchanges the objects at two paths in one step (Linux
   * `renameat2(RENAME_EXCHANGE)`), final links not followed: what an
   * adversary racing a tool does.
   */
  exchangeSync(a: string, b: string): void;
  /** How many file and folder handles are open: a test's leak check. */
  openHandles(): number;
  /**
   * Makes the next call of primitive `syscall` (`"rename"`, `"open"`,
   * `"lstat"`, …) fail with `code`, once per call of this method: to test
   * how callers handle a failing disk.
   */
  failNext(syscall: string, code: HostErrorCode): void;
}

/**
 * Creates an empty memory host: a root folder `/` and nothing else.
 *
 * @param options The environment, umask and clock it reports.
 * @returns A fresh {@link MemoryHost}.
 *
 * @example Opening a workspace on a memory host
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { createMemoryHost } from "@paddock/tools/testing";
 * const host = createMemoryHost();
 * host.mkdirSync("/project/src", { recursive: true });
 * host.writeFileSync("/project/src/a.ts", "export {};\n");
 * const workspace = await openWorkspace("/project", { host });
 * ```
 */
export function createMemoryHost(options: MemoryHostOptions = {}): MemoryHost {
  const now = options.now ?? Date.now;
  const umask = (options.umask ?? 0o022) & 0o777;
  const environment = { ...(options.environment ?? MEMORY_ENVIRONMENT) };
  const faults = new Map<string, HostErrorCode[]>();
  const tree = createMemoryTree(now, umask);

  const injected = (syscall: string): void => {
    const queue = faults.get(syscall);
    const code = queue?.shift();
    if (queue !== undefined && queue.length === 0) faults.delete(syscall);
    if (code !== undefined) fail(code, syscall);
  };

  // Wraps a synchronous operation as a host primitive: a fault injected for
  // `syscall` fires first, and a throw becomes a rejected promise.
  function primitive<Args extends unknown[], Result>(
    syscall: string,
    operation: (...args: Args) => Result,
  ): (...args: Args) => Promise<Result> {
    return (...args) => {
      try {
        injected(syscall);
        return Promise.resolve(operation(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }

  const handles = createMemoryHandles(tree, primitive);
  const {
    lstatSync,
    statSync,
    realpathSync,
    chmodSync,
    renameSync,
    unlinkSync,
    mkdirOne,
    mkdirSync,
    rmdirSync,
    readdirSync,
    readlinkSync,
    symlinkSync,
    writeFileSync,
    readFileSync,
    exchangeSync,
  } = createMemorySyscalls(tree, umask);
  const { openSync, openDirSync } = handles;

  const unsupported = (): never => fail("UNSUPPORTED", "spawn");

  return {
    runtime: "memory",
    platform: "posix",
    realpath: primitive("realpath", realpathSync),
    lstat: primitive("lstat", lstatSync),
    stat: primitive("stat", statSync),
    open: primitive("open", openSync),
    openDir: primitive("open", openDirSync),
    chmod: primitive("chmod", chmodSync),
    rename: primitive("rename", renameSync),
    unlink: primitive("unlink", unlinkSync),
    mkdir: primitive("mkdir", (path: string, mode?: number) => mkdirOne(path, mode ?? 0o777)),
    rmdir: primitive("rmdir", rmdirSync),
    readdir: primitive("readdir", readdirSync),
    readlink: primitive("readlink", readlinkSync),
    symlink: primitive("symlink", symlinkSync),
    // No threads in memory: grep's batches are searched here, on later turns.
    searchThreads(spec: FileSearchSpec): FileSearchThreads {
      return inThreadSearchThreads(this, spec);
    },
    // No processes in memory: the shell tool's commands are scripted by MemoryWorkspace instead.
    spawn: primitive("spawn", unsupported),
    execPath: () => MEMORY_EXEC_PATH,
    // The launch is described as on a real runtime; spawning it is what fails.
    scriptLaunch: (request: ScriptLaunchRequest): ScriptLaunch => ({
      argv: [MEMORY_EXEC_PATH, request.scriptPath, ...request.args],
    }),
    environment: () => ({ ...environment }),
    umask: () => umask,
    cwd: () => "/",
    symlinkSync,
    mkdirSync,
    writeFileSync,
    readFileSync,
    lstatSync,
    statSync,
    readdirSync,
    readlinkSync,
    unlinkSync,
    exchangeSync,
    openHandles: () => handles.count(),
    failNext: (syscall, code) => {
      const queue = faults.get(syscall) ?? [];
      queue.push(code);
      faults.set(syscall, queue);
    },
  };
}
