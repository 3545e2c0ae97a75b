/**
 * The memory host's open handles: file handles (reads and writes at a
 * position, on the node itself, so an unlinked file stays readable) and held
 * folders (`/proc/self/fd/<n>`), over the tree of `_memory_tree.ts`.
 *
 * @module
 */
import type { HostDir, HostFile, OpenOptions } from "../host.ts";
import { fail, type FileNode, type FolderNode, type MemoryTree } from "./_memory_tree.ts";

/** Wraps a synchronous operation as a host primitive (fault injection first, a throw becomes a rejection). */
export type Primitive = <Args extends unknown[], Result>(
  syscall: string,
  operation: (...args: Args) => Result,
) => (...args: Args) => Promise<Result>;

/** Opening files and folders, and how many handles are open. */
export interface MemoryHandles {
  openSync(path: string, options: OpenOptions): HostFile;
  openDirSync(path: string): HostDir;
  /** How many file and folder handles are open. */
  count(): number;
}

/**
 * Creates the handle table of a tree.
 *
 * @param tree The tree the handles open into.
 * @param primitive How each handle operation is wrapped.
 * @returns The handle operations.
 */
export function createMemoryHandles(tree: MemoryTree, primitive: Primitive): MemoryHandles {
  const { held, existing, walk, statOf, writeAt, createFile } = tree;
  let nextFd = 3;
  let openFiles = 0;

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

  return { openSync, openDirSync, count: () => held.size + openFiles };
}
