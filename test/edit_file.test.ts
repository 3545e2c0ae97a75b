import { afterEach, describe, expect, test } from "vitest";
import { createEditTool, createReadTool, executeToolCall, ToolRegistry } from "../mod.ts";
import { codeOf, errorOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { unopened } from "./helpers/unopened.ts";

for (const host of TEST_HOSTS) {
  describe(`edit_file on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    const open = async (tree: string[]) => (fixture = await host.open(tree));
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    test("replaces a unique match and returns a unified diff", async () => {
      const ws = await open(["a.txt=one\nhello world\nthree\n"]);
      const result = await createEditTool(ws.workspace).execute({
        path: "a.txt",
        old_string: "world",
        new_string: "there",
      });
      expect(await ws.readRaw("a.txt")).toBe("one\nhello there\nthree\n");
      expect(result).toMatchObject({ path: "a.txt", replacements: 1, fuzzy: false, dryRun: false, bytes: 22 });
      expect(result.diff).toContain("--- a.txt\n+++ a.txt\n");
      expect(result.diff).toContain("-hello world\n+hello there\n");
      expect(result.diffTruncated).toBeUndefined();
      expect(await ws.leftovers()).toEqual([]);
    });

    test("refuses a match that is not unique, naming the count and the lines", async () => {
      const ws = await open(["a.txt=x = 1\ny\nx = 1\nz\nx = 1\n"]);
      const error = await errorOf(
        createEditTool(ws.workspace).execute({ path: "a.txt", old_string: "x = 1", new_string: "x = 2" }),
      );
      expect(error.code).toBe("EDIT_NOT_UNIQUE");
      expect(error.message).toBe("Cannot edit 'a.txt': old_string matches 3 times (lines 1, 3, 5)");
      expect(error.hint).toContain("replace_all");
      expect(await ws.readRaw("a.txt")).toBe("x = 1\ny\nx = 1\nz\nx = 1\n");
    });

    test("replaces every match with replace_all", async () => {
      const ws = await open(["a.txt=x = 1\ny\nx = 1\n"]);
      const result = await createEditTool(ws.workspace).execute({
        path: "a.txt",
        old_string: "x = 1",
        new_string: "x = 2",
        replace_all: true,
      });
      expect(result.replacements).toBe(2);
      expect(await ws.readRaw("a.txt")).toBe("x = 2\ny\nx = 2\n");
    });

    test("reports text that is not there as EDIT_NOT_FOUND and writes nothing", async () => {
      const ws = await open(["a.txt=alpha\n"]);
      const error = await errorOf(
        createEditTool(ws.workspace).execute({ path: "a.txt", old_string: "beta", new_string: "b" }),
      );
      expect(error.code).toBe("EDIT_NOT_FOUND");
      expect(error.message).toBe("Cannot edit 'a.txt': old_string was not found");
      expect(await ws.readRaw("a.txt")).toBe("alpha\n");
      expect(await ws.leftovers()).toEqual([]);
    });

    test("falls back to a whitespace- and quote-tolerant match and replaces only the matched range", async () => {
      const file = "function f() {\n\tconst s = ‘hi’;   \n\treturn s;\n}\n// keep — “these”  \n";
      const ws = await open([`a.js=${file}`]);
      const result = await createEditTool(ws.workspace).execute({
        path: "a.js",
        old_string: "  const s = 'hi';\n  return s;",
        new_string: "  const s = 'bye';\n  return s;",
      });
      expect(result.fuzzy).toBe(true);
      expect(result.tolerance).toBe("indentation+lookalikes");
      // The replacement takes the file's indentation (tabs), not the edit's (spaces).
      expect(await ws.readRaw("a.js")).toBe(
        "function f() {\n\tconst s = 'bye';\n\treturn s;\n}\n// keep — “these”  \n",
      );
    });

    test("keeps the bytes around a tolerant match inside a line", async () => {
      const ws = await open(["a.ts=let x = “a” — 1;  // “c”\nx;\n"]);
      await createEditTool(ws.workspace).execute({
        path: "a.ts",
        old_string: 'x = "a" - 1',
        new_string: 'x = "b" - 2',
      });
      expect(await ws.readRaw("a.ts")).toBe('let x = "b" - 2;  // “c”\nx;\n');
    });

    test("keeps CRLF line endings, also in the new text", async () => {
      const ws = await open(["a.txt=one\r\ntwo\r\nthree\r\n"]);
      await createEditTool(ws.workspace).execute({
        path: "a.txt",
        old_string: "one\ntwo",
        new_string: "uno\ndos\nmore",
      });
      expect(await ws.readRaw("a.txt")).toBe("uno\r\ndos\r\nmore\r\nthree\r\n");
    });

    test("keeps LF line endings when the new text brings CRLF", async () => {
      const ws = await open(["a.txt=one\ntwo\n"]);
      await createEditTool(ws.workspace).execute({ path: "a.txt", old_string: "one\r\n", new_string: "1\r\n1.5\r\n" });
      expect(await ws.readRaw("a.txt")).toBe("1\n1.5\ntwo\n");
    });

    test("keeps a UTF-8 byte order mark and leaves it out of the diff", async () => {
      const ws = await open(["a.txt=\uFEFFfirst\nsecond\n"]);
      const result = await createEditTool(ws.workspace).execute({
        path: "a.txt",
        old_string: "first",
        new_string: "1st",
      });
      expect(await ws.readRaw("a.txt")).toBe("\uFEFF1st\nsecond\n");
      expect(result.diff).not.toContain("\uFEFF");
    });

    test("applies several edits in order, each to the result of the one before", async () => {
      const ws = await open(["a.txt=a b c\n"]);
      const result = await createEditTool(ws.workspace).execute({
        path: "a.txt",
        edits: [
          { old_string: "a", new_string: "x" },
          { old_string: "x b", new_string: "y" },
          { old_string: "c", new_string: "z", replace_all: true },
        ],
      });
      expect(result.replacements).toBe(3);
      expect(await ws.readRaw("a.txt")).toBe("y z\n");
    });

    test("applies several edits all or nothing", async () => {
      const ws = await open(["a.txt=a b c\n"]);
      const error = await errorOf(
        createEditTool(ws.workspace).execute({
          path: "a.txt",
          edits: [{ old_string: "a", new_string: "x" }, { old_string: "missing", new_string: "m" }],
        }),
      );
      expect(error.code).toBe("EDIT_NOT_FOUND");
      expect(error.message).toBe("Cannot edit 'a.txt': edits[1].old_string was not found");
      expect(await ws.readRaw("a.txt")).toBe("a b c\n");
      expect(await ws.leftovers()).toEqual([]);
    });

    test("writes nothing on a dry run but returns the diff", async () => {
      const ws = await open(["a.txt=keep\n"]);
      const result = await createEditTool(ws.workspace).execute({
        path: "a.txt",
        old_string: "keep",
        new_string: "change",
        dry_run: true,
      });
      expect(result.dryRun).toBe(true);
      expect(result.diff).toContain("-keep\n+change\n");
      expect(await ws.readRaw("a.txt")).toBe("keep\n");
      expect(await ws.leftovers()).toEqual([]);
    });

    test("refuses an edit through a link out of the workspace", async () => {
      const ws = await open(["file-out => @outside/secret.txt", "dir-out => @outside"]);
      for (const path of ["file-out", "dir-out/secret.txt"]) {
        const code = await codeOf(
          createEditTool(ws.workspace).execute({ path, old_string: "SECRET", new_string: "x" }),
        );
        expect(code).toBe("PATH_ESCAPES_WORKSPACE");
      }
      expect(await ws.outsideIntact()).toBe(true);
    });

    test("refuses a file over the size limit, and an edit that would grow it over the limit", async () => {
      const ws = await open(["big.txt=" + "x".repeat(100), "small.txt=abc"]);
      const edit = createEditTool(ws.workspace, { maxFileBytes: 50 });
      expect(await codeOf(edit.execute({ path: "big.txt", old_string: "x", new_string: "y", replace_all: true })))
        .toBe("FILE_TOO_LARGE");
      expect(await codeOf(edit.execute({ path: "small.txt", old_string: "abc", new_string: "z".repeat(60) })))
        .toBe("FILE_TOO_LARGE");
      expect(await ws.readRaw("small.txt")).toBe("abc");
    });

    test("cuts a long diff on a line boundary and says so", async () => {
      const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`).join("\n") + "\n";
      const ws = await open([`a.txt=${lines}`]);
      const result = await createEditTool(ws.workspace, { maxDiffBytes: 300 }).execute({
        path: "a.txt",
        old_string: "line",
        new_string: "LINE",
        replace_all: true,
      });
      expect(result.diffTruncated).toBe(true);
      expect(new TextEncoder().encode(result.diff).length).toBeLessThanOrEqual(300);
      expect(result.diff.endsWith("\n")).toBe(true);
    });

    test("refuses a tolerant match that is not unique", async () => {
      const ws = await open(['a.txt=\tsay(“hi”);\nsay("hi");  \n']);
      const error = await errorOf(
        createEditTool(ws.workspace).execute({ path: "a.txt", old_string: "say('hi');", new_string: "x" }),
      );
      expect(error.code).toBe("EDIT_NOT_FOUND");
      const twice = await errorOf(
        createEditTool(ws.workspace).execute({ path: "a.txt", old_string: '  say("hi");', new_string: "x" }),
      );
      expect(twice.code).toBe("EDIT_NOT_UNIQUE");
      expect(twice.message).toContain("matches 2 times (lines 1, 2)");
    });

    test("EDIT_NOT_FOUND's details name the nearest region, how many lines match and the first that differs", async () => {
      const ws = await open(["a.txt=function a() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n"]);
      const error = await errorOf(
        createEditTool(ws.workspace).execute({
          path: "a.txt",
          old_string: "\tif (y) {\n\t\treturn 1;\n\t}",
          new_string: "z",
        }),
      );
      expect(error.code).toBe("EDIT_NOT_FOUND");
      expect(error.message).toBe("Cannot edit 'a.txt': old_string was not found");
      expect(error.hint).toContain("lines 2-4 come closest (2 of 3 lines match exactly; line 2 differs");
      expect(error.details).toEqual({
        nearest: {
          startLine: 2,
          endLine: 4,
          matchedLines: 2,
          oldLines: 3,
          text: "\tif (x) {\n\t\treturn 1;\n\t}",
          firstDifference: { line: 2, expected: "→if·(y)·{", found: "→if·(x)·{" },
        },
      });
      expect(await ws.readRaw("a.txt")).toBe("function a() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n");
      const none = await errorOf(
        createEditTool(ws.workspace).execute({ path: "a.txt", old_string: "zzz", new_string: "y" }),
      );
      expect(none.details).toEqual({ nearest: null });
    });

    test("a replayed edit says already applied and writes nothing", async () => {
      const ws = await open(["a.txt=one\nhello world\nthree\n"]);
      const edit = createEditTool(ws.workspace, { staleWriteGuard: true });
      const args = { path: "a.txt", old_string: "hello world", new_string: "hello there" };
      await createReadTool(ws.workspace).execute({ path: "a.txt" });
      expect((await edit.execute(args)).replacements).toBe(1);
      const stat = await ws.workspace.host.lstat(ws.workspace.hostPath(["a.txt"]));
      const again = await edit.execute(args);
      expect(again).toEqual({
        path: "a.txt",
        replacements: 0,
        fuzzy: false,
        dryRun: false,
        bytes: 22,
        diff: "",
        alreadyApplied: true,
      });
      const after = await ws.workspace.host.lstat(ws.workspace.hostPath(["a.txt"]));
      expect([after.ino, after.mtimeMs]).toEqual([stat.ino, stat.mtimeMs]);
      expect(await ws.readRaw("a.txt")).toBe("one\nhello there\nthree\n");
    });

    test("tab/space indentation drift matches once and the replacement takes the file's indentation", async () => {
      const ws = await open(["a.txt=function a() {\n\tif (x) {\n\t\treturn 1;\n\t}\n}\n"]);
      const result = await createEditTool(ws.workspace).execute({
        path: "a.txt",
        old_string: "    if (x) {\n        return 1;\n    }",
        new_string: "    if (x) {\n        log();\n        return 2;\n    }",
      });
      expect(result).toMatchObject({ fuzzy: true, tolerance: "indentation", replacements: 1 });
      expect(await ws.readRaw("a.txt")).toBe("function a() {\n\tif (x) {\n\t\tlog();\n\t\treturn 2;\n\t}\n}\n");
    });

    test("refuses a binary file and leaves it alone", async () => {
      const ws = await open([]);
      const file = await ws.workspace.host.open(ws.workspace.hostPath(["bin.dat"]), {
        write: true,
        createExclusive: true,
        mode: 0o644,
      });
      await file.write(new Uint8Array([0x61, 0xff, 0x00, 0x62]), 0);
      await file.close();
      const code = await codeOf(
        createEditTool(ws.workspace).execute({ path: "bin.dat", old_string: "a", new_string: "b" }),
      );
      expect(code).toBe("BINARY_FILE");
      expect(await ws.listAll()).toEqual(["bin.dat"]);
    });

    test("refuses a folder and a missing file", async () => {
      const ws = await open(["d/"]);
      expect(await codeOf(createEditTool(ws.workspace).execute({ path: "d", old_string: "a", new_string: "b" })))
        .toBe("NOT_A_FILE");
      expect(await codeOf(createEditTool(ws.workspace).execute({ path: "missing", old_string: "a", new_string: "b" })))
        .toBe("NOT_FOUND");
    });
  });
}

describe("edit_file arguments", () => {
  const edit = createEditTool(unopened());
  test.each([
    {
      name: "both forms",
      args: { path: "a", old_string: "a", new_string: "b", edits: [{ old_string: "a", new_string: "b" }] },
    },
    { name: "neither form", args: { path: "a" } },
    { name: "an empty old_string", args: { path: "a", old_string: "", new_string: "b" } },
    { name: "an empty old_string in edits", args: { path: "a", edits: [{ old_string: "", new_string: "b" }] } },
    { name: "no new_string", args: { path: "a", old_string: "a" } },
    { name: "old_string equal to new_string", args: { path: "a", old_string: "a", new_string: "a" } },
    { name: "no edits in the list", args: { path: "a", edits: [] } },
    { name: "an unknown property", args: { path: "a", old_string: "a", new_string: "b", force: true } },
  ])("refuses $name as INVALID_ARGUMENTS before touching the disk", async ({ args }) => {
    expect(await codeOf(edit.execute(args))).toBe("INVALID_ARGUMENTS");
  });

  test("refuses edits over the input limit as CONTENT_TOO_LARGE", async () => {
    const small = createEditTool(unopened(), { maxInputBytes: 10 });
    expect(await codeOf(small.execute({ path: "a", old_string: "é".repeat(3), new_string: "abcde" }))).toBe(
      "CONTENT_TOO_LARGE",
    );
  });

  test("advertises one plain object schema for both forms", () => {
    expect(edit.inputSchema).toMatchObject({
      type: "object",
      required: ["path"],
      additionalProperties: false,
      properties: {
        old_string: { type: "string", minLength: 1 },
        edits: { type: "array", items: { type: "object", additionalProperties: false } },
      },
    });
  });

  test("reports a bad call as a tool result, not a throw", async () => {
    const registry = new ToolRegistry([edit]);
    const result = await executeToolCall(registry, {
      id: "1",
      name: "edit_file",
      arguments: { path: "../x", old_string: "a", new_string: "b" },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "INVALID_RELATIVE_PATH",
        hint: expect.stringContaining("would leave the workspace"),
      },
    });
  });
});
