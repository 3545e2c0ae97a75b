/**
 * The Node.js host with synchronous filesystem calls, for single-client
 * processes such as `paddock mcp`.
 *
 * Each primitive (lstat, realpath, open, read, rename, …) runs as one direct
 * system call instead of a round trip through libuv's thread pool, which cuts
 * the latency of a tool call several-fold on a local disk. The price: a call
 * blocks the event loop for the duration of its system call, so a slow
 * (network) filesystem stalls everything else in the process. `fsync` stays
 * asynchronous, as it is the one call that routinely takes milliseconds.
 * Processes (`spawn`) are the Node host's own.
 *
 * @module
 */
import {
  chmodSync,
  closeSync,
  constants,
  fstatSync,
  fsync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { type Host, type HostDirEntry, HostError, type HostFile } from "../host.ts";
import { createNodeHost, isWindows, kindOf, NODE_ERRORS, openFlags, toStat } from "./node.ts";

// Synchronous primitives, their native errors mapped like the Node host's.
const { mapError, callSync: run } = NODE_ERRORS;

function wrapFd(fd: number): HostFile {
  let closed = false;
  return {
    read: (buffer, position) => run("read", () => readSync(fd, buffer, 0, buffer.length, position)),
    write: (data, position) =>
      run("write", () => {
        let done = 0;
        while (done < data.length) done += writeSync(fd, data, done, data.length - done, position + done);
      }),
    sync: () =>
      new Promise((resolve, reject) => fsync(fd, (error) => (error ? reject(mapError(error, "fsync")) : resolve()))),
    stat: () => run("fstat", () => toStat(fstatSync(fd))),
    close: () => {
      if (closed) return Promise.resolve();
      closed = true;
      return run("close", () => closeSync(fd));
    },
  };
}

/**
 * Creates the Node host with synchronous filesystem calls (see the module
 * documentation for the trade-off).
 *
 * Used by `paddock mcp` on Node and Bun; not (yet) a public export.
 *
 * @returns A {@link Host} whose filesystem primitives are synchronous system calls.
 */
export function createNodeSyncHost(): Host {
  const base = createNodeHost();
  return {
    ...base,
    realpath: (path) => run("realpath", () => realpathSync.native(path)),
    lstat: (path) => run("lstat", () => toStat(lstatSync(path))),
    stat: (path) => run("stat", () => toStat(statSync(path))),
    open: (path, options) =>
      run("open", () => {
        // Without O_NOFOLLOW (Windows), refuse a link seen just before opening,
        // as the Node host does; the caller's identity check does the rest.
        if (options.noFollow && constants.O_NOFOLLOW === undefined) {
          let before: ReturnType<typeof lstatSync> | undefined;
          try {
            before = lstatSync(path);
          } catch {
            before = undefined;
          }
          if (before?.isSymbolicLink()) throw new HostError("ELOOP", "open");
        }
        return wrapFd(openSync(path, openFlags(options), options.mode ?? 0o600));
      }),
    openDirectory: (path) => (isWindows ? base.openDirectory(path) : run("open", () => wrapFd(openSync(path, "r")))),
    chmod: (path, mode) => run("chmod", () => chmodSync(path, mode)),
    rename: (from, to) => run("rename", () => renameSync(from, to)),
    unlink: (path) => run("unlink", () => unlinkSync(path)),
    mkdir: (path, mode) => run("mkdir", () => void mkdirSync(path, { mode: mode ?? 0o777 })),
    rmdir: (path) => run("rmdir", () => rmdirSync(path)),
    readdir: (path) =>
      run("readdir", () =>
        readdirSync(path, { withFileTypes: true }).map((entry): HostDirEntry => ({
          name: entry.name,
          kind: kindOf(entry as unknown as Parameters<typeof kindOf>[0]),
        }))),
    readlink: (path) => run("readlink", () => readlinkSync(path)),
  };
}
