/**
 * The read loop of {@link Host.readSync}, shared by the libc route
 * (`_libc_at.ts`) and the runtime's own (`_node_read_sync.ts`).
 *
 * @module
 */
import type { ReadHead } from "../host.ts";

/** What {@link fillBuffer} read. */
export interface Filled {
  /** Bytes read, from the file's start. */
  length: number;
  /** Whether `head.stop` ended the read at the head. */
  stopped: boolean;
}

/**
 * Reads a file from its start into `buffer` until the buffer is full or the
 * file ends (nothing more, or a short read that reached `size`, the size its
 * fstat gave). With `head`, a buffer longer than `head.bytes` is read that
 * far first, and `head.stop` may end the read there. Most files take one
 * read (`read` is then called with offset 0 and the whole buffer).
 *
 * @param read Reads `count` bytes at file position `offset` into `buffer` at `offset`: the bytes read, or a negative number on failure.
 * @param buffer Where the bytes go.
 * @param size The file's size by its fstat.
 * @param head A look at the first bytes of a long read.
 * @returns What was read, or `null` when a read failed.
 */
export function fillBuffer(
  read: (buffer: Uint8Array, offset: number, count: number) => number,
  buffer: Uint8Array,
  size: number,
  head: ReadHead | undefined,
): Filled | null {
  let look = head !== undefined && buffer.length > head.bytes ? head.bytes : -1;
  let length = 0;
  while (length < buffer.length) {
    const wanted = (look > length ? look : buffer.length) - length;
    const count = read(buffer, length, wanted);
    if (count < 0) return null;
    length += count;
    if (length === look) {
      look = -1;
      if (head!.stop(buffer.subarray(0, length))) return { length, stopped: true };
      continue;
    }
    // The end: nothing more, or a short read that reached the size fstat gave.
    if (count === 0 || (count < wanted && length >= size)) break;
  }
  return { length, stopped: false };
}
