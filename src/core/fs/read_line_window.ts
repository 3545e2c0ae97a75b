import type { HostFile } from "../../host.ts";
import { readFully } from "./open_checked_file.ts";
import { utf8BoundaryAtOrBefore } from "../text/utf8.ts";

/** What {@link readLineWindow} reads. */
export interface LineWindowRequest {
  /** The first line wanted, 1-based. */
  offset: number;
  /** Lines wanted at most, or `undefined` for "as many as fit". */
  limit: number | undefined;
  /** Bytes returned at most. */
  maxBytes: number;
  /** Bytes read per step. */
  chunkBytes: number;
  /** Bytes one call reads at most, from the file's start: the window must start within them, and every scan ends there. */
  maxScanBytes: number;
  /** Scan to the end (at most this many bytes in all) to count lines, or 0 not to count. */
  countLinesMaxBytes: number;
  /** Checked between reads. */
  signal?: AbortSignal;
}

/** A window of whole lines. */
export interface LineWindow {
  /** The window's bytes (whole lines, or one line cut on a character boundary when `lineCut`). */
  bytes: Uint8Array;
  /** The first line of the window (the requested offset). */
  startLine: number;
  /** The last line in the window; `startLine - 1` when the window is empty. */
  endLine: number;
  /** All lines in the file, when the whole file was scanned. */
  totalLines?: number;
  /** Whether lines follow the window. */
  hasMore: boolean;
  /** Whether the single line of the window was longer than `maxBytes` and was cut. */
  lineCut: boolean;
  /** `true` when the offset's line does not start within `maxScanBytes`. */
  beyondScan: boolean;
  /**
   * `true` when the read stopped at `maxScanBytes` after the window's start
   * (a file longer than that, or one that kept growing while it was read):
   * the window holds what was read by then, `hasMore` is true.
   */
  scanLimitReached: boolean;
  /** Bytes read from the file's start. */
  scannedBytes: number;
}

const NEWLINE = 0x0a;

/**
 * Reads a window of lines from an open file in chunks, never holding more than
 * `maxBytes` plus one chunk: the file is scanned from the start (lines have no
 * index) until line `offset`, then whole lines are kept while they fit in
 * `maxBytes` and `limit`. A line is what ends in `\n` (a `\r` before it stays
 * in the content), plus a final line without one.
 *
 * Bounded whatever the file: the read stops as soon as the window is full —
 * `limit` lines, or `maxBytes` read past the window's start (a longer line
 * then comes back cut, and the rest of it is never read) — or once the lines
 * are counted up to `countLinesMaxBytes`; and never reads past `maxScanBytes`
 * (`beyondScan` when the window's line starts later, `scanLimitReached` when
 * the read ended there), so neither a 100 GiB line nor a file that keeps
 * growing keeps a call going.
 *
 * @param file An open regular file.
 * @param request Offset, limit and bounds.
 * @returns The window.
 */
export async function readLineWindow(file: HostFile, request: LineWindowRequest): Promise<LineWindow> {
  const { offset, limit, maxBytes, chunkBytes, maxScanBytes, countLinesMaxBytes, signal } = request;
  // Four bytes of room past maxBytes, to find a character boundary when one line is cut.
  const window = new Uint8Array(maxBytes + 4);
  const chunk = new Uint8Array(chunkBytes);
  let position = 0; // absolute offset of `chunk`
  let newlines = 0; // newlines seen so far: line k ends at the k-th newline
  let lastByte = -1;
  let windowStart = offset === 1 ? 0 : -1; // absolute start of line `offset`, once found
  let windowEnd = windowStart; // absolute end of the last whole line kept
  let endLine = offset - 1;
  let collecting = true;
  let fileEnd = -1; // known once the end of the file was read
  let scanLimitReached = false;

  for (;;) {
    if (windowStart < 0 && position >= maxScanBytes) return beyondScan(offset, position);
    if (position >= maxScanBytes) {
      // The scan bound, after the window's start: what was read is the answer.
      scanLimitReached = collecting;
      collecting = false;
      break;
    }
    const count = await readFully(file, chunk, position, signal);
    const data = chunk.subarray(0, count);
    // Keep the bytes of the window that fall in this chunk.
    if (collecting && windowStart >= 0) copyInto(window, data, position, windowStart);
    for (let index = data.indexOf(NEWLINE); index >= 0; index = data.indexOf(NEWLINE, index + 1)) {
      newlines++;
      const lineEnd = position + index + 1;
      if (windowStart < 0) {
        if (newlines + 1 === offset) {
          if (lineEnd >= maxScanBytes) return beyondScan(offset, position + count);
          windowStart = windowEnd = lineEnd;
          copyInto(window, data.subarray(index + 1), lineEnd, windowStart);
        }
        continue;
      }
      if (!collecting || newlines < offset) continue;
      if (lineEnd - windowStart <= maxBytes) {
        endLine = newlines;
        windowEnd = lineEnd;
        if (limit !== undefined && endLine - offset + 1 >= limit) collecting = false;
      } else {
        collecting = false; // this line does not fit
      }
    }
    if (count > 0) lastByte = data[count - 1];
    position += count;
    if (count < chunk.length) {
      fileEnd = position;
      break;
    }
    // Every later line ends past `position`, more than maxBytes after the window's
    // start: none can fit, so the window is full (the rest of a long line is never read).
    if (collecting && windowStart >= 0 && position - windowStart > maxBytes) collecting = false;
    if (!collecting) {
      // The window is complete: count the rest only when the file is small enough.
      if (countLinesMaxBytes === 0 || position >= countLinesMaxBytes) break;
    }
  }

  const totalLines = fileEnd >= 0 ? newlines + (fileEnd > 0 && lastByte !== NEWLINE ? 1 : 0) : undefined;
  if (windowStart < 0) {
    // The file ends before line `offset`.
    return {
      bytes: new Uint8Array(0),
      startLine: offset,
      endLine,
      totalLines,
      hasMore: false,
      lineCut: false,
      beyondScan: false,
      scanLimitReached: false,
      scannedBytes: position,
    };
  }
  if (collecting && fileEnd > windowEnd) {
    // A final line without a newline.
    if (fileEnd - windowStart <= maxBytes) {
      endLine = newlines + 1;
      windowEnd = fileEnd;
    }
  }
  let lineCut = false;
  let length = windowEnd - windowStart;
  if (endLine < offset && (fileEnd < 0 || fileEnd > windowStart)) {
    // Line `offset` alone is longer than maxBytes (or than what the scan bound
    // let be read): return its start, cut on a character boundary.
    lineCut = true;
    endLine = offset;
    const held = Math.min(position - windowStart, maxBytes + 4);
    length = held > maxBytes
      ? utf8BoundaryAtOrBefore(window.subarray(0, maxBytes + 1), maxBytes)
      : utf8BoundaryAtOrBefore(window.subarray(0, held), Math.max(0, held - 1));
  }
  let hasMore: boolean;
  if (totalLines !== undefined) hasMore = endLine < totalLines;
  else if (lineCut || scanLimitReached) hasMore = true; // the rest was not looked at
  else hasMore = windowEnd < position || await file.read(new Uint8Array(1), windowEnd) > 0;
  return {
    bytes: window.subarray(0, length),
    startLine: offset,
    endLine,
    totalLines,
    hasMore,
    lineCut,
    beyondScan: false,
    scanLimitReached,
    scannedBytes: position,
  };
}

function beyondScan(offset: number, scannedBytes: number): LineWindow {
  return {
    bytes: new Uint8Array(0),
    startLine: offset,
    endLine: offset - 1,
    hasMore: true,
    lineCut: false,
    beyondScan: true,
    scanLimitReached: true,
    scannedBytes,
  };
}

// Copies the part of `data` (at absolute `dataStart`) that belongs to the
// window (which starts at absolute `windowStart` and holds `window.length`).
function copyInto(window: Uint8Array, data: Uint8Array, dataStart: number, windowStart: number): void {
  const from = Math.max(0, windowStart - dataStart);
  const at = dataStart + from - windowStart;
  const room = window.length - at;
  if (room <= 0 || from >= data.length) return;
  window.set(data.subarray(from, from + room), at);
}
