// How apply_patch places a patch's hunks and which of the file's text it keeps (applyHunks over parsePatch's
// hunks, no disk): what Codex's apply_patch does with the same patch, and where docs/tools.md says otherwise.
import { describe, expect, test } from "vitest";
import { applyHunks, parsePatch, type PatchHunk } from "../src/patch.ts";
import { APPLY_PATCH_MAX_MATCH_STEPS } from "../src/core/limits.ts";
import { LineIndex, seekLines } from "../src/core/text/seek_lines.ts";
import { applyHunksWithin } from "../src/core/text/apply_hunks.ts";

/** The hunks of a patch's one `*** Update File:` (its body: `@@` lines and hunk lines). */
function hunksOf(body: string): PatchHunk[] {
  const [operation] = parsePatch(`*** Begin Patch\n*** Update File: f.txt\n${body}*** End Patch\n`).operations;
  if (operation.kind !== "update") throw new Error("not an update");
  return operation.hunks;
}

const patched = (text: string, body: string) => applyHunks(text, hunksOf(body), "f.txt");

function failure(text: string, body: string): { code?: string; message: string; details?: Record<string, unknown> } {
  try {
    patched(text, body);
  } catch (error) {
    return error as { code?: string; message: string; details?: Record<string, unknown> };
  }
  throw new Error("the patch applied");
}

describe("applyHunks(): where a hunk of added lines only goes", () => {
  test("with no '@@' line it goes at the end, and a later hunk above it is still found", () => {
    // Codex applies this; before, the added-only hunk moved the search to the end of the file and the next hunk
    // failed "match nowhere ... nearest lines 1-3 (3 of 3 lines match)".
    const result = patched("a\nb\nc\n", "@@\n+tail\n@@\n a\n-b\n+B\n c\n");
    expect(result.text).toBe("a\nB\nc\ntail\n");
    expect([result.added, result.removed]).toEqual([2, 1]);
  });

  test("two of them at the end keep the patch's order, after the lines a later hunk changed there", () => {
    expect(patched("a\nz\n", "@@\n+one\n@@\n+two\n@@\n-z\n+Z\n").text).toBe("a\nZ\none\ntwo\n");
  });

  test("with an '@@' line it goes just after that line (Codex would put it at the end of the file)", () => {
    expect(patched("def a():\n    pass\ndef b():\n    pass\n", "@@ def a():\n+    # first\n").text)
      .toBe("def a():\n    # first\n    pass\ndef b():\n    pass\n");
  });

  test("from a unified diff it goes after the line its header names", () => {
    const [operation] = parsePatch("--- a/f.txt\n+++ b/f.txt\n@@ -1,0 +2,1 @@\n+new\n").operations;
    if (operation.kind !== "update") throw new Error("not an update");
    expect(applyHunks("a\nb\n", operation.hunks, "f.txt").text).toBe("a\nnew\nb\n");
  });
});

describe("applyHunks(): the lines kept are the patch's ' ' lines, with the file's own text and line end", () => {
  test("a removed line equal to a kept one: the kept one keeps its line end", () => {
    // Before, the lines kept were worked out from each end of the old and new text: `same\r\n` survived.
    expect(patched("same\r\nsame\n", "@@\n-same\n same\n").text).toBe("same\n");
    expect(patched("same\nsame\r\n", "@@\n same\n-same\n").text).toBe("same\n");
  });

  test("after a tolerant match the kept line keeps the file's whitespace, not the removed one's", () => {
    expect(patched("x  \nx\n", "@@\n-x\n x\n").text).toBe("x\n");
    expect(patched("  x\nx \n", "@@\n-x\n x\n+y\n").text).toBe("x \ny\n");
  });

  test("a context line inside a hunk keeps the file's text after a tolerant match", () => {
    expect(patched("a\n  b  \nc\n", "@@\n-a\n+A\n b\n-c\n+C\n").text).toBe("A\n  b  \nC\n");
  });

  test("a CRLF file without a final newline stays CRLF, and still has no final newline", () => {
    // Before, its last line counted as a line without CR: `ONE\ntwo`, a mixed file.
    expect(patched("one\r\ntwo", "@@\n-one\n+ONE\n two\n").text).toBe("ONE\r\ntwo");
    expect(patched("one\r\ntwo", "@@\n one\n two\n+three\n").text).toBe("one\r\ntwo\r\nthree");
    expect(patched("one\r\ntwo", "@@\n one\n-two\n").text).toBe("one");
    expect(patched("one\r\ntwo\r\n", "@@\n one\n-two\n").text).toBe("one\r\n");
  });

  test("a hunk built without marks takes the lines its two sides share at each end as context", () => {
    const hunk = { oldLines: ["a", "b", "c"], newLines: ["a", "B", "c"], endOfFile: false };
    expect(applyHunks("a\r\nb\r\nc\r\n", [hunk], "f.txt")).toMatchObject({
      text: "a\r\nB\r\nc\r\n",
      added: 1,
      removed: 1,
    });
  });

  test("the counts are the patch's '+' and '-' lines", () => {
    expect(patched("a\nb\na\n", "@@\n-a\n b\n+a\n-a\n+a\n")).toMatchObject({ text: "b\na\na\n", added: 2, removed: 2 });
  });
});

describe("applyHunks(): indentation drift", () => {
  test("spaces in the patch, tabs in the file: matched once, and the added lines take the file's tabs", () => {
    const file = "func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n";
    const result = patched(file, "@@\n     if x {\n-        return 1\n+        log()\n+        return 2\n     }\n");
    expect(result.text).toBe("func f() {\n\tif x {\n\t\tlog()\n\t\treturn 2\n\t}\n}\n");
    expect(result.tolerance).toBe("indentation");
  });

  test("tabs in the patch, spaces in the file: the added lines take the file's spaces", () => {
    const file = "class A:\n    def f(self):\n        return 1\n";
    const result = patched(file, "@@\n \tdef f(self):\n-\t\treturn 1\n+\t\tx = 2\n+\t\treturn x\n");
    expect(result.text).toBe("class A:\n    def f(self):\n        x = 2\n        return x\n");
  });

  test("four spaces a level in the patch, two in the file: the added lines take two", () => {
    const file = "if (a) {\n  if (b) {\n    go();\n  }\n}\n";
    const body = "@@\n     if (b) {\n-        go();\n+        if (c) {\n+            stop();\n+        }\n     }\n";
    expect(patched(file, body).text).toBe("if (a) {\n  if (b) {\n    if (c) {\n      stop();\n    }\n  }\n}\n");
  });

  test("a line added less indented than its anchor is placed by levels", () => {
    const file = "\tif a {\n\t\tb()\n\t}\n";
    expect(patched(file, "@@\n         b()\n-    }\n+    }\n+    c()\n").text).toBe("\tif a {\n\t\tb()\n\t}\n\tc()\n");
  });

  test("a match that needs the indentation ignored and fits two places is refused, naming both", () => {
    const error = failure("\tx()\n\ty()\n  x()\n  y()\n", "@@\n x()\n-y()\n+z()\n");
    expect(error.code).toBe("PATCH_HUNK_NOT_FOUND");
    expect(error.message).toBe(
      "Cannot apply patch to 'f.txt': hunk 1 of 1 matches only with its indentation ignored, and then at more " +
        "than one place (lines 1 and 3)",
    );
    expect(error.details).toEqual({ path: "f.txt", hunk: 1, ambiguous: { startLines: [1, 3] } });
  });

  test("an exact or trailing-whitespace match is said as such", () => {
    expect(patched("a\nb\n", "@@\n-a\n+A\n").tolerance).toBeUndefined();
    expect(patched("a  \nb\n", "@@\n-a\n+A\n").tolerance).toBe("trailing whitespace");
    expect(patched("say(\u2018hi\u2019)\n", "@@\n-say('hi')\n+say('bye')\n").tolerance).toBe("look-alike characters");
  });
});

describe("applyHunks(): a hunk that does not match says what a model can act on", () => {
  test("the nearest region, its line numbers, how many lines match, and the first differing line made visible", () => {
    const error = failure("a\n\tif (x) {\n\t\tgo();\n\t}\nz\n", "@@\n \tif (x) {\n-\t\tgo( );\n+\t\tstop();\n \t}\n");
    expect(error.code).toBe("PATCH_HUNK_NOT_FOUND");
    expect(error.details).toEqual({
      path: "f.txt",
      hunk: 1,
      nearest: {
        startLine: 2,
        matching: 2,
        lines: [{ line: 2, text: "\tif (x) {" }, { line: 3, text: "\t\tgo();" }, { line: 4, text: "\t}" }],
      },
      firstDifference: {
        line: 3,
        hunkLine: 2,
        kind: "text",
        patch: "\u2192\u2192go(\u00B7);",
        file: "\u2192\u2192go();",
      },
    });
    expect(error.message).toBe(
      "Cannot apply patch to 'f.txt': hunk 1 of 1 not found, its lines match nowhere in the file; nearest lines 2-4 " +
        "(2 of 3 lines match), first difference at line 3 (text): the patch has '\u2192\u2192go(\u00B7);', the file " +
        "has '\u2192\u2192go();':\n2: \tif (x) {\n3: \t\tgo();\n4: \t}",
    );
  });

  test("hunks out of the file's order: said as such, not 'nearest lines (3 of 3 lines match)'", () => {
    const error = failure("a\nb\nc\nd\ne\n", "@@\n d\n-e\n+E\n@@\n a\n-b\n+B\n");
    expect(error.message).toBe(
      "Cannot apply patch to 'f.txt': hunk 2 of 2 not found, its lines match nowhere at or after line 6 (where " +
        "the previous hunk or its '@@' line ended); its lines are at lines 1-2, above that: give the hunks in the " +
        "order their lines have in the file:\n1: a\n2: b",
    );
    expect(error.details).toMatchObject({ hunk: 2, searchedFromLine: 6, nearest: { startLine: 1, matching: 2 } });
  });
});

describe("applyHunks(): a patch applied already", () => {
  const body = "@@\n one\n-two\n+TWO\n three\n@@\n five\n-six\n+SIX\n";
  const before = "one\ntwo\nthree\nfour\nfive\nsix\n";

  test("every hunk's new lines in place and its old ones gone: already applied, the text unchanged", () => {
    const once = patched(before, body);
    expect(once.text).toBe("one\nTWO\nthree\nfour\nfive\nSIX\n");
    expect(patched(once.text, body)).toEqual({
      text: once.text,
      added: 0,
      removed: 0,
      fuzzy: false,
      alreadyApplied: true,
    });
  });

  test("with an added-only hunk too, when its lines are in the file", () => {
    const withTail = `${body}@@\n+seven\n`;
    const once = patched(before, withTail).text;
    expect(patched(once, withTail).alreadyApplied).toBe(true);
  });

  test("some hunks in place and another missing: an error that says so, nothing applied", () => {
    const error = failure("one\nTWO\nthree\nfour\nfive\nsix\n", "@@\n one\n-two\n+TWO\n three\n@@\n-nine\n+NINE\n");
    expect(error.code).toBe("PATCH_HUNK_NOT_FOUND");
    expect(error.message).toMatch(/hunk 2 of 2 not found/);
    const mixed = failure(
      "one\nTWO\nthree\nfour\nfive\nsix\n",
      "@@\n one\n-two\n+TWO\n three\n@@\n five\n-six\n+SIX\n@@\n+x\n",
    );
    expect(mixed).toMatchObject({ code: "PATCH_HUNK_NOT_FOUND", details: { alreadyAppliedHunks: [1] } });
    expect(mixed.message).toBe(
      "Cannot apply patch to 'f.txt': hunk 1 of 3 looks applied already (hunk 1's new lines are at line 1, its old " +
        "ones nowhere), but not the others: the file was changed another way",
    );
  });

  test("new lines that occur at more than one place, or only tolerantly, are no sign of a patch applied", () => {
    expect(failure("b\nb\n", "@@\n-a\n+b\n").message).toMatch(/not found/);
    expect(failure("b \n", "@@\n-a\n+b\n").message).toMatch(/not found/);
  });
});

describe("seekLines(): folding the file's lines is paid from the budget", () => {
  test("each pass folded costs 16 steps a line and one a UTF-16 unit, spent once per pass", () => {
    const lines = Array.from({ length: 1_000 }, (_, i) => `line ${i}`);
    const units = lines.reduce((sum, line) => sum + line.length, 0);
    const index = new LineIndex(lines, { stepsLeft: 10_000_000 });
    // A pattern line no pass finds: all four passes folded, no comparison made beyond the pattern's look-ups.
    expect(seekLines(index, ["absent"], 0, false)).toBeUndefined();
    expect(10_000_000 - index.budget.stepsLeft).toBe(4 * (16 * lines.length + units) + 4);
    // Folded once: a second search spends only its look-ups.
    const left = index.budget.stepsLeft;
    expect(seekLines(index, ["absent"], 0, false)).toBeUndefined();
    expect(left - index.budget.stepsLeft).toBe(4);
  });

  test("a patch of many files whose hunks match only loosely runs out of one budget, not one per file", () => {
    // Before, each file's four folds cost nothing: 64 such files were seconds of CPU within the limit.
    const text = "x\n".repeat(100_000) + "say(\u2018hi\u2019)\n";
    const budget = { stepsLeft: APPLY_PATCH_MAX_MATCH_STEPS };
    const hunks = hunksOf("@@\n-say('hi')\n+say('bye')\n");
    let files = 0;
    const run = () => {
      for (; files < 64; files++) applyHunksWithin(text, hunks, `f${files + 1}.txt`, budget);
    };
    expect(run).toThrow(/f\d+\.txt': hunk 1 of 1 not found within 33554432 line comparisons/);
    // Each file folds 100,001 lines four times: about 7.2 million steps; the fifth file does not fit.
    expect(files).toBe(4);
  });
});
