/**
 * The in-memory host: a POSIX-like tree of folders, files and symbolic links
 * held in plain objects, behind the same {@link Host} seam as the Node and
 * Deno hosts. Pure TypeScript (no `node:*`, `Deno` or `Bun`), so it runs on
 * every runtime and type-checks with the core.
 *
 * What it models, as Linux does: stable identities (one constant `dev`, an
 * `ino` per object that is never reused), permission bits (stored, not
 * enforced: it behaves like a process running as root), mtimes, sizes, link
 * resolution with at most {@link MAX_SYMLINK_HOPS} hops (`ELOOP` after),
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
import { inThreadSearchThreads } from "../core/in_thread_search_threads.ts";
import { MAX_SYMLINK_HOPS } from "../core/limits.ts";
import {
  type EntryKind,
  type FileSearchSpec,
  type FileSearchThreads,
  type Host,
  type HostDir,
  type HostDirEntry,
  HostError,
  type HostErrorCode,
  type HostFile,
  type HostStat,
  type OpenOptions,
  type ScriptLaunch,
  type ScriptLaunchRequest,
} from "../host.ts";

/** The device id of every object in a memory host (`"mem"` in ASCII). */
export const MEMORY_HOST_DEV = 0x6d656d;

/** What {@link Host.execPath} returns on a memory host: a fixed path that exists nowhere. */
export const MEMORY_EXEC_PATH = "/opt/paddock-memory/bin/runtime";

/** The environment a memory host reports by default: a few of the minimal variables, fixed values. */
export const MEMORY_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  PATH: "/usr/local/bin:/usr/bin:/bin",
  HOME: "/home/paddock",
  LANG: "C.UTF-8",
  TMPDIR: "/tmp",
});

/** The size a folder reports, as on ext4. */
const FOLDER_SIZE = 4_096;

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

interface NodeBase {
  readonly ino: number;
  readonly birthtimeMs: number;
  mode: number;
  mtimeMs: number;
}

interface FileNode extends NodeBase {
  readonly kind: "file";
  /** Bytes `0 … size` are the content; the rest is spare capacity. */
  data: Uint8Array;
  size: number;
}

interface FolderNode extends NodeBase {
  readonly kind: "directory";
  readonly entries: Map<string, MemoryNode>;
  /** Set when the folder is removed: a handle held on it then creates and finds nothing. */
  removed?: boolean;
}

interface LinkNode extends NodeBase {
  readonly kind: "symlink";
  readonly target: string;
}

type MemoryNode = FileNode | FolderNode | LinkNode;

/**
 * Where a path led. `parent` and `name` are `null` when the path ends in `.`,
 * `..` or names the root: it then names an existing folder with no entry name.
 */
interface Location {
  /** The folders from the root to the containing folder, as walked. */
  chain: FolderNode[];
  /** The canonical names from the root to the object (or the missing entry), links resolved. */
  canonical: string[];
  parent: FolderNode | null;
  name: string | null;
  /** The object found, or `undefined` when the final entry is missing. */
  node: MemoryNode | undefined;
}

const encoder = new TextEncoder();

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
  // Identities are handed out in order and never reused, even after a delete.
  let nextIno = 2;
  const faults = new Map<string, HostErrorCode[]>();
  // Held folders by descriptor number: `/proc/self/fd/<n>/<name>` is looked up in them, as on Linux.
  const held = new Map<number, FolderNode>();
  let nextFd = 3;
  let openFiles = 0;

  const born = (): { ino: number; birthtimeMs: number; mtimeMs: number } => {
    const time = now();
    return { ino: nextIno++, birthtimeMs: time, mtimeMs: time };
  };
  const newFolder = (mode: number): FolderNode => ({
    kind: "directory",
    ...born(),
    mode: mode & 0o7777,
    entries: new Map(),
  });
  const root = newFolder(0o755);

  const fail = (code: HostErrorCode, syscall: string): never => {
    throw new HostError(code, syscall);
  };

  const injected = (syscall: string): void => {
    const queue = faults.get(syscall);
    const code = queue?.shift();
    if (queue !== undefined && queue.length === 0) faults.delete(syscall);
    if (code !== undefined) fail(code, syscall);
  };

  const touch = (node: NodeBase): void => {
    node.mtimeMs = now();
  };

  /**
   * The kernel's path walk: from the root, one segment at a time; a link in
   * the middle (or at the end with `followFinal`) is replaced by its target's
   * segments, an absolute target restarting at the root; `..` steps up the
   * folders actually walked (never above the root). A missing final entry is
   * a result (`node: undefined`); a missing or non-folder component on the
   * way is `ENOENT` / `ENOTDIR`.
   */
  const walk = (path: string, followFinal: boolean, syscall: string): Location => {
    if (typeof path !== "string" || path.includes("\0")) fail("EINVAL", syscall);
    if (path === "") fail("ENOENT", syscall);
    // A trailing slash asks for a folder: the final link is followed.
    const trailingSlash = /[^/]\/+$/.test(path);
    const follow = followFinal || trailingSlash;
    // `/proc/self/fd/<n>` starts the walk at a held folder (Linux's magic link).
    const heldPrefix = /^\/proc\/self\/fd\/(\d+)(?=\/|$)/.exec(path);
    let start = root;
    if (heldPrefix !== null) {
      const folder = held.get(Number(heldPrefix[1]));
      if (folder === undefined) return fail("ENOENT", syscall);
      start = folder;
      path = path.slice(heldPrefix[0].length);
    }
    const pending = path.split("/").filter((segment) => segment !== "");
    if (start.removed && pending.length > 0) return fail("ENOENT", syscall);
    const chain: FolderNode[] = [start];
    const names: string[] = [];
    let hops = 0;
    // The path ends on a folder reached without an entry name ('/', '.', '..').
    const atFolder = (): Location => ({
      chain: chain.slice(0, -1),
      canonical: [...names],
      parent: null,
      name: null,
      node: chain[chain.length - 1],
    });
    if (pending.length === 0) return atFolder();
    while (pending.length > 0) {
      const segment = pending.shift() as string;
      const folder = chain[chain.length - 1];
      const isFinal = pending.length === 0;
      if (segment === "." || segment === "..") {
        if (segment === ".." && chain.length > 1) {
          chain.pop();
          names.pop();
        }
        if (isFinal) return atFolder();
        continue;
      }
      const node = folder.entries.get(segment);
      if (node === undefined) {
        if (isFinal) return { chain, canonical: [...names, segment], parent: folder, name: segment, node: undefined };
        return fail("ENOENT", syscall);
      }
      if (node.kind === "symlink" && (!isFinal || follow)) {
        if (++hops > MAX_SYMLINK_HOPS) fail("ELOOP", syscall);
        if (node.target === "") fail("ENOENT", syscall);
        if (node.target.startsWith("/")) {
          chain.splice(0, chain.length, root);
          names.length = 0;
        }
        const targetSegments = node.target.split("/").filter((part) => part !== "");
        if (targetSegments.length === 0 && pending.length === 0) return atFolder();
        pending.unshift(...targetSegments);
        continue;
      }
      if (isFinal) {
        if (trailingSlash && node.kind !== "directory") fail("ENOTDIR", syscall);
        return { chain, canonical: [...names, segment], parent: folder, name: segment, node };
      }
      if (node.kind !== "directory") return fail("ENOTDIR", syscall);
      chain.push(node);
      names.push(segment);
    }
    return atFolder();
  };

  const existing = (path: string, followFinal: boolean, syscall: string): Location & { node: MemoryNode } => {
    const location = walk(path, followFinal, syscall);
    if (location.node === undefined) fail("ENOENT", syscall);
    return location as Location & { node: MemoryNode };
  };

  const statOf = (node: MemoryNode): HostStat => ({
    kind: node.kind as EntryKind,
    size: node.kind === "file"
      ? node.size
      : node.kind === "directory"
      ? FOLDER_SIZE
      : encoder.encode(node.target).length,
    mode: node.mode,
    dev: MEMORY_HOST_DEV,
    ino: node.ino,
    mtimeMs: node.mtimeMs,
    birthtimeMs: node.birthtimeMs,
  });

  const writeAt = (file: FileNode, data: Uint8Array, position: number): void => {
    const end = position + data.length;
    if (end > file.data.length) {
      const grown = new Uint8Array(Math.max(end, file.data.length * 2, 64));
      grown.set(file.data.subarray(0, file.size));
      file.data = grown;
    }
    // A write past the end leaves a hole of zeros, as on disk.
    if (position > file.size) file.data.fill(0, file.size, position);
    file.data.set(data, position);
    file.size = Math.max(file.size, end);
    touch(file);
  };

  const handleOf = (node: FileNode | FolderNode, readable: boolean, writable: boolean): HostFile => {
    let closed = false;
    openFiles++;
    // EBADF (closed handle, wrong direction) has no host code of its own; the Node host reports it as EIO.
    const usable = (syscall: string, allowed: boolean): void => {
      if (closed || !allowed) fail("EIO", syscall);
    };
    return {
      read: primitive("read", (buffer: Uint8Array, position: number): number => {
        usable("read", readable);
        if (node.kind === "directory") return fail("EISDIR", "read");
        if (position >= node.size) return 0;
        const count = Math.min(buffer.length, node.size - position);
        buffer.set(node.data.subarray(position, position + count));
        return count;
      }),
      write: primitive("write", (data: Uint8Array, position: number): void => {
        usable("write", writable);
        if (node.kind === "directory") return fail("EISDIR", "write");
        writeAt(node, data, position);
      }),
      sync: primitive("fsync", () => usable("fsync", true)),
      stat: primitive("fstat", () => {
        usable("fstat", true);
        return statOf(node);
      }),
      chmod: primitive("fchmod", (mode: number): void => {
        usable("fchmod", true);
        node.mode = mode & 0o7777;
      }),
      close: primitive("close", () => {
        if (!closed) openFiles--;
        closed = true;
      }),
    };
  };

  const openDirSync = (path: string): HostDir => {
    const { node } = existing(path, false, "open");
    if (node.kind === "symlink") return fail("ELOOP", "open");
    if (node.kind !== "directory") return fail("ENOTDIR", "open");
    const fd = nextFd++;
    held.set(fd, node);
    return {
      at: `/proc/self/fd/${fd}`,
      stat: primitive("fstat", () => {
        if (!held.has(fd)) fail("EIO", "fstat");
        return statOf(node);
      }),
      sync: primitive("fsync", () => {
        if (!held.has(fd)) fail("EIO", "fsync");
      }),
      close: primitive("close", () => void held.delete(fd)),
    };
  };

  const exchangeSync = (a: string, b: string): void => {
    const first = existing(a, false, "rename");
    const second = existing(b, false, "rename");
    if (first.parent === null || first.name === null || second.parent === null || second.name === null) {
      return fail("EBUSY", "rename");
    }
    first.parent.entries.set(first.name, second.node);
    second.parent.entries.set(second.name, first.node);
  };

  const createFile = (parent: FolderNode, name: string, mode: number): FileNode => {
    const file: FileNode = { kind: "file", ...born(), mode: mode & ~umask & 0o7777, data: new Uint8Array(0), size: 0 };
    parent.entries.set(name, file);
    touch(parent);
    return file;
  };

  // The operations, synchronous; the Host methods below wrap them in promises.

  const lstatSync = (path: string): HostStat => statOf(existing(path, false, "lstat").node);
  const statSync = (path: string): HostStat => statOf(existing(path, true, "stat").node);

  const realpathSync = (path: string): string => "/" + existing(path, true, "realpath").canonical.join("/");

  const openSync = (path: string, options: OpenOptions): HostFile => {
    const writable = options.write ?? false;
    const readable = options.read ?? !writable;
    if (options.createExclusive) {
      // O_CREAT|O_EXCL never follows a final link: anything there, even a dangling link, is EEXIST.
      const location = walk(path, false, "open");
      if (location.node !== undefined || location.parent === null || location.name === null) {
        return fail("EEXIST", "open");
      }
      if (path.endsWith("/")) fail("EISDIR", "open");
      return handleOf(createFile(location.parent, location.name, options.mode ?? 0o600), readable, writable);
    }
    const { node } = existing(path, !options.noFollow, "open");
    if (node.kind === "symlink") return fail("ELOOP", "open");
    if (node.kind === "directory" && writable) return fail("EISDIR", "open");
    return handleOf(node, readable, writable);
  };

  const chmodSync = (path: string, mode: number): void => {
    const { node } = existing(path, true, "chmod");
    node.mode = mode & 0o7777;
  };

  const renameSync = (from: string, to: string): void => {
    const source = existing(from, false, "rename");
    if (source.parent === null || source.name === null) return fail("EBUSY", "rename");
    const destination = walk(to, false, "rename");
    if (destination.parent === null || destination.name === null) return fail("EBUSY", "rename");
    const moving = source.node;
    const replaced = destination.node;
    if (replaced === moving) return; // the same object: POSIX says do nothing
    if (moving.kind === "directory") {
      // A folder cannot move below itself.
      if (destination.chain.includes(moving)) return fail("EINVAL", "rename");
      if (replaced !== undefined && replaced.kind !== "directory") return fail("ENOTDIR", "rename");
      if (replaced !== undefined && replaced.kind === "directory" && replaced.entries.size > 0) {
        return fail("ENOTEMPTY", "rename");
      }
    } else if (replaced !== undefined && replaced.kind === "directory") {
      return fail("EISDIR", "rename");
    }
    // One step, so no reader sees the name missing or half-made: the old
    // object at `to` is detached (open handles keep it) and `from` takes its place.
    source.parent.entries.delete(source.name);
    destination.parent.entries.set(destination.name, moving);
    touch(source.parent);
    touch(destination.parent);
  };

  const unlinkSync = (path: string): void => {
    const location = existing(path, false, "unlink");
    // Linux reports EISDIR for a folder (POSIX says EPERM); measured with Node here.
    if (location.parent === null || location.name === null || location.node.kind === "directory") {
      return fail("EISDIR", "unlink");
    }
    location.parent.entries.delete(location.name);
    touch(location.parent);
  };

  const mkdirOne = (path: string, mode: number): void => {
    const location = walk(path, false, "mkdir");
    if (location.node !== undefined || location.parent === null || location.name === null) {
      return fail("EEXIST", "mkdir");
    }
    location.parent.entries.set(location.name, newFolder(mode & ~umask));
    touch(location.parent);
  };

  const mkdirSync = (path: string, options: { recursive?: boolean; mode?: number } = {}): void => {
    const mode = options.mode ?? 0o777;
    if (!options.recursive) return mkdirOne(path, mode);
    const segments = path.split("/").filter((segment) => segment !== "");
    for (let i = 1; i <= segments.length; i++) {
      const prefix = "/" + segments.slice(0, i).join("/");
      const followed = walk(prefix, true, "mkdir");
      if (followed.node === undefined) mkdirOne(prefix, mode); // a dangling link here fails with EEXIST
      else if (followed.node.kind !== "directory") fail(i === segments.length ? "EEXIST" : "ENOTDIR", "mkdir");
    }
  };

  const rmdirSync = (path: string): void => {
    const location = existing(path, false, "rmdir");
    if (location.node === root) return fail("EBUSY", "rmdir");
    if (location.parent === null || location.name === null) return fail("EINVAL", "rmdir");
    if (location.node.kind !== "directory") return fail("ENOTDIR", "rmdir");
    if (location.node.entries.size > 0) return fail("ENOTEMPTY", "rmdir");
    location.parent.entries.delete(location.name);
    location.node.removed = true;
    touch(location.parent);
  };

  const readdirSync = (path: string): HostDirEntry[] => {
    const { node } = existing(path, true, "readdir");
    if (node.kind !== "directory") return fail("ENOTDIR", "readdir");
    return [...node.entries].map(([name, child]) => ({ name, kind: child.kind as EntryKind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  };

  const readlinkSync = (path: string): string => {
    const { node } = existing(path, false, "readlink");
    if (node.kind !== "symlink") return fail("EINVAL", "readlink");
    return node.target;
  };

  const symlinkSync = (target: string, path: string): void => {
    if (typeof target !== "string" || target.includes("\0")) fail("EINVAL", "symlink");
    if (target === "") fail("ENOENT", "symlink");
    const location = walk(path, false, "symlink");
    if (location.node !== undefined || location.parent === null || location.name === null) {
      return fail("EEXIST", "symlink");
    }
    location.parent.entries.set(location.name, { kind: "symlink", ...born(), mode: 0o777, target });
    touch(location.parent);
  };

  const writeFileSync = (path: string, data: string | Uint8Array, options: { mode?: number } = {}): void => {
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    const location = walk(path, true, "open");
    let file: FileNode;
    if (location.node === undefined) {
      if (location.parent === null || location.name === null) return fail("EISDIR", "open");
      if (path.endsWith("/")) fail("EISDIR", "open");
      file = createFile(location.parent, location.name, options.mode ?? 0o666);
    } else if (location.node.kind === "directory") {
      return fail("EISDIR", "open");
    } else {
      file = location.node as FileNode;
    }
    file.data = bytes.slice();
    file.size = bytes.length;
    touch(file);
  };

  const readFileSync = (path: string): Uint8Array => {
    const { node } = existing(path, true, "open");
    if (node.kind === "directory") return fail("EISDIR", "read");
    const file = node as FileNode;
    return file.data.slice(0, file.size);
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
    openHandles: () => held.size + openFiles,
    failNext: (syscall, code) => {
      const queue = faults.get(syscall) ?? [];
      queue.push(code);
      faults.set(syscall, queue);
    },
  };
}
