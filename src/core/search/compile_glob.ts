import picomatch from "picomatch";
import { RE2JS } from "re2js";
import { invalidPattern } from "./invalid_pattern.ts";
import { SEARCH_MAX_PATTERN_BYTES } from "../limits.ts";
import { normalizeWorkspacePath } from "../path/normalize_workspace_path.ts";
import { utf8ByteLength } from "../text/utf8.ts";

/** A compiled glob. */
export interface GlobMatcher {
  /** The pattern as given. */
  readonly pattern: string;
  /**
   * The pattern's literal leading folders (`src/lib` of `src/lib/**\/*.ts`):
   * only paths below them can match, so a walk may start there.
   */
  readonly base: readonly string[];
  /** Whether a `/`-separated relative path matches the whole pattern. */
  match(path: string): boolean;
}

// picomatch writes three lookaheads into its expressions, which a linear-time
// engine cannot run. Each only guards against path shapes that never reach the
// matcher here: `.` and `..` segments (a walk never produces them) and empty
// segments (nor those). Removing exactly these strings keeps the meaning for
// every path a walk yields; any other lookaround makes the pattern refused.
const PICOMATCH_GUARDS = [
  "(?!(?:^|\\/)\\.{1,2}(?:\\/|$))",
  "(?!\\.{1,2}(?:\\/|$))",
  "(?=.)",
];

// Characters that make a glob segment more than a literal.
const GLOB_SYNTAX = /[*?[\]{}()!+@\\]/;

/**
 * Compiles a glob with picomatch's syntax (`*`, `**`, `?`, `[…]`, `{a,b}`,
 * `{1..3}`, `+(…)`, `@(…)`, `*(…)`, `?(…)`, POSIX classes) and matches with
 * RE2, in time linear in the path: picomatch's own expressions backtrack, and
 * `*a*a*a*a*b` against a long name would run for minutes.
 *
 * Options fixed for every call: dot files match (`.github/**` needs no flag),
 * `/` is the only separator (a backslash escapes), a leading `!` is a literal
 * character (no whole-pattern negation), matching is case-sensitive.
 *
 * @param pattern The glob, relative to the folder searched.
 * @returns The matcher.
 * @throws {WorkspaceError} `INVALID_PATTERN` for an empty, over-long or
 * absolute pattern, one with a `..` segment, or one that needs lookaround
 * (the negated extglob `!(…)`).
 *
 * @example Matching paths
 * ```ts
 * const glob = compileGlob("src/**\/*.ts");
 * glob.match("src/a/b.ts"); // true
 * glob.base; // ["src"]
 * ```
 */
export function compileGlob(pattern: string): GlobMatcher {
  if (pattern.length === 0) throw invalidPattern(pattern, "the pattern is empty");
  if (utf8ByteLength(pattern) > SEARCH_MAX_PATTERN_BYTES) {
    throw invalidPattern(pattern, `the pattern is longer than ${SEARCH_MAX_PATTERN_BYTES} bytes`);
  }
  // Paths a walk yields are relative and never hold '..': such a pattern could
  // match nothing, and saying so beats an empty result.
  if (pattern.startsWith("/")) {
    throw invalidPattern(pattern, "it is absolute; patterns are relative to the folder searched");
  }
  if (pattern.split("/").includes("..")) {
    throw invalidPattern(pattern, "'..' segments never match; search a folder with path instead");
  }
  const options = { dot: true, windows: false, nonegate: true };
  let source: string;
  let scan: ReturnType<typeof picomatch.scan>;
  try {
    source = picomatch.makeRe(pattern, options).source;
    scan = picomatch.scan(pattern, { ...options, parts: true });
  } catch (cause) {
    throw invalidPattern(pattern, "it is not a valid glob", cause);
  }
  for (const guard of PICOMATCH_GUARDS) source = source.split(guard).join("");
  let re: RE2JS;
  try {
    re = RE2JS.compile(source, RE2JS.DOTALL);
  } catch (cause) {
    throw invalidPattern(pattern, "it needs a feature linear-time matching lacks (the negated extglob '!(…)')", cause);
  }

  // A necessary condition checked first: `*.ts` as the last segment means the
  // path ends in `.ts`. Most paths of a walk fail it and never reach RE2.
  const parts = scan.parts ?? [];
  const last = parts.length > 0 ? parts[parts.length - 1] : "";
  const suffix = last.startsWith("*") && !GLOB_SYNTAX.test(last.slice(1)) ? last.slice(1) : "";

  let match: (path: string) => boolean;
  if (pattern === "**" || pattern === "**/*") {
    match = () => true; // any path: `**` takes every folder, `*` every name (dot files match)
  } else if (pattern === "*") {
    match = (path) => !path.includes("/");
  } else if (suffix !== "" && pattern === `**/*${suffix}`) {
    // The commonest glob decides on the suffix alone: `**/` takes any folders, `*` the rest of the name.
    match = (path) => path.endsWith(suffix);
  } else if (suffix !== "" && pattern === `*${suffix}`) {
    match = (path) => path.endsWith(suffix) && !path.includes("/");
  } else if (suffix !== "") {
    match = (path) => path.endsWith(suffix) && re.testExact(path);
  } else {
    match = (path) => re.testExact(path);
  }
  return { pattern, base: literalBase(pattern, scan), match };
}

// The folders before the first glob segment, when they are plain names.
function literalBase(pattern: string, scan: ReturnType<typeof picomatch.scan>): string[] {
  const base = scan.isGlob ? scan.base : pattern.slice(0, Math.max(0, pattern.lastIndexOf("/")));
  if (base === "" || base.includes("\\") || scan.prefix !== "") return [];
  try {
    const segments = normalizeWorkspacePath(base);
    return segments.some((segment) => GLOB_SYNTAX.test(segment)) ? [] : segments;
  } catch {
    return []; // such a pattern matches nothing a walk yields; walking all of it is still correct
  }
}
