import { applyPatch, createPatch, FILE_HEADERS_ONLY } from "diff";
import { describe, expect, test } from "vitest";
import { EDIT_FILE_MAX_DIFF_EDITS } from "../src/core/limits.ts";
import { unifiedDiff } from "../src/core/text/unified_diff.ts";
import { random } from "./helpers/random.ts";

describe("unifiedDiff()", () => {
  test("gives a patch that turns the old text into the new one, for random edits", () => {
    const next = random(7);
    const words = ["a", "b", "c", "\n", "\r\n", "\n\n", "dd"];
    const text = (length: number) => Array.from({ length }, () => words[Math.floor(next() * words.length)]).join("");
    for (let round = 0; round < 500; round++) {
      const before = text(Math.floor(next() * 80));
      let after = before;
      for (let edits = Math.floor(next() * 3); edits >= 0; edits--) {
        const start = Math.floor(next() * (after.length + 1));
        const end = Math.min(after.length, start + Math.floor(next() * 6));
        after = after.slice(0, start) + text(Math.floor(next() * 4)) + after.slice(end);
      }
      const diff = unifiedDiff("f.txt", before, after);
      // fuzzFactor 0 (the default): every context line and line number must be exact.
      expect(applyPatch(before, diff), JSON.stringify({ before, after })).toBe(after);
    }
  });

  test("gives the same text as createPatch when the lines are distinct", () => {
    const lines = Array.from({ length: 300 }, (_, i) => `const value${i} = ${i};\r\n`);
    const before = lines.join("");
    const after = lines.map((line, i) => i === 5 || i === 150 ? line.replace("=", "==") : line).join("") + "tail";
    const expected = createPatch("f.txt", before, after, undefined, undefined, {
      context: 3,
      headerOptions: FILE_HEADERS_ONLY,
    });
    expect(unifiedDiff("f.txt", before, after)).toBe(expected);
    expect(unifiedDiff("f.txt", before, before)).toBe(createPatch("f.txt", before, before, undefined, undefined, {
      context: 3,
      headerOptions: FILE_HEADERS_ONLY,
    }));
  });

  // Found by a red-team pass: a replace_all over every line of a 64 KB file spent minutes in the
  // diff's search for the shortest edit, with the event loop held.
  test(`past ${EDIT_FILE_MAX_DIFF_EDITS} line edits, the changed region is one hunk that still applies`, () => {
    const next = random(11);
    const many = EDIT_FILE_MAX_DIFF_EDITS + 10;
    for (let round = 0; round < 40; round++) {
      const lines = Array.from({ length: many + Math.floor(next() * 200) }, (_, i) => `l${i % 7}\n`);
      const before = lines.join("") + (round % 2 === 0 ? "" : "no newline");
      const changed = lines.map((line) => (next() < 0.9 ? line.replace("l", "m") : line));
      const after = round % 5 === 0 ? "" : changed.join("") + (round % 3 === 0 ? "end" : "");
      const diff = unifiedDiff("f.txt", round % 7 === 0 ? "" : before, after);
      expect(applyPatch(round % 7 === 0 ? "" : before, diff), `round ${round}`).toBe(after);
    }
    const before = "keep\n" + "a\n".repeat(32_000) + "keep\n";
    const diff = unifiedDiff("f.txt", before, before.replaceAll("a", "b"));
    expect(diff.split("\n").filter((line) => line.startsWith("@@"))).toEqual(["@@ -1,32002 +1,32002 @@"]);
    expect(applyPatch(before, diff)).toBe(before.replaceAll("a", "b"));
  });
});
