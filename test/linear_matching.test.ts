// The "linear time" claims of find_files' globs and grep's patterns, proved by
// counting work instead of timing it: the matchers (RE2) read their input
// through charCodeAt / codePointAt, so a string that counts those reads shows
// how often each character is looked at. RE2 does a bounded amount of work per
// character read (a step of its automaton); a backtracking engine would read
// the same characters again and again, and the count would grow faster than
// the input. Each claim is checked at two input sizes: doubling the input must
// double the reads, and the reads stay within a small multiple of its length.
import { describe, expect, test } from "vitest";
import { compileGlob } from "../src/core/search/compile_glob.ts";
import { compileLineMatcher } from "../src/core/search/line_matcher.ts";

/** A string that counts how many characters are read from it. */
class CountingString extends String {
  reads = 0;
  override charCodeAt(index: number): number {
    this.reads++;
    return super.charCodeAt(index);
  }
  override codePointAt(index: number): number | undefined {
    this.reads++;
    return super.codePointAt(index);
  }
}

/** The characters `run` reads from `input(n)`, with its result, at size `n`. */
function readsAt<T>(n: number, input: (n: number) => string, run: (text: string) => T): { reads: number; result: T } {
  const text = new CountingString(input(n));
  const result = run(text as unknown as string);
  return { reads: text.reads, result };
}

const SMALL = 10_000;
const LARGE = 2 * SMALL;

/** Asserts that the reads at LARGE are about twice those at SMALL, and at most `perChar` reads a character. */
function expectLinear(input: (n: number) => string, run: (text: string) => unknown, perChar: number): void {
  const small = readsAt(SMALL, input, run);
  const large = readsAt(LARGE, input, run);
  expect(large.result).toEqual(small.result);
  expect(small.reads).toBeGreaterThanOrEqual(SMALL); // every character is read: the count sees the work
  expect(large.reads / small.reads).toBeGreaterThan(1.9);
  expect(large.reads / small.reads).toBeLessThan(2.1);
  expect(large.reads).toBeLessThanOrEqual(perChar * input(LARGE).length);
}

describe("linear-time matching, by counting the characters read", () => {
  test("the count sees a matcher that reads characters again: a naive search for a*b grows fourfold", () => {
    // For each start, scan the a's that follow: quadratic in a line of a's.
    const naive = (text: string) => {
      for (let start = 0; start < text.length; start++) {
        let at = start;
        while (at < text.length && text.charCodeAt(at) === 97) at++;
        if (at < text.length && text.charCodeAt(at) === 98) return start;
      }
      return -1;
    };
    const small = readsAt(500, (n) => "a".repeat(n), naive);
    const large = readsAt(1_000, (n) => "a".repeat(n), naive);
    expect(large.reads / small.reads).toBeGreaterThan(3.9);
  });

  test("a glob with many stars against a long name that it does not match (find_files)", () => {
    const glob = compileGlob("**/*a*a*a*a*a*a*a*a*a*b");
    expectLinear((n) => "d/" + "a".repeat(n) + "c", (path) => glob.match(path), 2);
  });

  test("a glob with many stars against a long name that it matches", () => {
    const glob = compileGlob("**/*a*a*a*a*a*a*a*a*a*b");
    expectLinear((n) => "d/" + "a".repeat(n) + "b", (path) => glob.match(path), 2);
  });

  test("grep's (a+)+$ against a long line of a's ending in b finds nothing", () => {
    const matcher = compileLineMatcher("(a+)+$");
    const line = (n: number) => "a".repeat(n) + "b";
    expectLinear(line, (text) => matcher.find(text), 2);
    expectLinear(line, (text) => matcher.mayMatch(text), 2);
  });

  test("grep's (a+)+b$ finds its match at the start of the same line", () => {
    const matcher = compileLineMatcher("(a+)+b$");
    expectLinear((n) => "a".repeat(n) + "b", (text) => matcher.find(text), 3);
  });

  test("grep's (x+x+)+needle on a wide line finds the needle", () => {
    const matcher = compileLineMatcher("(x+x+)+needle");
    expectLinear((n) => "x".repeat(n) + "needle" + "y".repeat(n), (text) => matcher.find(text), 3);
  });
});
