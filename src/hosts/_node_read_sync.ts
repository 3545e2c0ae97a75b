/**
 * {@link Host.readSync} on `node:fs`: a small file read in one synchronous
 * step, for the Node and Deno hosts' filesystem.
 *
 * @module
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { Host, HostStat, ReadHead } from "../host.ts";
import type { NativeErrors } from "./_native_errors.ts";
import { openFlags, refuseLinkWithoutNoFollow } from "./_node_open_flags.ts";
import { toStat } from "./_node_stat.ts";
import { procFdFolder } from "./_node_handles.ts";
import { readHeld } from "./_libc_at.ts";
import { fillBuffer, type Filled } from "./_fill_buffer.ts";

/**
 * The largest whole-file read {@link Host.readSync} does in one synchronous
 * step (grep's default bound of 1 MiB, plus the byte that shows growth): a
 * page-cache copy of a few hundred microseconds at most; grep gives the event
 * loop a turn between files.
 */
const READ_SYNC_MAX_BYTES = 1_048_577;

/**
 * The same bound in a grep worker thread, which has no event loop to keep
 * turning: 64 MiB plus one (tens of milliseconds of copying at most, the time
 * an abort may wait for a batch); larger files go through the asynchronous reads.
 */
export const WORKER_READ_SYNC_MAX_BYTES = 67_108_865;
const NOTHING = new Uint8Array(0);

const READ_SYNC_FLAGS = openFlags({ read: true, noFollow: true, nonBlocking: true });

/**
 * Host.readSync: open, fstat, read and close in one synchronous step, with no
 * promise or handle object per file (grep runs it once per file of a walk).
 *
 * @param mapError The host's error mapping.
 * @param maxBytes The largest read done (the buffer `into` gives, the size
 * plus one); a larger file is declined (`null`).
 * @returns The host's `readSync`.
 */
export function readSyncWith(
  mapError: NativeErrors["mapError"],
  maxBytes: number = READ_SYNC_MAX_BYTES,
): NonNullable<Host["readSync"]> {
  return (path, into, head?: ReadHead) => {
    refuseLinkWithoutNoFollow(path, true);
    // A name at a held folder read through libc alone where the runtime reaches it (`_libc_at.ts`); else the steps below.
    const done = readHeld(path, procFdFolder(), READ_SYNC_FLAGS, maxBytes, into, head);
    if (done !== undefined) return done;
    let fd: number;
    try {
      // Here only when libc is not reached, the path is not one name at a held folder, or libc's openat
      // already failed: the runtime's own open, whose error is the one reported.
      fd = openSync(path, READ_SYNC_FLAGS);
    } catch (error) {
      throw mapError(error, "open");
    }
    try {
      let stat: HostStat;
      try {
        stat = toStat(fstatSync(fd));
      } catch (error) {
        throw mapError(error, "fstat");
      }
      // Declined before `into` sees it: the caller's buffer never grows for a file read the long way.
      if (stat.kind === "file" && stat.size >= maxBytes) return null;
      const buffer = into(stat);
      if (buffer === null) return { stat, bytes: NOTHING };
      if (buffer.length > maxBytes) return null;
      let filled: Filled;
      try {
        filled = fillBuffer(
          (into, offset, count) => readSync(fd, into, offset, count, offset),
          buffer,
          stat.size,
          head,
        )!;
      } catch (error) {
        throw mapError(error, "read");
      }
      const bytes = buffer.subarray(0, filled.length);
      return filled.stopped ? { stat, bytes, stopped: true } : { stat, bytes };
    } finally {
      try {
        closeSync(fd);
      } catch {
        // A read-only descriptor: nothing is lost when its close fails.
      }
    }
  };
}
