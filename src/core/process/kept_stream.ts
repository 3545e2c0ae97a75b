import { KEPT_OUTPUT_MAX_BYTES } from "../limits.ts";
import { compileLineMatcher } from "../search/line_matcher.ts";
import { decodeUtf8Lenient } from "../text/utf8.ts";

/** One line of kept output, numbered from 1 in the whole stream. */
export interface KeptLine {
  /** Its number in the whole stream (1 is the first line printed). */
  line: number;
  /** Its text, without the line break; a line over the clip is cut (see {@link clipLine}). */
  text: string;
}

/** A page of kept lines. */
export interface KeptPage {
  /** The lines, in order. */
  lines: KeptLine[];
  /** The number of the first line still kept (lines before it were dropped to stay within the bound). */
  firstKeptLine: number;
  /** Lines in the whole stream so far. */
  totalLines: number;
  /** The `offset` that reads on after this page, or `null` at the end of what is kept. */
  nextOffset: number | null;
}

/**
 * The whole output of one stream of a command, kept for `process_output` to
 * page and search: in memory, at most `limit` bytes (the latest; the oldest
 * are dropped and counted, so line numbers stay those of the whole stream).
 */
export class KeptStream {
  #chunks: Uint8Array[] = [];
  #bytes = 0;
  #droppedBytes = 0;
  #droppedLines = 0;
  #newlines = 0;
  #endsWithNewline = true;
  readonly #limit: number;

  /**
   * Starts an empty stream.
   *
   * @param limit Bytes kept. @default KEPT_OUTPUT_MAX_BYTES
   */
  constructor(limit: number = KEPT_OUTPUT_MAX_BYTES) {
    this.#limit = limit;
  }

  /** Bytes the stream carried in all. */
  get totalBytes(): number {
    return this.#droppedBytes + this.#bytes;
  }

  /** Whether nothing was printed. */
  get empty(): boolean {
    return this.totalBytes === 0;
  }

  /** Line breaks the stream carried. */
  get lineBreaks(): number {
    return this.#newlines;
  }

  /** Lines the stream carried (a last line without a line break counts). */
  get totalLines(): number {
    return this.#newlines + (this.#endsWithNewline ? 0 : 1);
  }

  /** Adds a chunk printed. */
  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.#newlines += countNewlines(chunk, 0, chunk.length);
    this.#endsWithNewline = chunk[chunk.length - 1] === 0x0a;
    this.#chunks.push(chunk.slice());
    this.#bytes += chunk.length;
    // The oldest bytes go first; a cut line's rest stays (its start is counted dropped).
    while (this.#bytes > this.#limit) {
      const first = this.#chunks[0];
      const over = this.#bytes - this.#limit;
      const cut = Math.min(first.length, over);
      this.#droppedLines += countNewlines(first, 0, cut);
      this.#droppedBytes += cut;
      this.#bytes -= cut;
      if (cut === first.length) this.#chunks.shift();
      else this.#chunks[0] = first.subarray(cut);
    }
  }

  /**
   * Lines from `offset` on.
   *
   * @param offset The number of the first line (1 = the first line printed); an earlier line no longer kept starts at the first kept.
   * @param limit Lines at most.
   * @param maxLineChars Characters of one line shown at most.
   * @param rewrite Rewrites the text before it is split (node_process hides its temp file's path). @default identity
   * @returns The page.
   */
  page(offset: number, limit: number, maxLineChars: number, rewrite?: (text: string) => string): KeptPage {
    const { lines, first } = this.#lines(rewrite);
    const start = Math.max(offset, first);
    const from = start - first;
    const picked = lines.slice(from, from + limit).map((text, index) => ({
      line: start + index,
      text: clipLine(text, maxLineChars),
    }));
    const next = start + picked.length;
    return {
      lines: picked,
      firstKeptLine: first,
      totalLines: this.totalLines,
      nextOffset: next - first < lines.length ? next : null,
    };
  }

  /**
   * The kept lines matching `pattern` (RE2: linear time, no pattern can hang).
   *
   * @param pattern The regular expression.
   * @param limit Matches at most.
   * @param maxLineChars Characters of one line shown at most.
   * @param rewrite Rewrites the text before it is searched. @default identity
   * @param fromLine The number of the first line searched. @default 1
   * @returns The matches, and whether more were left out.
   * @throws {WorkspaceError} `INVALID_PATTERN` for a malformed pattern.
   */
  search(
    pattern: string,
    limit: number,
    maxLineChars: number,
    rewrite?: (text: string) => string,
    fromLine = 1,
  ): { matches: KeptLine[]; truncated: boolean; firstKeptLine: number } {
    const matcher = compileLineMatcher(pattern);
    const { lines, first } = this.#lines(rewrite);
    const matches: KeptLine[] = [];
    for (let index = Math.max(0, fromLine - first); index < lines.length; index++) {
      if (matcher.find(lines[index]) < 0) continue;
      if (matches.length === limit) return { matches, truncated: true, firstKeptLine: first };
      matches.push({ line: first + index, text: clipLine(lines[index], maxLineChars) });
    }
    return { matches, truncated: false, firstKeptLine: first };
  }

  // The kept text as lines, and the number of the first (a line cut at its start by the bound counts as its own).
  #lines(rewrite?: (text: string) => string): { lines: string[]; first: number } {
    const bytes = new Uint8Array(this.#bytes);
    let at = 0;
    for (const chunk of this.#chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    let text = decodeUtf8Lenient(bytes);
    if (rewrite !== undefined) text = rewrite(text);
    const lines = text.split("\n");
    if (this.#endsWithNewline || text === "") lines.pop();
    return { lines, first: this.#droppedLines + 1 };
  }
}

/**
 * A line as shown: at most `max` characters, then a note of how many were left out.
 *
 * @param text The line.
 * @param max Characters kept.
 * @returns The line, clipped.
 */
export function clipLine(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}[… ${text.length - max} more characters]`;
}

function countNewlines(bytes: Uint8Array, from: number, to: number): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a, from); at !== -1 && at < to; at = bytes.indexOf(0x0a, at + 1)) count++;
  return count;
}
