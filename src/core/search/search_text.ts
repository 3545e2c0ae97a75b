import { type ByteSearch, type ByteView, findFolded, findNeedle, type Needle, needleOf } from "./byte_search.ts";
import { GREP_BINARY_SNIFF_BYTES } from "../limits.ts";
import type { LineMatcher } from "./line_matcher.ts";
import { decodeUtf8Lenient } from "../text/utf8.ts";
import { hasUtf16Bom, legacyNeedleOf, legacyToUtf8, utf16ToUtf8 } from "./_legacy_text.ts";

/** What grep returns per file: matching lines, whether it has one, or how many. */
export type GrepOutputMode = "content" | "files_with_matches" | "count";

/** One matching line of one file. */
export interface LineMatch {
  /** The line number, from 1. */
  line: number;
  /** Where the first match starts in the line, from 1 (UTF-16 units). */
  column: number;
  /** The line without its line ending; a long line is cut to a window around the match. */
  text: string;
  /** Present (true) when `text` is a cut of a longer line. */
  cut?: true;
  /** Up to `context` lines before (each cut to the line bound). */
  before?: string[];
  /** Up to `context` lines after (each cut to the line bound). */
  after?: string[];
}

/** How one file's text is searched. */
export interface TextSearchRequest {
  matcher: LineMatcher;
  outputMode: GrepOutputMode;
  /** Lines of context before and after each match (content mode). */
  context: number;
  /** Matching lines kept at most (content mode). */
  cap: number;
  /** Characters of a returned line at most. */
  maxLineChars: number;
}

/** What searching one file's bytes found. */
export interface TextSearchOutcome {
  /** Set when the file is binary (a NUL byte in its first bytes): it was not searched. */
  binary?: true;
  /** Matching lines (content mode: at most `cap`). */
  matches: LineMatch[];
  /** Matching lines in all (files mode: 1 at most). */
  count: number;
  /** Set when a line decoded held U+FFFD: the file may not be UTF-8 ({@link searchText} then looks again). */
  replaced?: true;
}

const NEWLINE = 0x0a;
const CR = 0x0d;
const NONE: TextSearchOutcome = Object.freeze({ matches: Object.freeze([]) as unknown as LineMatch[], count: 0 });
const NONE_REPLACED: TextSearchOutcome = Object.freeze({
  matches: Object.freeze([]) as unknown as LineMatch[],
  count: 0,
  replaced: true,
});
// The UTF-8 encodings of K (U+212A) and ſ (U+017F): RE2 folds them with k and s.
const KELVIN = needleOf(new Uint8Array([0xe2, 0x84, 0xaa]));
const LONG_S = needleOf(new Uint8Array([0xc5, 0xbf]));

/**
 * Searches one file's bytes line by line. Lines split on `\n`; a `\r` before
 * it belongs to the ending (`foo$` matches `foo\r\n`); a leading BOM is
 * dropped; invalid UTF-8 decodes as U+FFFD. In that order, cheapest first:
 *
 * 1. A NUL byte in the first {@link GREP_BINARY_SNIFF_BYTES}: binary, not searched.
 * 2. The matcher's byte prefilter: a file without the required text is done,
 *    undecoded (most files of a search end here).
 * 3. A plain text counted or looked for (not content mode) is decided on the
 *    bytes: the lines holding it are the matching ones.
 * 4. Otherwise the file is decoded, and each line (a regular expression:
 *    each line holding the required text) goes to the matcher.
 *
 * A file that is not UTF-8 is searched as read_file decodes it: one with a
 * UTF-16 byte order mark is transcoded to UTF-8 first; a legacy one (not
 * valid UTF-8, read as windows-1252) again after the search above, only when
 * that search decoded a U+FFFD or found nothing while the bytes hold a
 * needle's windows-1252 form: a UTF-8 file never pays for either.
 *
 * The bytes may be a reused buffer: nothing returned refers to them.
 *
 * @param bytes The whole file.
 * @param request The matcher, the mode and the bounds.
 * @param search The byte search to use (a host's native one, or the portable one).
 * @returns The matching lines, or that the file is binary.
 */
export function searchText(bytes: Uint8Array, request: TextSearchRequest, search: ByteSearch): TextSearchOutcome {
  if (hasUtf16Bom(bytes)) return searchTranscoded(utf16ToUtf8(bytes), request, search);
  const view = search.view(bytes);
  if (looksBinary(bytes, view, search)) return { binary: true, matches: [], count: 0 };
  const found = searchRegion(bytes, view, request, WHOLE_FILE, request.cap);
  if (found.replaced !== true && (found.count > 0 || !holdsLegacyNeedles(bytes, view, request.matcher))) return found;
  const legacy = legacyToUtf8(bytes);
  if (legacy === undefined) return found.replaced === true ? { matches: found.matches, count: found.count } : found;
  return searchTranscoded(legacy, request, search);
}

// A file's text as UTF-8 bytes, searched whole.
function searchTranscoded(utf8: Uint8Array, request: TextSearchRequest, search: ByteSearch): TextSearchOutcome {
  const { matches, count } = searchRegion(utf8, search.view(utf8), request, WHOLE_FILE, request.cap);
  return { matches, count };
}

// Whether the bytes hold every needle, some in its windows-1252 form only (a legacy file's non-ASCII text).
function holdsLegacyNeedles(bytes: Uint8Array, view: ByteView, matcher: LineMatcher): boolean {
  const prefilter = matcher.prefilter;
  if (prefilter.kind !== "bytes") return false;
  let legacy = false;
  for (const needle of prefilter.needles) {
    const other = legacyNeedleOf(needle);
    if (other === null) {
      if (findNeedle(bytes, view, needle, 0) < 0) return false;
    } else if (findNeedle(bytes, view, other, 0) >= 0) legacy = true;
    else if (findNeedle(bytes, view, needle, 0) < 0) return false;
  }
  return legacy;
}

/**
 * Which lines of a buffer {@link searchRegion} searches: a file's read in
 * chunks is searched a part at a time, with the lines before and after a part
 * in the buffer for context. `from` and `to` are line starts (or the
 * buffer's end).
 */
export class TextRegion {
  /**
   * @param from The byte where the first line searched starts.
   * @param to The byte where the lines searched end.
   * @param firstLine Lines of the buffer before `from` (the index of the first line searched).
   * @param lines Lines searched (those between `from` and `to`).
   * @param lineBase Lines of the file before the buffer's first one.
   * @param fileStart Whether the buffer begins at the file's first byte (where a BOM is dropped).
   */
  constructor(
    readonly from: number,
    readonly to: number,
    readonly firstLine: number,
    readonly lines: number,
    readonly lineBase: number,
    readonly fileStart: boolean,
  ) {}
}

const WHOLE_FILE = new TextRegion(0, Number.POSITIVE_INFINITY, 0, Number.POSITIVE_INFINITY, 0, true);

/**
 * {@link searchText} on a region of a buffer, not sniffed for binary: the
 * lines from `region.from` to `region.to`, numbered from `region.lineBase`;
 * the buffer's other lines are there only as context.
 *
 * @param bytes The buffer: whole lines (its last one may be the file's last, with no line ending).
 * @param view A view of `bytes` (from `search`).
 * @param request The matcher, the mode and the bounds.
 * @param region The lines searched.
 * @param cap Matching lines kept at most (content mode).
 * @returns The matching lines of the region.
 */
export function searchRegion(
  bytes: Uint8Array,
  view: ByteView,
  request: TextSearchRequest,
  region: TextRegion,
  cap: number,
): TextSearchOutcome {
  const { matcher, outputMode } = request;
  if (!mayMatch(bytes, view, matcher, region.from, region.to)) return NONE;
  const prefilter = matcher.prefilter;
  if (prefilter.kind === "bytes" && outputMode !== "content") {
    if (matcher.exact) return countLinesHolding(bytes, view, prefilter.needles[0], outputMode, region);
    return countMatchingLines(bytes, view, prefilter.needles[0], request, region);
  }
  return searchDecoded(bytes, request, region, cap);
}

/**
 * Whether the lines between `from` and `to` may hold a match, by the
 * matcher's prefilter on the bytes: `false` when they lack the text every
 * match holds.
 *
 * @param bytes Whole lines.
 * @param view A view of `bytes`.
 * @param matcher The matcher.
 * @param from Where the lines begin.
 * @param to Where they end.
 * @returns `false` when no line there can match.
 */
export function mayMatch(bytes: Uint8Array, view: ByteView, matcher: LineMatcher, from: number, to: number): boolean {
  const prefilter = matcher.prefilter;
  if (prefilter.kind === "bytes") {
    for (const needle of prefilter.needles) if (!holds(findNeedle(bytes, view, needle, from), to)) return false;
  } else if (prefilter.kind === "ascii-fold") {
    // The K and ſ that RE2 folds with k and s are looked for only in a file without the needle in ASCII.
    return holds(findFolded(bytes, view, prefilter.needle, from), to) || (prefilter.beyondAscii &&
      (holds(findNeedle(bytes, view, KELVIN, from), to) || holds(findNeedle(bytes, view, LONG_S, from), to)));
  }
  return true;
}

// Whether a needle found at `at` (-1: not found) starts before `to`.
function holds(at: number, to: number): boolean {
  return at >= 0 && at < to;
}

/**
 * Whether bytes are binary as grep tells: a NUL byte in the first
 * {@link GREP_BINARY_SNIFF_BYTES}.
 *
 * @param bytes A file's bytes (or its first ones).
 * @param view A view of `bytes` (from `search`).
 * @param search The byte search.
 * @returns Whether the file is binary.
 */
export function looksBinary(bytes: Uint8Array, view: ByteView, search: ByteSearch): boolean {
  if (hasUtf16Bom(bytes)) return false; // UTF-16 text: its ASCII characters have NUL halves
  const sniffed = bytes.length > GREP_BINARY_SNIFF_BYTES
    ? search.view(bytes.subarray(0, GREP_BINARY_SNIFF_BYTES))
    : view;
  return sniffed.indexOf(0, 0) >= 0;
}

// A plain text: the lines holding it, counted on the bytes (a needle has no
// line ending, no BOM and no U+FFFD, so where its bytes are the line holds it).
function countLinesHolding(
  bytes: Uint8Array,
  view: ByteView,
  needle: Needle,
  mode: GrepOutputMode,
  region: TextRegion,
): TextSearchOutcome {
  let count = 0;
  for (let at = findNeedle(bytes, view, needle, region.from); holds(at, region.to);) {
    count++;
    if (mode === "files_with_matches") break;
    const end = view.indexOf(NEWLINE, at + needle.bytes.length);
    if (end < 0) break;
    at = findNeedle(bytes, view, needle, end + 1);
  }
  return { matches: [], count };
}

// A regular expression with a required text: only the lines holding it are
// decoded and matched, one at a time.
function countMatchingLines(
  bytes: Uint8Array,
  view: ByteView,
  needle: Needle,
  request: TextSearchRequest,
  region: TextRegion,
): TextSearchOutcome {
  let count = 0;
  let replaced = false;
  for (let at = findNeedle(bytes, view, needle, region.from); holds(at, region.to);) {
    const start = at === 0 ? 0 : bytes.lastIndexOf(NEWLINE, at - 1) + 1;
    const newline = view.indexOf(NEWLINE, at + needle.bytes.length);
    const end = newline < 0 ? bytes.length : newline;
    const line = lineText(bytes, start, end, region.fileStart);
    if (line.includes("\ufffd")) replaced = true;
    if (request.matcher.find(line) >= 0) {
      count++;
      if (request.outputMode === "files_with_matches") break;
    }
    if (newline < 0) break;
    at = findNeedle(bytes, view, needle, newline + 1);
  }
  return replaced ? { matches: [], count, replaced } : { matches: [], count };
}

// One line's text: without a `\r` before its `\n`, without the file's BOM.
function lineText(bytes: Uint8Array, start: number, end: number, fileStart: boolean): string {
  if (end < bytes.length && end > start && bytes[end - 1] === CR) end--;
  if (start === 0 && fileStart && bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    start = Math.min(3, end);
  }
  return decodeUtf8Lenient(bytes.subarray(start, end));
}

// The whole buffer decoded and split into lines; each line of the region to the matcher.
function searchDecoded(
  bytes: Uint8Array,
  request: TextSearchRequest,
  region: TextRegion,
  cap: number,
): TextSearchOutcome {
  const { matcher, outputMode, context, maxLineChars } = request;
  let text = decodeUtf8Lenient(bytes);
  const replaced = text.includes("\ufffd");
  if (region.fileStart && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\r\n")) text = text.replaceAll("\r\n", "\n");
  if (!matcher.mayMatch(text)) return replaced ? NONE_REPLACED : NONE;
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop(); // the final line ending ends no line
  const matches: LineMatch[] = [];
  let count = 0;
  const last = Math.min(lines.length, region.firstLine + region.lines);
  for (let i = region.firstLine; i < last; i++) {
    const column = matcher.find(lines[i]);
    if (column < 0) continue;
    count++;
    if (outputMode === "files_with_matches") break;
    if (outputMode === "count" || matches.length >= cap) continue;
    const { text: shown, cut } = cutLine(lines[i], column, maxLineChars);
    const match: LineMatch = { line: region.lineBase + i + 1, column: column + 1, text: shown };
    if (cut) match.cut = true;
    if (context > 0) {
      match.before = lines.slice(Math.max(0, i - context), i).map((line) => cutLine(line, 0, maxLineChars).text);
      match.after = lines.slice(i + 1, i + 1 + context).map((line) => cutLine(line, 0, maxLineChars).text);
    }
    matches.push(match);
  }
  return replaced ? { matches, count, replaced } : { matches, count };
}

/**
 * A line of at most `max` UTF-16 units: the start of the line, or, when the
 * match lies further in, a window that begins a little before it. Never
 * splits a surrogate pair.
 *
 * @param line The whole line.
 * @param column Where the match starts (UTF-16 units, from 0).
 * @param max The most units returned.
 * @returns The text and whether it was cut.
 */
export function cutLine(line: string, column: number, max: number): { text: string; cut: boolean } {
  if (line.length <= max) return { text: line, cut: false };
  const lead = Math.floor(max / 4);
  // Start a quarter of the window before the match, but keep the window full at the line's end.
  let start = column < max - lead ? 0 : Math.min(column - lead, line.length - max);
  let end = start + max;
  if (start > 0 && isLowSurrogate(line.charCodeAt(start))) start++;
  if (end < line.length && isLowSurrogate(line.charCodeAt(end))) end--;
  return { text: line.slice(start, end), cut: true };
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
