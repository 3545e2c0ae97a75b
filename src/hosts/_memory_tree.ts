/**
 * The memory host's simulated kernel: the tree of folders, files and links,
 * the path walk (links, `..`, `/proc/self/fd/<n>` at held folders) and the
 * node identities and metadata. The operations on it are in
 * `_memory_syscalls.ts`, handles in `_memory_handles.ts`, and the host facade
 * is `memory.ts`.
 *
 * @module
 */
import { MAX_SYMLINK_HOPS } from "../core/limits.ts";
import { type EntryKind, HostError, type HostErrorCode, type HostStat } from "../host.ts";

/** The device id of every object in a memory host (`"mem"` in ASCII). */
export const MEMORY_HOST_DEV = 0x6d656d;

/** The size a folder reports, as on ext4. */
const FOLDER_SIZE = 4_096;

export interface NodeBase {
  readonly ino: number;
  readonly birthtimeMs: number;
  mode: number;
  mtimeMs: number;
}

export interface FileNode extends NodeBase {
  readonly kind: "file";
  /** Bytes `0 … size` are the content; the rest is spare capacity. */
  data: Uint8Array;
  size: number;
}

export interface FolderNode extends NodeBase {
  readonly kind: "directory";
  readonly entries: Map<string, MemoryNode>;
  /** Set when the folder is removed: a handle held on it then creates and finds nothing. */
  removed?: boolean;
}

export interface LinkNode extends NodeBase {
  readonly kind: "symlink";
  readonly target: string;
}

export type MemoryNode = FileNode | FolderNode | LinkNode;

/**
 * Where a path led. `parent` and `name` are `null` when the path ends in `.`,
 * `..` or names the root: it then names an existing folder with no entry name.
 */
export interface Location {
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

/** Throws the {@link HostError} a failing system call gives. */
export function fail(code: HostErrorCode, syscall: string): never {
  throw new HostError(code, syscall);
}

/** The tree and the walk every operation starts with; see {@link createMemoryTree}. */
export interface MemoryTree {
  /** The root folder, `/`. */
  readonly root: FolderNode;
  /** Held folders by descriptor number: `/proc/self/fd/<n>/<name>` is looked up in them, as on Linux. */
  readonly held: Map<number, FolderNode>;
  /** A fresh identity and birth time (identities are never reused). */
  born(): { ino: number; birthtimeMs: number; mtimeMs: number };
  newFolder(mode: number): FolderNode;
  /** Sets a node's mtime to now. */
  touch(node: NodeBase): void;
  /**
   * The kernel's path walk: from the root, one segment at a time; a link in
   * the middle (or at the end with `followFinal`) is replaced by its target's
   * segments, an absolute target restarting at the root; `..` steps up the
   * folders actually walked (never above the root). A missing final entry is
   * a result (`node: undefined`); a missing or non-folder component on the
   * way is `ENOENT` / `ENOTDIR`.
   */
  walk(path: string, followFinal: boolean, syscall: string): Location;
  /** As {@link MemoryTree.walk}, and `ENOENT` when the final entry is missing. */
  existing(path: string, followFinal: boolean, syscall: string): Location & { node: MemoryNode };
  statOf(node: MemoryNode): HostStat;
  /** Writes `data` at `position`, growing the file (a hole of zeros past the end). */
  writeAt(file: FileNode, data: Uint8Array, position: number): void;
  /** Creates an empty file `name` in `parent` with `mode` less the umask. */
  createFile(parent: FolderNode, name: string, mode: number): FileNode;
}

/**
 * Creates an empty tree: a root folder `/` and nothing else.
 *
 * @param now The clock for mtimes.
 * @param umask The file-creation mask.
 * @returns The tree.
 */
export function createMemoryTree(now: () => number, umask: number): MemoryTree {
  // Identities are handed out in order and never reused, even after a delete.
  let nextIno = 2;
  const held = new Map<number, FolderNode>();

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

  const createFile = (parent: FolderNode, name: string, mode: number): FileNode => {
    const file: FileNode = { kind: "file", ...born(), mode: mode & ~umask & 0o7777, data: new Uint8Array(0), size: 0 };
    parent.entries.set(name, file);
    touch(parent);
    return file;
  };

  return { root, held, born, newFolder, touch, walk, existing, statOf, writeAt, createFile };
}
