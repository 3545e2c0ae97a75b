// Red team: parsePatch's cost on hostile input (a run of blank lines in a hunk was quadratic:
// each blank line scanned ahead over all the blank lines after it).
import { describe, expect, test } from "vitest";
import { parsePatch } from "../src/patch.ts";

/** Far above what the linear parse takes on a loaded machine, far below what the quadratic one took. */
const BOUND_MS = 20_000;

describe("parsePatch: hostile parsing cost", () => {
  test("a hunk of 200,000 blank lines parses in linear time", () => {
    const patch = "*** Begin Patch\n*** Update File: a\n@@\n" + "\n".repeat(200_000) + " x\n-y\n*** End Patch\n";
    const started = Date.now();
    const { operations } = parsePatch(patch);
    expect(Date.now() - started).toBeLessThan(BOUND_MS);
    expect(operations).toHaveLength(1);
    const [operation] = operations;
    expect(operation.kind === "update" && operation.hunks[0].oldLines.length).toBe(200_002);
  }, 60_000);
});
