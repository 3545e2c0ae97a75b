// Red team: parsePatch's cost on hostile input (a run of blank lines in a hunk was quadratic:
// each blank line scanned ahead over all the blank lines after it).
//
// The work is counted, not timed: every line the parser looks at is trimmed (`trim`, `trimEnd`,
// `trimStart`), so the number of those calls is the number of line visits. A linear parse visits each
// line a few times whatever the machine's speed; the quadratic one visited 200,000 blank lines
// 200,000 times each.
import { describe, expect, test } from "vitest";
import { parsePatch } from "../src/patch.ts";

/** Line visits per line of the patch the parse may make (it makes 4 today: split, the blank-run table, two checks). */
const MAX_VISITS_PER_LINE = 8;

/** Runs `work` and counts the calls of String.prototype's trim functions it made (synchronous, so no other code runs). */
function countTrims<T>(work: () => T): { result: T; trims: number } {
  const names = ["trim", "trimEnd", "trimStart"] as const;
  const saved = names.map((name) => String.prototype[name]);
  let trims = 0;
  names.forEach((name, i) => {
    const original = saved[i];
    String.prototype[name] = function (this: string): string {
      trims++;
      return original.call(this);
    };
  });
  try {
    return { result: work(), trims };
  } finally {
    names.forEach((name, i) => (String.prototype[name] = saved[i]));
  }
}

const blankHunk = (blanks: number): string =>
  "*** Begin Patch\n*** Update File: a\n@@\n" + "\n".repeat(blanks) + " x\n-y\n*** End Patch\n";

describe("parsePatch: hostile parsing cost", () => {
  test("a hunk of 200,000 blank lines is read with a bounded number of visits per line", () => {
    const lines = 200_000;
    const { result, trims } = countTrims(() => parsePatch(blankHunk(lines)));
    // The counter sees the parse (each line is visited at least once), and the visits stay linear.
    expect(trims).toBeGreaterThanOrEqual(lines);
    expect(trims).toBeLessThanOrEqual(MAX_VISITS_PER_LINE * lines);
    expect(result.operations).toHaveLength(1);
    const [operation] = result.operations;
    expect(operation.kind === "update" && operation.hunks[0].oldLines.length).toBe(200_002);
  });

  test("twice the blank lines cost twice the visits (linear, not quadratic)", () => {
    const small = countTrims(() => parsePatch(blankHunk(5_000))).trims;
    const large = countTrims(() => parsePatch(blankHunk(10_000))).trims;
    expect(large).toBeLessThanOrEqual(2 * small + 100);
  });
});
