/**
 * The memory host's system calls on paths, synchronous: stat, realpath,
 * chmod, rename, unlink, mkdir, rmdir, readdir, readlink, symlink, and the
 * whole-file helpers tests build trees with, each with the error codes
 * measured on Linux. The host facade (`memory.ts`) wraps them in promises.
 *
 * @module
 */
import type { EntryKind, HostDirEntry, HostStat } from "../host.ts";
import { fail, type FileNode, type MemoryTree } from "./_memory_tree.ts";

/** The synchronous operations of a memory host; see {@link createMemorySyscalls}. */
export interface MemorySyscalls {
  lstatSync(path: string): HostStat;
  statSync(path: string): HostStat;
  realpathSync(path: string): string;
  chmodSync(path: string, mode: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
  mkdirOne(path: string, mode: number): void;
  mkdirSync(path: string, options?: { recursive?: boolean; mode?: number }): void;
  rmdirSync(path: string): void;
  readdirSync(path: string): HostDirEntry[];
  readlinkSync(path: string): string;
  symlinkSync(target: string, path: string): void;
  writeFileSync(path: string, data: string | Uint8Array, options?: { mode?: number }): void;
  readFileSync(path: string): Uint8Array;
  exchangeSync(a: string, b: string): void;
}

const encoder = new TextEncoder();

/**
 * Creates the operations over `tree`.
 *
 * @param tree The tree they act on.
 * @param umask The file-creation mask for new folders.
 * @returns The operations.
 */
export function createMemorySyscalls(tree: MemoryTree, umask: number): MemorySyscalls {
  const { root, born, newFolder, touch, walk, existing, statOf, createFile } = tree;

  const exchangeSync = (a: string, b: string): void => {
    const first = existing(a, false, "rename");
    const second = existing(b, false, "rename");
    if (first.parent === null || first.name === null || second.parent === null || second.name === null) {
      return fail("EBUSY", "rename");
    }
    first.parent.entries.set(first.name, second.node);
    second.parent.entries.set(second.name, first.node);
  };

  const lstatSync = (path: string): HostStat => statOf(existing(path, false, "lstat").node);
  const statSync = (path: string): HostStat => statOf(existing(path, true, "stat").node);

  const realpathSync = (path: string): string => "/" + existing(path, true, "realpath").canonical.join("/");

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

  return {
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
  };
}
