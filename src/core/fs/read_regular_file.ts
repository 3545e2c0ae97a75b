import type { Host, HostFile, HostStat, ReadHead } from "../../host.ts";

/** What reading a file for a search needs of a host (a grep worker thread has just this). */
export type FileReadHost = Pick<Host, "open" | "readSync" | "byteSearch">;
import { type Identity, sameIdentity } from "./same_identity.ts";

/** What {@link readRegularFile} found. */
export type RegularFileRead =
  /** The whole file. */
  | { kind: "read"; bytes: Uint8Array }
  /** The file's first bytes only: `head.stop` said no more were needed. */
  | { kind: "head"; bytes: Uint8Array }
  /** A regular file larger than the bound; nothing was read. */
  | { kind: "too-large"; size: number }
  /** Not a regular file (a folder, a device, a FIFO); nothing was read. */
  | { kind: "not-a-file" }
  /** The opened file is not the `expected` one (swapped since it was checked); nothing was read. */
  | { kind: "changed" };

/**
 * Reads a whole regular file of at most `maxBytes` bytes, for searching.
 *
 * The open refuses a final symbolic link (no-follow) and never blocks on a
 * FIFO or device (non-blocking); the opened handle itself must be a regular
 * file (fstat), so a file swapped for something else after a walk listed it is
 * not read. At most `maxBytes + 1` bytes are read: a file that grew past the
 * bound is reported as too large. With `head`, a file longer than
 * `head.bytes` is read that far first, and `head.stop` may end the read
 * there (grep reads no more of a binary file).
 *
 * @param host The host.
 * @param hostPath The file's absolute host path.
 * @param maxBytes The largest size read.
 * @param expected The identity a confined walk checked, when there is one: the handle must match it.
 * @param head A look at a long file's first bytes before the rest is read. @default undefined
 * @returns The bytes, or why they were not read.
 * @throws {HostError} From `open` (`ELOOP` for a link, `ENOENT`, …) or `read`.
 */
export async function readRegularFile(
  host: FileReadHost,
  hostPath: string,
  maxBytes: number,
  expected?: Identity,
  head?: ReadHead,
): Promise<RegularFileRead> {
  const opened = await openRegularFile(host, hostPath, maxBytes, expected);
  if (opened.kind !== "open") return opened;
  try {
    return await readOpenedFile(opened.file, opened.stat, maxBytes, head);
  } finally {
    await opened.file.close().catch(() => {});
  }
}

/** What {@link openRegularFile} found: the file, open, or why it is not to be read (nothing open then). */
export type OpenedRegularFile =
  | { kind: "open"; file: HostFile; stat: HostStat }
  | Exclude<RegularFileRead, { kind: "read" } | { kind: "head" }>;

/**
 * The checks of {@link readRegularFile} on the opened handle, before
 * anything is read: opened no-follow and non-blocking, a regular file, the
 * `expected` one when given, at most `maxBytes` by its fstat.
 *
 * @param host The host.
 * @param hostPath The file's absolute host path.
 * @param maxBytes The largest size read.
 * @param expected The identity a confined walk checked, when there is one.
 * @returns The open file and its metadata (the caller closes it), or why it is not read (it is closed).
 * @throws {HostError} From `open` or `fstat`.
 */
export async function openRegularFile(
  host: Pick<Host, "open">,
  hostPath: string,
  maxBytes: number,
  expected?: Identity,
): Promise<OpenedRegularFile> {
  const file = await host.open(hostPath, { read: true, noFollow: true, nonBlocking: true });
  let verdict: OpenedRegularFile;
  try {
    const stat = await file.stat();
    if (stat.kind !== "file") verdict = { kind: "not-a-file" };
    else if (expected !== undefined && !sameIdentity(stat, expected)) verdict = { kind: "changed" };
    else if (stat.size > maxBytes) verdict = { kind: "too-large", size: stat.size };
    else return { kind: "open", file, stat };
  } catch (error) {
    await file.close().catch(() => {});
    throw error;
  }
  await file.close().catch(() => {});
  return verdict;
}

/**
 * The read of {@link readRegularFile}, once {@link openRegularFile}'s checks
 * passed: at most `maxBytes + 1` bytes, from the start.
 *
 * @param file The open file (not closed here).
 * @param stat Its metadata.
 * @param maxBytes The largest size read.
 * @param head A look at a long file's first bytes before the rest is read.
 * @returns The bytes, or why they were not read.
 * @throws {HostError} From `read`.
 */
export async function readOpenedFile(
  file: HostFile,
  stat: HostStat,
  maxBytes: number,
  head: ReadHead | undefined,
): Promise<RegularFileRead> {
  let length = 0;
  let first: Uint8Array | undefined;
  if (head !== undefined && stat.size >= head.bytes) {
    // The head alone first, so a file that ends here never gets its whole buffer.
    first = new Uint8Array(head.bytes);
    while (length < first.length) {
      const count = await file.read(first.subarray(length), length);
      if (count === 0) break;
      length += count;
    }
    if (length === first.length && head.stop(first)) return { kind: "head", bytes: first };
  }
  let buffer = new Uint8Array(Math.max(Math.min(stat.size, maxBytes) + 1, length + 1));
  if (first !== undefined) buffer.set(first.subarray(0, length));
  for (;;) {
    if (length === buffer.length) {
      // The file grew while it was read: past the bound it is too large, else read on.
      if (length > maxBytes) return { kind: "too-large", size: length };
      const larger = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
      larger.set(buffer);
      buffer = larger;
    }
    const wanted = buffer.length - length;
    const count = await file.read(buffer.subarray(length), length);
    length += count;
    if (count === 0) break;
    // A short read that reached the size fstat gave is the end: one call
    // fewer per file than reading until 0 (a host reading in chunks still
    // gets asked again).
    if (count < wanted && length >= stat.size) break;
  }
  return { kind: "read", bytes: buffer.subarray(0, length) };
}

/**
 * {@link readRegularFile} in one synchronous step, on a host that has
 * {@link Host.readSync}: the same checks in the same order (a regular file,
 * then the size bound, both on the opened handle before anything is read),
 * for files a walk listed (no `expected` identity: a file named directly
 * goes through {@link readRegularFile}). The file is read into `scratch.buffer`,
 * which grows (to a power of two) when a file does not fit, so the bytes
 * returned are a view of it, valid until its next use.
 *
 * @param host The host.
 * @param hostPath The file's absolute host path.
 * @param maxBytes The largest size read.
 * @param scratch The buffer to reuse (replaced by a larger one when needed).
 * @param head A look at a long file's first bytes before the rest is read. @default undefined
 * @param wholeBelow A regular file this size or larger is declined (`null`), unread. @default Infinity
 * @returns What {@link readRegularFile} returns, or `null` when the host has no
 * synchronous read or declines this file (large, or grown while read), or it
 * is `wholeBelow` bytes or more: use {@link readRegularFile}.
 * @throws {HostError} From the host's open, fstat or read.
 */
export function readRegularFileSync(
  host: FileReadHost,
  hostPath: string,
  maxBytes: number,
  scratch: { buffer: Uint8Array },
  head?: ReadHead,
  wholeBelow: number = Number.POSITIVE_INFINITY,
): RegularFileRead | null {
  if (host.readSync === undefined) return null;
  let verdict = null as RegularFileRead | null;
  let declined = false;
  // The head alone, read into the buffer as it is: a file that does not fit it grows it only once its
  // head shows it is not binary (a grep worker met a 10 MB binary file on every call, and each time
  // made a buffer that large, a new one per search, just to read its first 64 KiB).
  let headOnly = false;
  const done = host.readSync(hostPath, (stat) => {
    if (stat.kind !== "file") verdict = { kind: "not-a-file" };
    else if (stat.size > maxBytes) verdict = { kind: "too-large", size: stat.size };
    if (verdict !== null) return null;
    if (stat.size >= wholeBelow) {
      declined = true;
      return null;
    }
    // One byte more than fstat's size, to see a file that grew since.
    const wanted = stat.size + 1;
    if (wanted > scratch.buffer.length) {
      if (head !== undefined && scratch.buffer.length >= head.bytes) {
        headOnly = true;
        return scratch.buffer.subarray(0, head.bytes);
      }
      scratch.buffer = grownScratch(host, wanted);
    }
    return scratch.buffer.subarray(0, wanted);
  }, head);
  if (done === null || declined) return null;
  if (verdict !== null) return verdict;
  if (headOnly) {
    // Shorter than its fstat said: the file shrank, and this is all of it.
    if (done.bytes.length < head!.bytes) return { kind: "read", bytes: done.bytes };
    if (head!.stop(done.bytes)) return { kind: "head", bytes: done.bytes };
    // Not binary: read it whole (opened again, once per growth of the buffer in a search).
    scratch.buffer = grownScratch(host, done.stat.size + 1);
    return readRegularFileSync(host, hostPath, maxBytes, scratch);
  }
  if (done.stopped === true) return { kind: "head", bytes: done.bytes };
  if (done.bytes.length > done.stat.size) {
    // The file grew while it was read: past the bound it is too large; else read it again the long way.
    return done.bytes.length > maxBytes ? { kind: "too-large", size: done.bytes.length } : null;
  }
  return { kind: "read", bytes: done.bytes };
}

/** The size a search's read buffer starts at ({@link scratchBytes}); it grows for a larger file. */
export const SCRATCH_BYTES = 65_536;

/**
 * A read buffer for {@link readRegularFileSync}: the host's native bytes
 * (`alloc` of its {@link Host.byteSearch}) where it has them, so a search of what is read
 * into it makes no view per file.
 *
 * @param host The host.
 * @param size Its size.
 * @returns Zeroed bytes.
 */
export function scratchBytes(host: FileReadHost, size: number): Uint8Array {
  return host.byteSearch?.alloc?.(size) ?? new Uint8Array(size);
}

/**
 * A search's reused read buffer ({@link readRegularFileSync} grows it): a
 * class, so every search's has the same shape from the first call on (why:
 * docs/contributing.md, "On grep's path").
 */
export class Scratch {
  /** @param buffer The buffer, {@link scratchBytes} or empty. */
  constructor(public buffer: Uint8Array) {}
}

// A scratch buffer grown to hold `bytes`: the next power of two, so a search grows it a few times at most.
function grownScratch(host: FileReadHost, bytes: number): Uint8Array {
  return scratchBytes(host, 2 ** Math.ceil(Math.log2(bytes)));
}
