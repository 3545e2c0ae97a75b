// Red team: apply_patch's cost on hostile input. Each of these took minutes of one synchronous
// run (the event loop pinned, the call not abortable) before the search became linear and bounded.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createApplyPatchTool } from "../mod.ts";
import { APPLY_PATCH_MAX_BYTES, APPLY_PATCH_MAX_FILE_BYTES, APPLY_PATCH_MAX_MATCH_STEPS } from "../src/core/limits.ts";
import { applyHunks, applyHunksWithin } from "../src/core/text/apply_hunks.ts";
import { parsePatch } from "../src/patch.ts";

/**
 * The work a patch's hunks cost, counted as the search counts it (line comparisons and the folding of a file's
 * lines), not timed: a slow machine cannot fail these tests and a fast one cannot hide a regression. The search
 * charges a pass's folding before it runs, so one pass of the largest file may go past the limit.
 */
function stepsSpent(text: string, patch: string): number {
  const budget = { stepsLeft: APPLY_PATCH_MAX_MATCH_STEPS };
  const operation = parsePatch(patch).operations[0];
  if (operation?.kind !== "update") throw new Error("an Update expected");
  try {
    applyHunksWithin(text, operation.hunks, operation.path, budget);
  } catch {
    // Refused: what was spent until then still counts.
  }
  return APPLY_PATCH_MAX_MATCH_STEPS - budget.stepsLeft;
}

/** The most one call may count: the limit, and one pass's folding charged past it (16 a line, 1 a UTF-16 unit). */
function bound(text: string): number {
  return APPLY_PATCH_MAX_MATCH_STEPS + (text.split("\n").length * 16 + text.length);
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-redteam-"));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("apply_patch: hostile matching cost", () => {
  test("a 1 MiB file of identical lines and a hunk of as many of them as a patch holds, then one absent", async () => {
    const text = "a\n".repeat(APPLY_PATCH_MAX_FILE_BYTES / 2);
    fs.writeFileSync(path.join(dir, "big.txt"), text);
    const head = "*** Begin Patch\n*** Update File: big.txt\n@@\n";
    const tail = "-b\n+x\n*** End Patch\n";
    const count = Math.floor((APPLY_PATCH_MAX_BYTES - head.length - tail.length) / 3);
    const patch = head + "-a\n".repeat(count) + tail;
    expect(await codeOf(createApplyPatchTool(dir).execute({ patch }))).toBe("PATCH_HUNK_NOT_FOUND");
    expect(stepsSpent(text, patch)).toBeLessThanOrEqual(bound(text));
    expect(fs.readFileSync(path.join(dir, "big.txt"), "utf8")).toBe(text);
  }, 60_000);

  test("thousands of hunks that each match only tolerantly, every exact try scanning the file", async () => {
    // Trailing blanks, the tolerance that need not be unique (one that ignores indentation must match one place).
    const text = "a\na \n".repeat(100_000);
    fs.writeFileSync(path.join(dir, "big.txt"), text);
    const patch = "*** Begin Patch\n*** Update File: big.txt\n" + "@@\n-a\n-a\n+x\n".repeat(20_000) + "*** End Patch\n";
    const code = await codeOf(createApplyPatchTool(dir).execute({ patch }));
    expect(stepsSpent(text, patch)).toBeLessThanOrEqual(bound(text));
    expect(code).toBe("PATCH_HUNK_NOT_FOUND"); // the comparison budget ran out; said, and nothing changed
    expect(fs.readFileSync(path.join(dir, "big.txt"), "utf8")).toBe(text);
  }, 60_000);

  test("a hunk of many identical lines that does match is applied at the first place, fast", () => {
    const text = "a\n".repeat(200_000) + "b\n";
    const budget = { stepsLeft: APPLY_PATCH_MAX_MATCH_STEPS };
    const { text: after } = applyHunksWithin(
      text,
      [{
        oldLines: [...Array(50_000).fill("a"), "b"],
        newLines: ["x"],
        endOfFile: false,
      }],
      "big.txt",
      budget,
    );
    // Linear: one folding of the file (16 a line, 1 a unit) and a few comparisons a line, not 50,000 a line.
    expect(APPLY_PATCH_MAX_MATCH_STEPS - budget.stepsLeft).toBeLessThanOrEqual(200_001 * 20);
    expect(after).toBe("a\n".repeat(150_000) + "x\n");
  });

  test("the files of one patch share one budget of line comparisons, not one each", async () => {
    // Each hunk matches only tolerantly: its exact try scans the file (about 600,000 comparisons), after the file's
    // lines are folded twice (about 7 million steps). 40 of them fit one budget; two files of them would have fit
    // two (and 64 files 64 budgets: minutes of one call).
    const text = "a\na \n".repeat(100_000);
    const hunks = "@@\n-a\n-a\n+x\n".repeat(40);
    for (const name of ["f1.txt", "f2.txt"]) fs.writeFileSync(path.join(dir, name), text);
    const tool = createApplyPatchTool(dir);
    const both = `*** Begin Patch\n*** Update File: f1.txt\n${hunks}*** Update File: f2.txt\n${hunks}*** End Patch\n`;
    const error = await tool.execute({ patch: both }).then(() => undefined, (error: unknown) => error);
    expect(error).toMatchObject({
      code: "PATCH_HUNK_NOT_FOUND",
      // Past the first file's 40 hunks (about 24 million): the budget ends part way through the second's.
      message: expect.stringMatching(
        new RegExp(
          `'f2\\.txt': hunk \\d+ of 40 not found within ${APPLY_PATCH_MAX_MATCH_STEPS} line comparisons \\(the patch's hunks together, the folding of each file's lines included\\)`,
        ),
      ),
    });
    for (const name of ["f1.txt", "f2.txt"]) expect(fs.readFileSync(path.join(dir, name), "utf8")).toBe(text);
    // Either file alone is within the budget.
    const one = await tool.execute({ patch: `*** Begin Patch\n*** Update File: f2.txt\n${hunks}*** End Patch\n` });
    expect(one.files).toEqual([
      { path: "f2.txt", action: "updated", added: 40, removed: 80, tolerance: "trailing whitespace" },
    ]);
  }, 60_000);

  test("the exact match anywhere still beats a tolerant one earlier; a tolerant one still applies", () => {
    expect(applyHunks(" b\nb\n", [{ oldLines: ["b"], newLines: ["c"], endOfFile: false }], "f").text).toBe(" b\nc\n");
    // Matched with its indentation ignored, at one place: the new line takes the file's indentation.
    expect(applyHunks("x\n  b  \n", [{ oldLines: ["b"], newLines: ["c"], endOfFile: false }], "f").text)
      .toBe("x\n  c\n");
    expect(applyHunks("a\nb\na\nb\n", [{ oldLines: ["b"], newLines: ["c"], endOfFile: true }], "f").text)
      .toBe("a\nb\na\nc\n");
  });
});
