import { RE2JS } from "re2js";
import { type FoldedNeedle, foldedNeedleOf, type Needle, needleOf } from "./byte_search.ts";
import { invalidPattern } from "./invalid_pattern.ts";
import { SEARCH_MAX_PATTERN_BYTES } from "../limits.ts";
import { requiredLiterals } from "./required_literal.ts";
import { utf8ByteLength } from "../text/utf8.ts";

/** How {@link compileLineMatcher} reads the pattern. */
export interface LineMatcherOptions {
  /** Match the pattern as plain text, not as a regular expression. @default false */
  literal?: boolean;
  /** Match without regard to case. @default false */
  ignoreCase?: boolean;
}

/**
 * What a file's raw bytes must contain for any of its lines to match, so a
 * file can be ruled out before it is decoded:
 * - `none`: nothing is known; every file is decoded and matched.
 * - `bytes`: each of `needles` (UTF-8), case-sensitive.
 * - `ascii-fold`: `needle` (ASCII) in any ASCII case, found on the bytes by
 *   `findFolded` (no byte outside ASCII folds into an ASCII letter) and
 *   on a decoded line by `regex` (JavaScript's non-Unicode case folding,
 *   likewise); when `beyondAscii`, the needle holds `k` or `s`, which RE2 also
 *   matches as K (U+212A) and ſ (U+017F): a file or line holding those cannot
 *   be ruled out this way.
 */
export type BytePrefilter =
  | { kind: "none" }
  | { kind: "bytes"; needles: Needle[] }
  | { kind: "ascii-fold"; needle: FoldedNeedle; regex: RegExp; beyondAscii: boolean };

/** A compiled search pattern, applied to one line at a time. */
export interface LineMatcher {
  /**
   * Whether any line of `text` may match: `false` is certain, `true` must be
   * confirmed line by line. One pass over a whole file rules most files out.
   */
  mayMatch(text: string): boolean;
  /** The index (UTF-16 units) of the first match in `line`, or -1. */
  find(line: string): number;
  /** What a file must contain to have a match (see {@link BytePrefilter}). */
  readonly prefilter: BytePrefilter;
  /**
   * Whether the prefilter decides alone: a line holding the (single) needle
   * matches, and one without it does not (a case-sensitive plain text).
   */
  readonly exact: boolean;
}

// Patterns whose meaning differs between "one line" and "a whole text in
// multi-line mode": \A and \z (start and end of the text), and inline flags
// that switch multi-line mode off. A whole-text pass could miss a line they
// match, so files are checked line by line for them.
const TEXT_ANCHORS = /\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m/;

// Characters a line never holds, or that decoding may produce from other bytes:
// a needle with one is not searched for in raw bytes.
const NOT_IN_RAW_LINES = /[\n\r\uFEFF\uFFFD]/;

/**
 * Compiles a grep pattern with RE2 (linear time in the input, whatever the
 * pattern: `(a+)+$` cannot hang). The syntax is RE2's, close to JavaScript's
 * and Perl's without backreferences or lookaround. `^` and `$` match at the
 * start and end of each line. Besides the matcher it derives a
 * {@link BytePrefilter}: the plain text the pattern requires (all of a
 * literal, the required runs of a regular expression), so most files are
 * ruled out by a substring search on their bytes and RE2 only runs on lines
 * that hold it.
 *
 * @param pattern The regular expression, or the text with `literal`.
 * @param options Literal and case-insensitive matching.
 * @returns The matcher.
 * @throws {WorkspaceError} `INVALID_PATTERN` for an empty, over-long or malformed pattern.
 *
 * @example Finding a match
 * ```ts
 * const matcher = compileLineMatcher("fo+", { ignoreCase: true });
 * matcher.find("a FOO b"); // 2
 * ```
 */
export function compileLineMatcher(pattern: string, options: LineMatcherOptions = {}): LineMatcher {
  if (pattern.length === 0) throw invalidPattern(pattern, "the pattern is empty");
  if (utf8ByteLength(pattern) > SEARCH_MAX_PATTERN_BYTES) {
    throw invalidPattern(pattern, `the pattern is longer than ${SEARCH_MAX_PATTERN_BYTES} bytes`);
  }
  const ignoreCase = options.ignoreCase === true;
  // Plain text: the runtime's own substring search, no engine at all.
  if (options.literal && !ignoreCase) return new PlainTextMatcher(pattern);
  const source = options.literal ? RE2JS.quote(pattern) : pattern;
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, RE2JS.MULTILINE | (ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message.replace(/^error parsing regexp: /, "") : "malformed";
    throw invalidPattern(pattern, `it is not a valid regular expression (${detail})`, cause);
  }
  const runs = options.literal ? [pattern] : requiredLiterals(pattern);
  const prefilter = ignoreCase ? asciiFoldPrefilter(runs) : bytesPrefilter(runs);
  // A line without every required run cannot match: a substring test spares RE2 most lines.
  return new RegexMatcher(re, prefilter, ignoreCase ? [] : runs, !TEXT_ANCHORS.test(pattern));
}

// Matchers, prefilters (and needles) are class instances: every call's have the same shape and the same
// methods from the first call on (why: docs/contributing.md, "On grep's path").
class PlainTextMatcher implements LineMatcher {
  readonly #pattern: string;
  readonly prefilter: BytePrefilter;
  readonly exact: boolean;

  constructor(pattern: string) {
    this.#pattern = pattern;
    this.prefilter = bytesPrefilter([pattern]);
    this.exact = !NOT_IN_RAW_LINES.test(pattern);
  }

  mayMatch(text: string): boolean {
    return text.includes(this.#pattern);
  }

  find(line: string): number {
    return line.indexOf(this.#pattern);
  }
}

class RegexMatcher implements LineMatcher {
  readonly exact = false;
  readonly #re: RE2JS;
  readonly #lineRuns: readonly string[];
  readonly #folded: AsciiFoldPrefilter | null;
  readonly #wholeTextPass: boolean;

  /**
   * @param re The compiled pattern.
   * @param prefilter What a file must contain.
   * @param lineRuns Text a matching line holds (each).
   * @param wholeTextPass Whether one pass over a whole text may rule it out.
   */
  constructor(re: RE2JS, readonly prefilter: BytePrefilter, lineRuns: readonly string[], wholeTextPass: boolean) {
    this.#re = re;
    this.#lineRuns = lineRuns;
    this.#folded = prefilter instanceof AsciiFoldPrefilter ? prefilter : null;
    this.#wholeTextPass = wholeTextPass;
  }

  mayMatch(text: string): boolean {
    return !this.#wholeTextPass || this.#re.test(text);
  }

  find(line: string): number {
    for (const run of this.#lineRuns) if (!line.includes(run)) return -1;
    // JavaScript's non-Unicode case folding never maps a non-ASCII character into ASCII: no line is lost here.
    const folded = this.#folded;
    if (folded !== null && !folded.regex.test(line) && !(folded.beyondAscii && BEYOND_ASCII_FOLDS.test(line))) {
      return -1;
    }
    if (!this.#re.test(line)) return -1;
    const matcher = this.#re.matcher(line);
    return matcher.find() ? matcher.start() : -1;
  }
}

class NoPrefilter {
  readonly kind = "none";
}

class BytesPrefilter {
  readonly kind = "bytes";
  constructor(readonly needles: Needle[]) {}
}

class AsciiFoldPrefilter {
  readonly kind = "ascii-fold";
  constructor(readonly needle: FoldedNeedle, readonly regex: RegExp, readonly beyondAscii: boolean) {}
}

const ENCODER = new TextEncoder();
// What RE2 folds with an ASCII letter besides its other case: K (U+212A) with k, ſ (U+017F) with s.
const BEYOND_ASCII_FOLDS = /[\u212a\u017f]/;

function bytesPrefilter(runs: readonly string[]): BytePrefilter {
  const usable = runs.filter((run) => run.length > 0 && !NOT_IN_RAW_LINES.test(run));
  if (usable.length === 0) return new NoPrefilter();
  // Longest first: the likeliest to rule a file out at the first search.
  const needles = usable.sort((a, b) => b.length - a.length).map((run) => needleOf(ENCODER.encode(run)));
  return new BytesPrefilter(needles);
}

// The longest ASCII run, matched in any ASCII case.
function asciiFoldPrefilter(runs: readonly string[]): BytePrefilter {
  const ascii = runs.filter((run) => /^[\x20-\x7e\t]+$/.test(run)).sort((a, b) => b.length - a.length);
  if (ascii.length === 0) return new NoPrefilter();
  const needle = ascii[0];
  const escaped = needle.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new AsciiFoldPrefilter(foldedNeedleOf(needle), new RegExp(escaped, "i"), /[ks]/i.test(needle));
}
