import ignore from "ignore";
import { describe, expect, test } from "vitest";
import { ignorePrefilter } from "../src/core/search/ignore_prefilter.ts";

// Found by a red-team pass (a differential fuzz against `git ls-files --others --exclude-standard`):
// the prefilter read each rule with String.prototype.trim(), dropping leading whitespace and any
// trailing Unicode whitespace (tab, NBSP, U+3000), and took " #x" for a comment. git and the
// `ignore` package keep leading whitespace and all trailing whitespace but unescaped spaces, so the
// prefilter answered "no rule can match" for paths the rules ignore, and those files showed in
// find_files and grep.
const CASES: Array<[rule: string, path: string]> = [
  [" foo", " foo"],
  [" #bar", " #bar"],
  ["\tqux", "\tqux"],
  ["baz\t", "baz\t"],
  ["\u00a0nb", "\u00a0nb"],
  ["nb\u00a0", "nb\u00a0"],
  ["wide\u3000", "wide\u3000"],
  ["**/b\u00a0", "c/b\u00a0"],
  ["sp\\ ", "sp "],
  ["sp  ", "sp"],
  ["a/b\t", "a/b\t"],
];

describe("ignore prefilter: rules with whitespace at their edges", () => {
  for (const [rule, path] of CASES) {
    test(JSON.stringify(rule), () => {
      const rules = ignore({ ignorecase: false }).add(rule);
      expect(rules.ignores(path)).toBe(true); // git agrees
      const prefilter = ignorePrefilter(rule);
      expect(prefilter(path)).toBe(true);
      let names = prefilter.root();
      const segments = path.split("/");
      for (const segment of segments.slice(0, -1)) names = names.enter(segment);
      expect(names.may(segments[segments.length - 1])).toBe(true);
    });
  }
});
