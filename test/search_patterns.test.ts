import picomatch from "picomatch";
import { describe, expect, test } from "vitest";
import { compileGlob } from "../src/core/search/compile_glob.ts";
import { compileLineMatcher } from "../src/core/search/line_matcher.ts";

const GLOBS = [
  "**/*.ts",
  "*.ts",
  "*.test.ts",
  "**/*.test.ts",
  "src/**/*.ts",
  "src/**",
  "src/*/x.ts",
  "**",
  "**/*",
  "*",
  "?.md",
  "[abc].txt",
  "[!abc].txt",
  "**/test/**/*.test.?s",
  "+(a|b).js",
  "@(a|b)",
  "*(a)",
  "a/**/b",
  "{a,b}/{c,d/**}",
  "src/**/*.{ts,tsx}",
  "[[:alpha:]]*",
  "\\*.md",
  "a{1..3}.txt",
  "**/.*",
  ".github/**/*.yml",
  "**/*$x",
  "**/*(1).ts",
  "*a*a*b",
  "!x.ts",
];

const PATHS = [
  "a.ts",
  ".ts",
  "x.test.ts",
  "src/a.ts",
  "src/a/b/c.ts",
  "src/a.tsx",
  "src/x/x.ts",
  "src",
  "lib/src/a.ts",
  "a.md",
  "ab.md",
  "a.txt",
  "d.txt",
  "test/a/b.test.js",
  "x/test/b.test.ts",
  "ab.js",
  "aab",
  "a",
  "b",
  "a/b",
  "a/x/y/b",
  "a/c",
  "b/d/e",
  "Q",
  "*.md",
  "a2.txt",
  ".env",
  "x/.hidden",
  "x/.hidden/y/.z",
  "a b/c d",
  ".github/workflows/ci.yml",
  "f$x",
  "g(1).ts",
  "gg.ts",
  "aXaYb",
  "!x.ts",
  "x.ts",
];

describe("compileGlob()", () => {
  for (const pattern of GLOBS) {
    test(`agrees with picomatch on '${pattern}'`, () => {
      const reference = picomatch(pattern, { dot: true, windows: false, nonegate: true });
      const glob = compileGlob(pattern);
      for (const path of PATHS) expect([path, glob.match(path)]).toEqual([path, reference(path)]);
    });
  }

  test("refuses patterns that could never match a walked path", () => {
    for (const pattern of ["/etc/*", "../x/*.ts", "a/../b", "", "!(x)"]) {
      expect(() => compileGlob(pattern)).toThrow(expect.objectContaining({ code: "INVALID_PATTERN" }));
    }
  });

  test("names the literal leading folders of a pattern", () => {
    expect(compileGlob("src/lib/**/*.ts").base).toEqual(["src", "lib"]);
    expect(compileGlob("src/a.ts").base).toEqual(["src"]);
    expect(compileGlob("**/*.ts").base).toEqual([]);
    expect(compileGlob("{a,b}/x").base).toEqual([]);
  });
});

describe("compileLineMatcher()", () => {
  const TEXT = "alpha beta\n  gamma\nalpha\r\nend";
  const LINES = TEXT.split("\n");
  const PATTERNS = ["^alpha$", "^\\s+gamma$", "\\Agamma", "beta\\z", "(?-m)^end", "a\\b", "\\Bamm", "alpha\\r", "end$"];
  for (const pattern of PATTERNS) {
    test(`never rules out a text with a line '${pattern}' matches`, () => {
      const matcher = compileLineMatcher(pattern);
      const anyLine = LINES.some((line) => matcher.find(line) >= 0);
      if (anyLine) expect(matcher.mayMatch(TEXT)).toBe(true);
    });
  }

  test("finds the first match in a line, literal or not, in either case", () => {
    expect(compileLineMatcher("b+").find("abbc")).toBe(1);
    expect(compileLineMatcher("a.c", { literal: true }).find("abc a.c")).toBe(4);
    expect(compileLineMatcher("A.C", { literal: true, ignoreCase: true }).find("abc a.c")).toBe(4);
    expect(compileLineMatcher("x").find("abc")).toBe(-1);
  });
});
