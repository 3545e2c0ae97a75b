/**
 * A large file searched a part at a time, so a search holds about
 * {@link GREP_READ_CHUNK_BYTES} of it (and its longest line) however large it
 * is: the same results as searching it whole.
 *
 * @module
 */
import type { ByteSearch, HostFile } from "../../host.ts";
import { GREP_BINARY_SNIFF_BYTES } from "../limits.ts";
import { searchRegion, TextRegion, type TextSearchOutcome, type TextSearchRequest } from "./search_text.ts";

const NEWLINE = 0x0a;

/** What {@link searchInChunks} found: as {@link TextSearchOutcome}, or that the file grew past the bound. */
export type ChunkedSearchOutcome = TextSearchOutcome | { tooLarge: true };

/**
 * Searches an open file from its start in parts of `chunkBytes`, each cut
 * after its last line ending (a line longer than a part grows the buffer to
 * hold it). A part's last `context` lines wait for the next part (content
 * mode), so a match among them gets its lines after; the `context` lines
 * before a part are kept in front of it. A NUL in the first
 * {@link GREP_BINARY_SNIFF_BYTES}, read first, makes the file binary.
 *
 * @param file The open file (not closed here).
 * @param request The matcher, the mode and the bounds.
 * @param search The byte search.
 * @param maxBytes A file that grew past this while read is too large.
 * @param chunkBytes The bytes read at a time. @default GREP_READ_CHUNK_BYTES
 * @param alloc Makes the buffer (a host's native bytes). @default new Uint8Array
 * @returns What the whole file's search returns.
 * @throws {HostError} From a read.
 */
export async function searchInChunks(
  file: HostFile,
  request: TextSearchRequest,
  search: ByteSearch,
  maxBytes: number,
  chunkBytes: number,
  alloc: (size: number) => Uint8Array = (size) => new Uint8Array(size),
): Promise<ChunkedSearchOutcome> {
  const content = request.outputMode === "content";
  const context = content ? request.context : 0;
  let buffer = alloc(Math.max(chunkBytes, GREP_BINARY_SNIFF_BYTES));
  // Bytes in the buffer; the file's offset of its end; of its start.
  let length = 0;
  let position = 0;
  // The buffer's first bytes already searched, kept as context before the rest, and their lines.
  let kept = 0;
  let keptLines = 0;
  // Lines of the file before the buffer's first one.
  let lineBase = 0;
  let ended = false;
  const matches: TextSearchOutcome["matches"] = [];
  let count = 0;

  const fill = async (until: number) => {
    while (length < until) {
      const read = await file.read(buffer.subarray(length, until), position);
      if (read === 0) {
        ended = true;
        return;
      }
      length += read;
      position += read;
    }
  };

  await fill(GREP_BINARY_SNIFF_BYTES);
  if (search.view(buffer.subarray(0, length)).indexOf(0, 0) >= 0) return { binary: true, matches: [], count: 0 };
  for (;;) {
    if (!ended) await fill(buffer.length);
    if (position > maxBytes) return { tooLarge: true };
    // The part's lines end at its last line ending (at the file's end, with it); its last `context` lines
    // wait for the lines after them.
    const end = ended ? length : buffer.lastIndexOf(NEWLINE, length - 1) + 1;
    const to = ended ? end : lineStartBefore(buffer, end, context, 0);
    if (to <= kept && !ended) {
      // No whole line to search yet (a line longer than the buffer): grow it, up to the bound.
      const larger = alloc(Math.min(buffer.length * 2, maxBytes + 1));
      if (larger.length <= buffer.length) return { tooLarge: true };
      larger.set(buffer.subarray(0, length));
      buffer = larger;
      continue;
    }
    if (to <= kept) return { matches, count };
    // Lines searched: their line endings, and the file's last line when it has none.
    const lines = content
      ? countLines(buffer, kept, to) + (buffer[to - 1] === NEWLINE ? 0 : 1)
      : Number.POSITIVE_INFINITY;
    const part = buffer.subarray(0, end);
    const region = new TextRegion(kept, to, keptLines, lines, lineBase, position - length === 0);
    const found = searchRegion(part, search.view(part), request, region, request.cap - matches.length);
    count += found.count;
    for (const match of found.matches) matches.push(match);
    if (ended || (request.outputMode === "files_with_matches" && count > 0)) return { matches, count };
    // What stays: the `context` lines before `to` (context for the next part), then the rest.
    const keep = lineStartBefore(buffer, to, context, 0);
    if (content) {
      const stay = countLines(buffer, keep, to);
      lineBase += keptLines + lines - stay;
      keptLines = stay;
    }
    buffer.copyWithin(0, keep, length);
    length -= keep;
    kept = to - keep;
  }
}

// Line endings from `from` up to `to`.
function countLines(bytes: Uint8Array, from: number, to: number): number {
  let lines = 0;
  for (let i = from; i < to; i++) if (bytes[i] === NEWLINE) lines++;
  return lines;
}

// The start of the line `lines` lines before the line start `at`, not before `floor`.
function lineStartBefore(bytes: Uint8Array, at: number, lines: number, floor: number): number {
  for (let i = 0; i < lines && at > floor; i++) at = at >= 2 ? bytes.lastIndexOf(NEWLINE, at - 2) + 1 : 0;
  return Math.max(at, floor);
}
