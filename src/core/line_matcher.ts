import { RE2JS } from "re2js";
import { invalidPattern } from "./compile_glob.ts";
import { SEARCH_MAX_PATTERN_BYTES } from "./limits.ts";
import { utf8ByteLength } from "./utf8.ts";

/** How {@link compileLineMatcher} reads the pattern. */
export interface LineMatcherOptions {
  /** Match the pattern as plain text, not as a regular expression. @default false */
  literal?: boolean;
  /** Match without regard to case. @default false */
  ignoreCase?: boolean;
}

/** A compiled search pattern, applied to one line at a time. */
export interface LineMatcher {
  /**
   * Whether any line of `text` may match: `false` is certain, `true` must be
   * confirmed line by line. One pass over a whole file rules most files out.
   */
  mayMatch(text: string): boolean;
  /** The index (UTF-16 units) of the first match in `line`, or -1. */
  find(line: string): number;
}

// Patterns whose meaning differs between "one line" and "a whole text in
// multi-line mode": \A and \z (start and end of the text), and inline flags
// that switch multi-line mode off. A whole-text pass could miss a line they
// match, so files are checked line by line for them.
const TEXT_ANCHORS = /\\[Az]|\(\?[a-zA-Z]*-[a-zA-Z]*m/;

/**
 * Compiles a grep pattern with RE2 (linear time in the input, whatever the
 * pattern: `(a+)+$` cannot hang). The syntax is RE2's, close to JavaScript's
 * and Perl's without backreferences or lookaround. `^` and `$` match at the
 * start and end of each line.
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
  if (options.literal && !options.ignoreCase) {
    // Plain text: the runtime's own substring search, no engine at all.
    return {
      mayMatch: (text) => text.includes(pattern),
      find: (line) => line.indexOf(pattern),
    };
  }
  const source = options.literal ? RE2JS.quote(pattern) : pattern;
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, RE2JS.MULTILINE | (options.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0));
  } catch (cause) {
    const detail = cause instanceof Error ? cause.message.replace(/^error parsing regexp: /, "") : "malformed";
    throw invalidPattern(pattern, `it is not a valid regular expression (${detail})`, cause);
  }
  const wholeTextPass = !TEXT_ANCHORS.test(pattern);
  return {
    mayMatch: (text) => !wholeTextPass || re.test(text),
    find: (line) => {
      if (!re.test(line)) return -1;
      const matcher = re.matcher(line);
      return matcher.find() ? matcher.start() : -1;
    },
  };
}
