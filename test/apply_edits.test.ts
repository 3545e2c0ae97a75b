// The edit algorithm on its own, without a file: src/core/text/apply_edits.ts is
// pure, so its rules are checked on strings (edit_file.test.ts checks the tool).
import { describe, expect, test } from "vitest";
import { applyEdits, type EditOperation } from "../src/core/text/apply_edits.ts";
import { WorkspaceError } from "../mod.ts";

const edit = (oldString: string, newString: string, replaceAll = false): EditOperation => ({
  oldString,
  newString,
  replaceAll,
});

function codeOf(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    return error instanceof WorkspaceError ? error.code : String(error);
  }
}

describe("applyEdits()", () => {
  test("replaces a unique match and counts it", () => {
    expect(applyEdits("a b c\n", [edit("b", "x")], "f.txt")).toEqual({
      text: "a x c\n",
      replacements: 1,
      fuzzy: false,
      alreadyApplied: 0,
    });
  });

  test("gives both strings the text's CRLF line ending", () => {
    expect(applyEdits("a\r\nb\r\n", [edit("b\n", "c\nd\n")], "f.txt").text).toBe("a\r\nc\r\nd\r\n");
  });

  test("applies edits in order, each to the result of the one before", () => {
    const result = applyEdits("one\n", [edit("one", "two"), edit("two", "three")], "f.txt");
    expect(result).toEqual({ text: "three\n", replacements: 2, fuzzy: false, alreadyApplied: 0 });
  });

  test("refuses a match that is not unique, naming the lines, unless replaceAll", () => {
    let error: unknown;
    try {
      applyEdits("x\ny\nx\n", [edit("x", "z")], "f.txt");
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: "EDIT_NOT_UNIQUE", message: expect.stringContaining("lines 1, 3") });
    expect(applyEdits("x\ny\nx\n", [edit("x", "z", true)], "f.txt").text).toBe("z\ny\nz\n");
  });

  test("falls back to a tolerant match and says so", () => {
    const result = applyEdits("  if (a) {\n    go();\n  }\n", [edit("if (a) {\n  go();\n}", "done();")], "f.txt");
    expect(result.fuzzy).toBe(true);
    expect(result.text).toBe("  done();\n");
  });

  test("reports text that is not there, naming which edit of several", () => {
    let error: unknown;
    try {
      applyEdits("abc", [edit("a", "x"), edit("nope", "y")], "f.txt");
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: "EDIT_NOT_FOUND", message: expect.stringContaining("edits[1].old_string") });
    expect(codeOf(() => applyEdits("abc", [edit("nope", "y")], "f.txt"))).toBe("EDIT_NOT_FOUND");
  });
});
