/**
 * `node:fs` descriptors and file handles as the host seam's {@link HostFile}
 * and {@link HostDir}, for the Node and Deno hosts' filesystem.
 *
 * @module
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsync as fsyncCallback,
  openSync,
  type promises as fsp,
  read as readCallback,
  readlinkSync,
  readSync,
  writeSync,
} from "node:fs";
import { type HostDir, HostError, type HostFile } from "../host.ts";
import type { NativeErrors } from "./_native_errors.ts";
import { toStat } from "./_node_stat.ts";
import { openAtHeld, statHeld } from "./_libc_at.ts";

// A folder held open: read-only, O_DIRECTORY (a FIFO, device or file fails
// with ENOTDIR instead of blocking or opening), O_NOFOLLOW (a link fails with
// ELOOP), O_NONBLOCK for good measure.
const DIR_FLAGS = constants.O_RDONLY | (constants.O_DIRECTORY ?? 0) | (constants.O_NOFOLLOW ?? 0) |
  (constants.O_NONBLOCK ?? 0);

/**
 * A synchronous read larger than this goes through the thread pool instead,
 * so a cold disk cannot stall the event loop for long; smaller ones are a
 * page-cache copy of microseconds.
 */
const SYNC_READ_MAX_BYTES = 65_537;

let procFd: string | undefined;

/**
 * Where this process's descriptors are in `/proc`: `/proc/<pid>/fd/`, by the
 * number `/proc/self` links to (the number as that procfs sees it, in a PID
 * namespace too; fixed for the process's life). A lookup through it follows
 * one link fewer than through `/proc/self/fd/` (an open of a name at a held
 * folder: about 0.6 of 5 µs here). `/proc/self/fd/` when the link cannot be
 * read.
 *
 * @returns The folder, with its trailing slash.
 */
export function procFdFolder(): string {
  if (procFd === undefined) {
    let pid = "";
    try {
      pid = readlinkSync("/proc/self");
    } catch {
      // Not readable here (e.g. a permission model): the longer route.
    }
    procFd = /^[1-9][0-9]{0,9}$/.test(pid) ? `/proc/${pid}/fd/` : "/proc/self/fd/";
  }
  return procFd;
}

/** The handle wrappers of {@link nodeHandles}. */
export interface NodeHandles {
  /** A descriptor as a {@link HostFile}, writable or not. */
  wrapFd(fd: number, writable: boolean): HostFile;
  /** A `node:fs` promise `FileHandle` as a {@link HostFile}. */
  wrapHandle(handle: fsp.FileHandle): HostFile;
  /** Opens a folder and holds it as a {@link HostDir}. */
  openDir(path: string): Promise<HostDir>;
}

/**
 * The handle wrappers of a host's `node:fs` primitives.
 *
 * @param errors The host's error mapping.
 * @param procfs Whether `/proc/self/fd/<fd>` names a held descriptor (Linux); a held folder is then
 * reached by {@link procFdFolder}.
 * @returns The wrappers.
 */
export function nodeHandles(errors: NativeErrors, procfs: boolean): NodeHandles {
  const { mapError, call, callSync } = errors;

  const fsyncFd = (fd: number): Promise<void> =>
    new Promise((resolve, reject) => {
      fsyncCallback(fd, (error) => (error ? reject(mapError(error, "fsync")) : resolve()));
    });

  // A descriptor as a HostFile: reads synchronous while small, writes
  // synchronous in `sync` mode (else through the thread pool), fsync always
  // asynchronous.
  const wrapFd = (fd: number, writable: boolean): HostFile => {
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
      write: (data, position) => {
        if (!writable) return Promise.reject(new HostError("EINVAL", "write"));
        return callSync("write", () => {
          let done = 0;
          while (done < data.length) done += writeSync(fd, data, done, data.length - done, position + done);
        });
      },
      sync: () => fsyncFd(fd),
      stat: () => callSync("fstat", () => toStat(fstatSync(fd))),
      chmod: (mode) => callSync("fchmod", () => fchmodSync(fd, mode)),
      close: () => {
        if (closed) return Promise.resolve();
        closed = true;
        return callSync("close", () => closeSync(fd));
      },
    };
  };

  const wrapHandle = (handle: fsp.FileHandle): HostFile => {
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
  };

  const openDir = (path: string): Promise<HostDir> =>
    callSync("open", () => {
      const fd = procfs ? openAtHeld(path, procFdFolder(), DIR_FLAGS) : openSync(path, DIR_FLAGS);
      let closed = false;
      return {
        at: procfs ? `${procFdFolder()}${fd}` : null,
        stat: () => callSync("fstat", () => statHeld(fd) ?? toStat(fstatSync(fd))),
        sync: () => fsyncFd(fd),
        close: () => {
          if (closed) return Promise.resolve();
          closed = true;
          return callSync("close", () => closeSync(fd));
        },
      };
    });

  return { wrapFd, wrapHandle, openDir };
}
