import * as fs from "node:fs";
import { describe, expect, test } from "vitest";
import {
  type AnyTool,
  createApplyPatchTool,
  createCodingTools,
  createUndoLastChangeTool,
  executeToolCall,
  ToolRegistry,
} from "../mod.ts";
import { parsePatch, renamePatchPaths } from "../src/patch.ts";
import { DEFAULT_PROTECTED_PATHS } from "../src/core/fs/protected_paths.ts";
import { toAISDKTools } from "../src/adapters/ai_sdk.ts";
import { fromAnthropicToolUse, toAnthropicToolResult, toAnthropicTools } from "../src/adapters/anthropic.ts";
import { fromOpenAIToolCall, toOpenAITools } from "../src/adapters/openai.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { HOSTILE_PATCHES, PATCH_TREE } from "./cases/hostile_patches.ts";
import { applyHunks } from "../src/core/text/apply_hunks.ts";
import type { Tree } from "./helpers/fixture.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { callTool } from "./helpers/tool_call.ts";
import { unopened } from "./helpers/unopened.ts";

/** Every entry with its content (folders and unreadable entries as `null`): what "nothing changed" compares. */
async function snapshot(ws: TestWorkspace): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const entry of await ws.listAll()) out[entry] = entry.endsWith("/") ? null : await ws.readRaw(entry);
  return out;
}

async function withPatchWorkspace(
  open: (tree: Tree) => Promise<TestWorkspace>,
  tree: Tree,
  body: (ws: TestWorkspace, registry: ToolRegistry) => Promise<void>,
  tools: (ws: TestWorkspace) => AnyTool[] = (ws) => [createApplyPatchTool(ws.workspace)],
): Promise<void> {
  const ws = await open(tree);
  try {
    await body(ws, new ToolRegistry(tools(ws)));
    expect(await ws.leftovers()).toEqual([]);
    expect(await ws.outsideIntact()).toBe(true);
  } finally {
    await ws.cleanup();
  }
}

const begin = (body: string) => `*** Begin Patch\n${body}*** End Patch\n`;

for (const host of TEST_HOSTS) {
  describe(`apply_patch on the ${host.name} host`, () => {
    describe("refuses every hostile patch and changes nothing", () => {
      for (const row of HOSTILE_PATCHES) {
        test(row.name, async () => {
          const tools = (ws: TestWorkspace) => [
            createApplyPatchTool(ws.workspace, { protectedPaths: row.protectedPaths ? DEFAULT_PROTECTED_PATHS : [] }),
          ];
          await withPatchWorkspace(host.open, row.tree, async (ws, registry) => {
            const before = await snapshot(ws);
            const { isError, body } = await callTool(registry, "apply_patch", { patch: row.patch });
            expect(isError).toBe(true);
            expect(body.error.code).toBe(row.code);
            if (row.message !== undefined) expect(body.error.message).toBe(row.message);
            expect(await snapshot(ws)).toEqual(before);
          }, tools);
        });
      }
    });

    test("apply_patch() adds, updates, moves and deletes in one call and counts the lines", async () => {
      await withPatchWorkspace(host.open, PATCH_TREE, async (ws, registry) => {
        const patch = begin(
          "*** Add File: new/dir/hello.txt\n+hello\n+world\n" +
            "*** Update File: a.txt\n@@\n one\n-two\n+TWO\n+2\n three\n" +
            "*** Update File: d/b.txt\n*** Move to: e/moved.txt\n@@\n alpha\n-beta\n+BETA\n" +
            "*** Delete File: package.json\n",
        );
        const { isError, body } = await callTool(registry, "apply_patch", { patch });
        expect(isError).toBe(false);
        expect(body).toEqual({
          files: [
            { path: "new/dir/hello.txt", action: "added", added: 2, removed: 0 },
            { path: "a.txt", action: "updated", added: 2, removed: 1 },
            { path: "d/b.txt", action: "moved", destination: "e/moved.txt", added: 1, removed: 1 },
            { path: "package.json", action: "deleted", added: 0, removed: 1 },
          ],
        });
        expect(await ws.readRaw("new/dir/hello.txt")).toBe("hello\nworld\n");
        expect(await ws.readRaw("a.txt")).toBe("one\nTWO\n2\nthree\n");
        expect(await ws.readRaw("e/moved.txt")).toBe("alpha\nBETA\n");
        expect(await ws.readRaw("d/b.txt")).toBeNull();
        expect(await ws.readRaw("package.json")).toBeNull();
      });
    });

    test("apply_patch() sent twice: the second says already applied, writes nothing and makes no undo group", async () => {
      const tools = (ws: TestWorkspace) => [
        createApplyPatchTool(ws.workspace),
        createUndoLastChangeTool(ws.workspace),
      ];
      await withPatchWorkspace(host.open, PATCH_TREE, async (ws, registry) => {
        const patch = begin(
          "*** Add File: new/hello.txt\n+hello\n" +
            "*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n" +
            "*** Update File: d/b.txt\n*** Move to: e/moved.txt\n@@\n alpha\n-beta\n+BETA\n" +
            "*** Delete File: package.json\n",
        );
        const before = await snapshot(ws);
        expect((await callTool(registry, "apply_patch", { patch })).isError).toBe(false);
        const after = await snapshot(ws);
        const again = await callTool(registry, "apply_patch", { patch });
        expect(again.body).toEqual({
          files: [
            { path: "new/hello.txt", action: "added", added: 0, removed: 0, alreadyApplied: true },
            { path: "a.txt", action: "updated", added: 0, removed: 0, alreadyApplied: true },
            {
              path: "d/b.txt",
              action: "moved",
              destination: "e/moved.txt",
              added: 0,
              removed: 0,
              alreadyApplied: true,
            },
            { path: "package.json", action: "deleted", added: 0, removed: 0, alreadyApplied: true },
          ],
          alreadyApplied: true,
        });
        expect(again.isError).toBe(false);
        expect(await snapshot(ws)).toEqual(after);
        // The replay made no undo group: undo takes back the first patch.
        const undo = await callTool(registry, "undo_last_change", {});
        expect(undo.isError).toBe(false);
        expect(await snapshot(ws)).toEqual(before);
        // A file gone is applied only beside files shown applied: a delete of a missing file alone is an error.
        const gone = await callTool(registry, "apply_patch", { patch: begin("*** Delete File: missing.txt\n") });
        expect(gone.body.error.code).toBe("NOT_FOUND");
      }, tools);
    });

    test("apply_patch() says which tolerance a hunk was matched with", async () => {
      await withPatchWorkspace(host.open, ["f.txt=\tif (x) {\n\t\tgo();\n\t}\n"], async (ws, registry) => {
        const { body } = await callTool(registry, "apply_patch", {
          patch: begin("*** Update File: f.txt\n@@\n     if (x) {\n-        go();\n+        stop();\n     }\n"),
        });
        expect(body).toEqual({
          files: [{ path: "f.txt", action: "updated", added: 1, removed: 1, tolerance: "indentation" }],
        });
        expect(await ws.readRaw("f.txt")).toBe("\tif (x) {\n\t\tstop();\n\t}\n");
      });
    });

    test("apply_patch() names the file, the hunk and the nearest lines when a hunk matches nowhere", async () => {
      const tree = ["src/app.ts=import x from 'x';\n\nfunction start() {\n  return 1;\n}\n\nstart();\n"];
      await withPatchWorkspace(host.open, tree, async (ws, registry) => {
        const patch = begin(
          "*** Update File: src/app.ts\n@@\n-import x from 'x';\n+import y from 'y';\n" +
            "@@\n function start() {\n-  return 2;\n+  return 3;\n }\n",
        );
        const { isError, body } = await callTool(registry, "apply_patch", { patch });
        expect(isError).toBe(true);
        expect(body.error).toEqual({
          code: "PATCH_HUNK_NOT_FOUND",
          message: "Cannot apply patch to 'src/app.ts': hunk 2 of 2 not found, its lines match nowhere at or after " +
            "line 2 (where the previous hunk or its '@@' line ended); nearest lines 3-5 (2 of 3 lines match), first " +
            "difference at line 4 (text): the patch has '\u00B7\u00B7return\u00B72;', the file has " +
            "'\u00B7\u00B7return\u00B71;':\n3: function start() {\n4:   return 1;\n5: }",
          hint:
            "read 'src/app.ts' again and resend the whole patch with context and '-' lines exactly as the file has them (nothing was changed)",
          details: {
            path: "src/app.ts",
            hunk: 2,
            searchedFromLine: 2,
            firstDifference: { line: 4, hunkLine: 2, kind: "text", patch: "··return·2;", file: "··return·1;" },
            nearest: {
              startLine: 3,
              matching: 2,
              lines: [
                { line: 3, text: "function start() {" },
                { line: 4, text: "  return 1;" },
                { line: 5, text: "}" },
              ],
            },
          },
        });
        expect(await ws.readRaw("src/app.ts")).toBe(tree[0].slice("src/app.ts=".length));
      });
    });

    test("apply_patch() leaves every file's bytes as they were when the last file fails", async () => {
      const tree = ["one.txt=1\n", "two.txt=2\n", "three.txt=3\n"];
      await withPatchWorkspace(host.open, tree, async (ws, registry) => {
        const before = await snapshot(ws);
        const patch = begin(
          "*** Update File: one.txt\n@@\n-1\n+one\n*** Delete File: two.txt\n*** Add File: four.txt\n+4\n" +
            "*** Update File: three.txt\n@@\n-three\n+THREE\n",
        );
        const { body } = await callTool(registry, "apply_patch", { patch });
        expect(body.error.code).toBe("PATCH_HUNK_NOT_FOUND");
        expect(body.error.message).toContain("'three.txt': hunk 1 of 1");
        expect(await snapshot(ws)).toEqual(before);
      });
    });

    describe("accepts the lenient forms models write", () => {
      const cases: { name: string; file: string; patch: string; after: string }[] = [
        {
          name: "no '*** End Patch'",
          file: "a\nb\n",
          patch: "*** Begin Patch\n*** Update File: f.txt\n@@\n-a\n+A\n",
          after: "A\nb\n",
        },
        {
          name: "CRLF line ends in the patch",
          file: "a\nb\n",
          patch: "*** Begin Patch\r\n*** Update File: f.txt\r\n@@\r\n-a\r\n+A\r\n*** End Patch\r\n",
          after: "A\nb\n",
        },
        {
          name: "a CRLF file stays CRLF",
          file: "a\r\nb\r\n",
          patch: begin("*** Update File: f.txt\n@@\n a\n-b\n+B\n"),
          after: "a\r\nB\r\n",
        },
        {
          name: "a file with mixed line ends keeps each kept line's own",
          file: "a\r\nb\nc\r\nd\r\n",
          patch: begin("*** Update File: f.txt\n@@\n b\n-c\n+C\n+C2\n d\n"),
          after: "a\r\nb\nC\r\nC2\r\nd\r\n",
        },
        {
          name: "trailing whitespace on context lines",
          file: "a\nb\nc\n",
          patch: begin("*** Update File: f.txt\n@@\n a   \n-b\t\n+B\n c \n"),
          after: "a\nB\nc\n",
        },
        {
          name: "indentation that differs",
          file: "  if (x) {\n    go();\n  }\n",
          patch: begin("*** Update File: f.txt\n@@\n if (x) {\n-go();\n+stop();\n }\n"),
          // Matched once indentation is ignored (at one place): the new line takes the file's indentation.
          after: "  if (x) {\n    stop();\n  }\n",
        },
        {
          name: "a heredoc around the patch",
          file: "a\n",
          patch: "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: f.txt\n@@\n-a\n+A\n*** End Patch\nEOF\n",
          after: "A\n",
        },
        {
          name: "a unified diff of one file",
          file: "a\nb\nc\n",
          patch: "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,4 @@\n a\n-b\n+B\n+B2\n c\n",
          after: "a\nB\nB2\nc\n",
        },
        {
          name: "a unified diff hunk header inside the patch format",
          file: "x\ny\nx\ny\n",
          patch: begin("*** Update File: f.txt\n@@ -3,2 +3,2 @@\n x\n-y\n+Y\n"),
          after: "x\ny\nx\nY\n",
        },
        {
          name: "an '@@' context line picks the second of two equal places",
          file: "def a():\n    pass\ndef b():\n    pass\n",
          patch: begin("*** Update File: f.txt\n@@ def b():\n-    pass\n+    return 1\n"),
          after: "def a():\n    pass\ndef b():\n    return 1\n",
        },
        {
          name: "'*** End of File' anchors at the end",
          file: "x\nend\nx\nend\n",
          patch: begin("*** Update File: f.txt\n@@\n x\n-end\n+END\n*** End of File\n"),
          after: "x\nend\nx\nEND\n",
        },
        {
          name: "a first hunk without '@@'",
          file: "a\nb\n",
          patch: begin("*** Update File: f.txt\n-a\n+A\n"),
          after: "A\nb\n",
        },
        {
          name: "a blank context line without its space",
          file: "a\n\nb\n",
          patch: begin("*** Update File: f.txt\n@@\n a\n\n-b\n+B\n"),
          after: "a\n\nB\n",
        },
        {
          name: "a file without a final newline keeps none",
          file: "a\nb",
          patch: begin("*** Update File: f.txt\n@@\n-b\n+B\n"),
          after: "a\nB",
        },
        {
          name: "curly quotes for straight ones",
          file: "say('hi')\n",
          patch: begin("*** Update File: f.txt\n@@\n-say(\u2018hi\u2019)\n+say('bye')\n"),
          after: "say('bye')\n",
        },
      ];
      for (const row of cases) {
        test(row.name, async () => {
          await withPatchWorkspace(host.open, [`f.txt=${row.file}`], async (ws, registry) => {
            const { isError, body } = await callTool(registry, "apply_patch", { patch: row.patch });
            expect(body).toMatchObject({ files: [{ path: "f.txt", action: "updated" }] });
            expect(isError).toBe(false);
            expect(await ws.readRaw("f.txt")).toBe(row.after);
          });
        });
      }
    });

    test("apply_patch() adds and deletes through a unified diff against /dev/null", async () => {
      await withPatchWorkspace(host.open, ["old.txt=x\n"], async (ws, registry) => {
        const add = await callTool(registry, "apply_patch", {
          patch: "--- /dev/null\n+++ b/n/new.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n",
        });
        expect(add.body).toEqual({ files: [{ path: "n/new.txt", action: "added", added: 2, removed: 0 }] });
        const del = await callTool(registry, "apply_patch", {
          patch: "--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
        });
        expect(del.body).toEqual({ files: [{ path: "old.txt", action: "deleted", added: 0, removed: 1 }] });
        expect(await ws.listAll()).toEqual(["n/", "n/new.txt"]);
      });
    });

    test("apply_patch() deletes a link, never its target", async () => {
      await withPatchWorkspace(host.open, ["target.txt=kept\n", "link.txt => target.txt"], async (ws, registry) => {
        const { body } = await callTool(registry, "apply_patch", { patch: begin("*** Delete File: link.txt\n") });
        expect(body).toEqual({ files: [{ path: "link.txt", action: "deleted", added: 0, removed: 0 }] });
        expect(await ws.listAll()).toEqual(["target.txt"]);
      });
    });

    test("apply_patch() updates a file through a link inside and keeps the link", async () => {
      await withPatchWorkspace(host.open, ["target.txt=a\n", "link.txt => target.txt"], async (ws, registry) => {
        const { body } = await callTool(registry, "apply_patch", {
          patch: begin("*** Update File: link.txt\n@@\n-a\n+b\n"),
        });
        expect(body).toEqual({ files: [{ path: "link.txt", action: "updated", added: 1, removed: 1 }] });
        expect(await ws.readRaw("target.txt")).toBe("b\n");
        expect(await ws.listAll()).toEqual(["link.txt", "target.txt"]);
      });
    });

    test("apply_patch() moves a file without changing it", async () => {
      await withPatchWorkspace(host.open, ["a.txt=x\n"], async (ws, registry) => {
        const { body } = await callTool(registry, "apply_patch", {
          patch: begin("*** Update File: a.txt\n*** Move to: b/c.txt\n"),
        });
        expect(body).toEqual({
          files: [{ path: "a.txt", action: "moved", destination: "b/c.txt", added: 0, removed: 0 }],
        });
        expect(await ws.listAll()).toEqual(["b/", "b/c.txt"]);
        expect(await ws.readRaw("b/c.txt")).toBe("x\n");
      });
    });
  });
}

describe("apply_patch beside the other tools", () => {
  test("createCodingTools() includes apply_patch, and leaves it out when given false", () => {
    const names = (tools: AnyTool[]) => tools.map((tool) => tool.name);
    expect(names(createCodingTools(unopened()))).toContain("apply_patch");
    expect(names(createCodingTools(unopened(), { applyPatch: false }))).not.toContain("apply_patch");
  });

  test("parsePatch() reads the three kinds of file and a move", () => {
    const { operations } = parsePatch(
      begin("*** Add File: a\n+1\n*** Delete File: b\n*** Update File: c\n*** Move to: d\n@@ ctx\n x\n-y\n+z\n"),
    );
    expect(operations).toEqual([
      { kind: "add", path: "a", lines: ["1"] },
      { kind: "delete", path: "b" },
      {
        kind: "update",
        path: "c",
        moveTo: "d",
        hunks: [{ context: "ctx", oldLines: ["x", "y"], newLines: ["x", "z"], endOfFile: false, marks: " -+" }],
      },
    ]);
  });
});

describe("applyHunks()", () => {
  test("a hunk not found says whether its lines are absent or only too common to place", () => {
    const hunk = { oldLines: ["a", "zzz"], newLines: ["b"], endOfFile: false };
    const message = (text: string) => {
      try {
        applyHunks(text, [hunk], "f.txt");
      } catch (error) {
        return (error as Error).message;
      }
      return "applied";
    };
    expect(message("a\n".repeat(70))).toBe(
      "Cannot apply patch to 'f.txt': hunk 1 of 1 not found, its lines match nowhere in the file " +
        "(each line of the hunk that the file has occurs in it more than 64 times)",
    );
    expect(message("b\n".repeat(70))).toContain("(no line of the hunk occurs in the file)");
  });
});

describe("renamePatchPaths()", () => {
  const docs = (path: string) => (path.startsWith("docs:") ? path.slice(5) : `?${path}`);

  test("renames every path a header names and keeps every other character", () => {
    const text = "\uFEFF\n  apply_patch <<'EOF'\r\n*** Begin Patch\r\n*** Add File: docs:a b.md  \r\n" +
      "+*** Add File: docs:content\r\n\r\n  *** Update File:   docs:c\r\n*** Move to: docs:d\r\n@@ ctx docs:x\r\n" +
      " *** Move to: docs:context\r\n-*** Delete File: docs:old\r\n+y\r\n*** Delete File: docs:e\r\n*** End Patch\r\nEOF\r\n";
    const seen: string[] = [];
    const renamed = renamePatchPaths(text, (path) => {
      seen.push(path);
      return docs(path);
    });
    expect(seen).toEqual(["docs:a b.md", "docs:c", "docs:d", "docs:e"]);
    expect(renamed).toBe(
      "\uFEFF\n  apply_patch <<'EOF'\r\n*** Begin Patch\r\n*** Add File: a b.md  \r\n" +
        "+*** Add File: docs:content\r\n\r\n  *** Update File:   c\r\n*** Move to: d\r\n@@ ctx docs:x\r\n" +
        " *** Move to: docs:context\r\n-*** Delete File: docs:old\r\n+y\r\n*** Delete File: e\r\n*** End Patch\r\nEOF\r\n",
    );
    // The renamed patch reads as the same operations on the new paths.
    const before = parsePatch(text).operations;
    expect(parsePatch(renamed!).operations).toEqual(
      before.map((operation) =>
        operation.kind === "update" && operation.moveTo !== undefined
          ? { ...operation, path: docs(operation.path), moveTo: docs(operation.moveTo) }
          : { ...operation, path: docs(operation.path) }
      ),
    );
  });

  test("gives null for a unified diff, and throws PATCH_INVALID as parsePatch does", () => {
    expect(renamePatchPaths("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", docs)).toBeNull();
    expect(() => renamePatchPaths("*** Begin Patch\n*** End Patch\n", docs)).toThrow(
      expect.objectContaining({ code: "PATCH_INVALID" }),
    );
  });
});

describe("apply_patch through the adapters", () => {
  test("OpenAI, Anthropic and the AI SDK advertise it with its schema, and a call through each applies", async () => {
    const fixture = await diskFixture(["a.txt=1\n"]);
    try {
      const tools = createCodingTools(fixture.workspace, { staleWriteGuard: false });
      const registry = new ToolRegistry(tools);
      const openai = toOpenAITools(tools).find((tool) => tool.function.name === "apply_patch");
      expect(openai?.function.parameters).toMatchObject({ required: ["patch"], additionalProperties: false });
      const anthropic = toAnthropicTools(tools).find((tool) => tool.name === "apply_patch");
      expect(anthropic?.input_schema).toMatchObject({ required: ["patch"] });
      expect(Object.keys(toAISDKTools(tools))).toContain("apply_patch");

      const patch = (from: number) => begin(`*** Update File: a.txt\n@@\n-${from}\n+${from + 1}\n`);
      const viaOpenAI = await executeToolCall(
        registry,
        fromOpenAIToolCall({
          id: "o",
          function: { name: "apply_patch", arguments: JSON.stringify({ patch: patch(1) }) },
        }),
      );
      expect(JSON.parse(viaOpenAI.content)).toEqual({
        files: [{ path: "a.txt", action: "updated", added: 1, removed: 1 }],
      });
      const viaAnthropic = await executeToolCall(
        registry,
        fromAnthropicToolUse({ type: "tool_use", id: "t", name: "apply_patch", input: { patch: patch(2) } }),
      );
      expect(toAnthropicToolResult(viaAnthropic)).toMatchObject({ type: "tool_result", tool_use_id: "t" });
      expect(fs.readFileSync(fixture.abs("a.txt"), "utf8")).toBe("3\n");
    } finally {
      fixture.cleanup();
    }
  });
});
