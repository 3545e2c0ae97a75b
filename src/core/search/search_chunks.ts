/**
 * A large file searched a part at a time, so a search holds about
 * {@link GREP_READ_CHUNK_BYTES} of it (and its longest line) however large it
 * is: the same results as searching it whole.
 *
 * @module
 */
import type { ByteSearch, HostFile } from "../../host.ts";
import { GREP_BINARY_SNIFF_BYTES } from "../limits.ts";
import { mayMatch, searchRegion, TextRegion, type TextSearchOutcome, type TextSearchRequest } from "./search_text.ts";

const NEWLINE = 0x0a;
const TOO_LARGE: { tooLarge: true } = Object.freeze({ tooLarge: true });
const STOPPED: { stopped: true } = Object.freeze({ stopped: true });
// Bytes asked for in one read: the size a host reads synchronously, straight into the buffer (Node's
// thread pool and Deno's `node:fs` took larger ones the long way: on Deno a copy per read, whose garbage
// held 30 MB more at the peak of a kernel-tree search than reading each file whole).
const READ_BYTES = 65_536;

/**
 * What {@link searchInChunks} found: as {@link TextSearchOutcome}, or that the
 * file grew past the bound, or that `stop` ended the search (nothing found is returned then).
 */
export type ChunkedSearchOutcome = TextSearchOutcome | { tooLarge: true } | { stopped: true };

// Spare part buffers per byte search (one per thread and host), reused file after file. Several, since
// one thread may search large files side by side, each waiting at its reads: a Deno grep worker did
// (its batches interleaved, before they were queued), and with one spare it made about 50 buffers of
// 1 MiB per kernel-tree search, whose memory its malloc arena kept after the collector freed them.
const spares = new WeakMap<ByteSearch, Uint8Array[]>();
// Spares kept per byte search: more files than this at once make buffers the collector takes.
const SPARES_KEPT = 4;

/**
 * Searches an open file from its start in parts of `chunkBytes`, each cut
 * after its last line ending (a line longer than a part grows the buffer to
 * hold it). A part's last `context` lines wait for the next part (content
 * mode), so a match among them gets its lines after; the `context` lines
 * before a part are kept in front of it. A NUL in the first
 * {@link GREP_BINARY_SNIFF_BYTES}, read first, makes the file binary. In
 * content mode the file is first read through for the matcher's required
 * text alone, and only a file holding it is read again with its lines
 * counted (most large files of a search lack it).
 *
 * @param file The open file (not closed here).
 * @param request The matcher, the mode and the bounds.
 * @param search The byte search (its `alloc` makes the buffer).
 * @param maxBytes A file that grew past this while read is too large.
 * @param chunkBytes The bytes read at a time (at least {@link GREP_BINARY_SNIFF_BYTES}).
 * @param stop Asked before each part is read: `true` ends the search (its caller no longer wants the outcome). @default undefined
 * @returns What the whole file's search returns.
 * @throws {HostError} From a read.
 */
export async function searchInChunks(
  file: HostFile,
  request: TextSearchRequest,
  search: ByteSearch,
  maxBytes: number,
  chunkBytes: number,
  stop?: () => boolean,
): Promise<ChunkedSearchOutcome> {
  const size = Math.max(chunkBytes, GREP_BINARY_SNIFF_BYTES);
  const spare = spares.get(search)?.pop();
  const buffer = spare?.length === size ? spare : allocate(search, size);
  const parts = new Parts(file, search, buffer, maxBytes, stop ?? never);
  try {
    if (await parts.binary()) return { binary: true, matches: [], count: 0 };
    if (request.outputMode === "content" && request.matcher.prefilter.kind !== "none") {
      const held = await parts.anyMayMatch(request);
      if (held !== true) return held === false ? { matches: [], count: 0 } : held;
      parts.rewind();
    }
    return await parts.searchAll(request);
  } finally {
    if (parts.buffer.length === size) {
      const kept = spares.get(search);
      if (kept === undefined) spares.set(search, [parts.buffer]);
      else if (kept.length < SPARES_KEPT) kept.push(parts.buffer);
    }
  }
}

const never = () => false;

function allocate(search: ByteSearch, size: number): Uint8Array {
  return search.alloc?.(size) ?? new Uint8Array(size);
}

// A file read from its start into a buffer, a part at a time.
class Parts {
  // Bytes in the buffer; the file's offset of the buffer's end.
  length = 0;
  position = 0;
  ended = false;

  constructor(
    readonly file: HostFile,
    readonly byteSearch: ByteSearch,
    public buffer: Uint8Array,
    readonly maxBytes: number,
    readonly stop: () => boolean,
  ) {}

  // Reads until the buffer holds `until` bytes or the file ends.
  async fill(until: number): Promise<void> {
    while (this.length < until) {
      const end = Math.min(until, this.length + READ_BYTES);
      const read = await this.file.read(this.buffer.subarray(this.length, end), this.position);
      if (read === 0) {
        this.ended = true;
        return;
      }
      this.length += read;
      this.position += read;
    }
  }

  // Whether the file's first bytes hold a NUL: only those are read.
  async binary(): Promise<boolean> {
    await this.fill(GREP_BINARY_SNIFF_BYTES);
    return this.byteSearch.view(this.buffer.subarray(0, this.length)).indexOf(0, 0) >= 0;
  }

  // Back to the file's start, the buffer emptied.
  rewind(): void {
    this.length = 0;
    this.position = 0;
    this.ended = false;
  }

  // Fills the buffer: why the search ends here (the file grew past the bound, or `stop`), or null.
  async next(): Promise<{ tooLarge: true } | { stopped: true } | null> {
    if (this.stop()) return STOPPED;
    if (!this.ended) await this.fill(this.buffer.length);
    return this.position <= this.maxBytes ? null : TOO_LARGE;
  }

  // Where the whole lines in the buffer end (at the file's end, its end).
  wholeLines(): number {
    return this.ended ? this.length : this.buffer.lastIndexOf(NEWLINE, this.length - 1) + 1;
  }

  // A buffer twice as large (up to the bound) holding the same bytes: `false` past the bound.
  grow(): boolean {
    const larger = allocate(this.byteSearch, Math.min(this.buffer.length * 2, this.maxBytes + 1));
    if (larger.length <= this.buffer.length) return false;
    larger.set(this.buffer.subarray(0, this.length));
    this.buffer = larger;
    return true;
  }

  // Drops the buffer's first `bytes`.
  drop(bytes: number): void {
    this.buffer.copyWithin(0, bytes, this.length);
    this.length -= bytes;
  }

  // Reads the file through (from where `binary` left it) for the matcher's required text: whether a part holds it.
  async anyMayMatch(request: TextSearchRequest): Promise<boolean | { tooLarge: true } | { stopped: true }> {
    for (;;) {
      const ending = await this.next();
      if (ending !== null) return ending;
      const end = this.wholeLines();
      if (end === 0 && !this.ended) {
        if (!this.grow()) return TOO_LARGE;
        continue;
      }
      const part = this.buffer.subarray(0, end);
      if (mayMatch(part, this.byteSearch.view(part), request.matcher, 0, end)) return true;
      if (this.ended) return false;
      this.drop(end);
    }
  }

  // The search, part after part, from the file's start.
  async searchAll(request: TextSearchRequest): Promise<ChunkedSearchOutcome> {
    const content = request.outputMode === "content";
    const context = content ? request.context : 0;
    // The buffer's first bytes already searched, kept as context before the rest, and their lines.
    let kept = 0;
    let keptLines = 0;
    // Lines of the file before the buffer's first one.
    let lineBase = 0;
    const matches: TextSearchOutcome["matches"] = [];
    let count = 0;
    for (;;) {
      const ending = await this.next();
      if (ending !== null) return ending;
      const buffer = this.buffer;
      // The part's last `context` lines wait for the lines after them.
      const end = this.wholeLines();
      const to = this.ended ? end : lineStartBefore(buffer, end, context);
      if (to <= kept) {
        if (this.ended) return { matches, count };
        // No whole line to search yet (a line longer than the buffer): grow it, up to the bound.
        if (!this.grow()) return TOO_LARGE;
        continue;
      }
      // Lines searched: their line endings, and the file's last line when it has none.
      const lines = content ? countLines(buffer, kept, to) + (buffer[to - 1] === NEWLINE ? 0 : 1) : Infinity;
      const part = buffer.subarray(0, end);
      const region = new TextRegion(kept, to, keptLines, lines, lineBase, this.position === this.length);
      const found = searchRegion(part, this.byteSearch.view(part), request, region, request.cap - matches.length);
      count += found.count;
      for (const match of found.matches) matches.push(match);
      if (this.ended || (request.outputMode === "files_with_matches" && count > 0)) return { matches, count };
      // What stays: the `context` lines before `to` (context for the next part), then the rest.
      const keep = lineStartBefore(buffer, to, context);
      if (content) {
        const stay = countLines(buffer, keep, to);
        lineBase += keptLines + lines - stay;
        keptLines = stay;
      }
      this.drop(keep);
      kept = to - keep;
    }
  }
}

// Line endings from `from` up to `to`.
function countLines(bytes: Uint8Array, from: number, to: number): number {
  let lines = 0;
  for (let i = from; i < to; i++) if (bytes[i] === NEWLINE) lines++;
  return lines;
}

// The start of the line `lines` lines before the line start `at`.
function lineStartBefore(bytes: Uint8Array, at: number, lines: number): number {
  for (let i = 0; i < lines && at > 0; i++) at = at >= 2 ? bytes.lastIndexOf(NEWLINE, at - 2) + 1 : 0;
  return at;
}
