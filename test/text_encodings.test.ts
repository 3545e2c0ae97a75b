// The text-file table (test/cases/text_files.ts) replayed through read_file, edit_file, apply_patch, write_file and
// grep on every host: exact bytes after each change, the mode kept, errors with their codes.
import { afterEach, describe, expect, test } from "vitest";
import { type AnyTool, createCodingTools, createEditTool, type Workspace, WorkspaceError } from "../mod.ts";
import { NOT_TEXT_CASES, TEXT_FILE_CASES, utf16le } from "./cases/text_files.ts";
import { errorOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

async function writeBytes(workspace: Workspace, name: string, bytes: number[], mode = 0o640): Promise<void> {
  const file = await workspace.host.open(workspace.hostPath([name]), { write: true, createExclusive: true, mode });
  await file.write(new Uint8Array(bytes), 0);
  await file.close();
}

async function readBytes(workspace: Workspace, name: string): Promise<number[]> {
  const file = await workspace.host.open(workspace.hostPath([name]), { read: true });
  const chunks: number[] = [];
  const buffer = new Uint8Array(65_536);
  for (let at = 0;;) {
    const count = await file.read(buffer, at);
    if (count === 0) break;
    chunks.push(...buffer.subarray(0, count));
    at += count;
  }
  await file.close();
  return chunks;
}

async function modeOf(workspace: Workspace, name: string): Promise<number> {
  return (await workspace.host.lstat(workspace.hostPath([name]))).mode & 0o777;
}

function toolsOf(workspace: Workspace): (name: string) => AnyTool {
  const tools = createCodingTools(workspace, { processTools: false });
  return (name) => tools.find((tool) => tool.name === name) as AnyTool;
}

// deno-lint-ignore no-explicit-any
type Any = any;
const run = (tool: AnyTool, args: Record<string, unknown>): Promise<Any> => tool.execute(args as never);

for (const host of TEST_HOSTS) {
  describe(`text encodings on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    const open = async (tree: string[] = []) => (fixture = await host.open(tree));
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    for (const row of TEXT_FILE_CASES) {
      test(`${row.name}: read_file returns its text and names its encoding`, async () => {
        const { workspace } = await open();
        await writeBytes(workspace, "f.txt", row.bytes);
        const tool = toolsOf(workspace);
        const read = await run(tool("read_file"), { path: "f.txt" });
        expect(read.content).toBe(row.text);
        expect(read.bytes).toBe(row.bytes.length);
        expect(read.encoding).toBe(row.encoding);
        expect(read.bom).toBe(row.bom);
        const window = await run(tool("read_file"), { path: "f.txt", offset: 2, limit: 1 });
        expect(window.content).toBe(row.text.split("\n")[1] + (row.text.split("\n").length > 2 ? "\n" : ""));
        expect(window.encoding).toBe(row.encoding);
      });

      test(`${row.name}: edit_file writes it back byte-identical outside the edit, mode kept`, async () => {
        const { workspace } = await open();
        await writeBytes(workspace, "f.txt", row.bytes);
        const tool = toolsOf(workspace);
        await run(tool("read_file"), { path: "f.txt" });
        const result = await run(tool("edit_file"), {
          path: "f.txt",
          old_string: row.edit.old_string,
          new_string: row.edit.new_string,
        });
        expect(result.encoding).toBe(row.encoding);
        expect(result.bytes).toBe(row.edit.after.length);
        expect(await readBytes(workspace, "f.txt")).toEqual(row.edit.after);
        expect(await modeOf(workspace, "f.txt")).toBe(0o640);
        expect(await fixture!.leftovers()).toEqual([]);
      });

      test(`${row.name}: apply_patch writes it back byte-identical outside the hunk`, async () => {
        const { workspace } = await open();
        await writeBytes(workspace, "f.txt", row.bytes);
        const tool = toolsOf(workspace);
        await run(tool("read_file"), { path: "f.txt" });
        const patch =
          `*** Begin Patch\n*** Update File: f.txt\n@@\n-${row.patch.old}\n+${row.patch.new}\n*** End Patch\n`;
        const result = await run(tool("apply_patch"), { patch });
        expect(result.files).toEqual([{ path: "f.txt", action: "updated", added: 1, removed: 1 }]);
        expect(await readBytes(workspace, "f.txt")).toEqual(row.patch.after);
        expect(await modeOf(workspace, "f.txt")).toBe(0o640);
      });

      if (row.unrepresentable !== undefined) {
        const { new_string, character, line } = row.unrepresentable;
        test(`${row.name}: a character the encoding cannot hold is refused, nothing written`, async () => {
          const { workspace } = await open();
          await writeBytes(workspace, "f.txt", row.bytes);
          const tool = toolsOf(workspace);
          await run(tool("read_file"), { path: "f.txt" });
          const error = await errorOf(
            run(tool("edit_file"), { path: "f.txt", old_string: row.edit.old_string, new_string }),
          );
          expect(error.code).toBe("UNREPRESENTABLE_CHARACTER");
          expect(error.message).toContain(`${row.encoding} cannot hold`);
          expect(error.message).toContain(`(${character}) on line ${line}`);
          expect(error.details).toMatchObject({ encoding: row.encoding, character, line });
          const patch =
            `*** Begin Patch\n*** Update File: f.txt\n@@\n-${row.patch.old}\n+${new_string}\n*** End Patch\n`;
          expect((await errorOf(run(tool("apply_patch"), { patch }))).code).toBe("UNREPRESENTABLE_CHARACTER");
          expect(await readBytes(workspace, "f.txt")).toEqual(row.bytes);
          const written = await errorOf(
            run(tool("write_file"), { path: "g.txt", content: new_string, encoding: row.encoding }),
          );
          expect(written.code).toBe("UNREPRESENTABLE_CHARACTER");
          expect(await fixture!.listAll()).toEqual(["f.txt"]);
        });
      }

      test(`${row.name}: grep finds a pattern typed as Unicode, in every output mode`, async () => {
        const { workspace } = await open(["plain.txt=nothing here\n"]);
        await writeBytes(workspace, "f.txt", row.bytes);
        const grep = toolsOf(workspace)("grep");
        const { pattern, line, text } = row.grep;
        const content = await run(grep, { pattern, literal: true });
        expect(content.matches).toEqual([{ path: "f.txt", line, column: text.indexOf(pattern) + 1, text }]);
        expect((await run(grep, { pattern, literal: true, output_mode: "count" })).counts).toEqual([
          { path: "f.txt", count: 1 },
        ]);
        expect((await run(grep, { pattern, literal: true, output_mode: "files_with_matches" })).files).toEqual([
          "f.txt",
        ]);
        // A regular expression around it, and the same in a folder grep found as a single file.
        const regex = `^.*${pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
        expect((await run(grep, { pattern: regex, path: "f.txt" })).matches).toMatchObject([{ line, text }]);
        // An ASCII pattern on the same line shows the line's own characters, not U+FFFD.
        const ascii = text.match(/[a-z]{2,}/)?.[0];
        if (ascii !== undefined) {
          const found = await run(grep, { pattern: ascii, literal: true });
          expect(found.matches.find((match: Any) => match.line === line)?.text).toBe(text);
        }
      });

      test(`${row.name}: write_file with its encoding makes the same bytes read_file decodes`, async () => {
        const { workspace } = await open();
        const tool = toolsOf(workspace);
        const written = await run(tool("write_file"), {
          path: "g.txt",
          content: row.text,
          ...(row.encoding === undefined ? {} : { encoding: row.encoding }),
        });
        const expected = row.bom === true && row.encoding === undefined ? row.bytes.slice(3) : row.bytes;
        expect(await readBytes(workspace, "g.txt")).toEqual(expected);
        expect(written.bytes).toBe(expected.length);
      });
    }

    for (const row of NOT_TEXT_CASES) {
      test(`${row.name}: read_file, edit_file and apply_patch say ${row.code}`, async () => {
        const { workspace } = await open();
        await writeBytes(workspace, "f.bin", row.bytes);
        const tool = toolsOf(workspace);
        const read = await errorOf(run(tool("read_file"), { path: "f.bin" }));
        expect(read.code).toBe(row.code);
        expect(read.message).toBe(`Cannot read 'f.bin': ${row.message}`);
        expect(read.hint).toContain(row.code === "BINARY_FILE" ? "read_media_file" : "pass encoding");
        // The stale-write guard asks for a read first; without it the decode itself refuses.
        const edit = await errorOf(run(tool("edit_file"), { path: "f.bin", old_string: "a", new_string: "b" }));
        expect(edit.code).toBe("FILE_NOT_READ");
        const unguarded = await errorOf(
          run(createEditTool(workspace), { path: "f.bin", old_string: "a", new_string: "b" }),
        );
        expect(unguarded.code).toBe(row.code);
        expect(unguarded.message).toBe(`Cannot edit 'f.bin': ${row.message}`);
        const patch = "*** Begin Patch\n*** Update File: f.bin\n@@\n-a\n+b\n*** End Patch\n";
        expect((await errorOf(run(tool("apply_patch"), { patch }))).code).toBe(row.code);
        expect(await readBytes(workspace, "f.bin")).toEqual(row.bytes);
      });
    }

    test("a file whose encoding cannot be told reads and edits once the encoding is named", async () => {
      const { workspace } = await open();
      await writeBytes(workspace, "f.txt", [0x61, 0x01, 0xff, 0x0a]);
      const tool = toolsOf(workspace);
      const read = await run(tool("read_file"), { path: "f.txt", encoding: "windows-1252" });
      expect(read).toMatchObject({ content: "a\u0001ÿ\n", encoding: "windows-1252" });
      await run(tool("edit_file"), { path: "f.txt", old_string: "ÿ", new_string: "é", encoding: "windows-1252" });
      expect(await readBytes(workspace, "f.txt")).toEqual([0x61, 0x01, 0xe9, 0x0a]);
      const wrong = await errorOf(run(tool("read_file"), { path: "f.txt", encoding: "utf-8" }));
      expect(wrong.code).toBe("ENCODING_UNKNOWN");
      expect(wrong.message).toBe("Cannot read 'f.txt': it is not valid utf-8");
    });

    test("iso-8859-1 named explicitly is the true ISO-8859-1: 0x80 is U+0080, written back as 0x80", async () => {
      const { workspace } = await open();
      await writeBytes(workspace, "f.txt", [0x80, 0x41, 0x0a]);
      const tool = toolsOf(workspace);
      expect((await run(tool("read_file"), { path: "f.txt" })).content).toBe("\u20acA\n");
      expect((await run(tool("read_file"), { path: "f.txt", encoding: "iso-8859-1" })).content).toBe("\u0080A\n");
      await run(tool("edit_file"), { path: "f.txt", old_string: "A", new_string: "B", encoding: "iso-8859-1" });
      expect(await readBytes(workspace, "f.txt")).toEqual([0x80, 0x42, 0x0a]);
    });

    test("a UTF-16 file is read in windows of whole lines", async () => {
      const { workspace } = await open();
      await writeBytes(workspace, "f.txt", utf16le("one\ntwo\nthree\n"));
      const window = await run(toolsOf(workspace)("read_file"), { path: "f.txt", offset: 2, limit: 1 });
      expect(window).toMatchObject({
        content: "two\n",
        bytes: 8,
        startLine: 2,
        endLine: 2,
        totalLines: 3,
        hasMore: true,
        nextOffset: 3,
        encoding: "utf-16le",
        bom: true,
      });
    });
  });
}

test("WorkspaceError is what the table's failures are", () => {
  expect(new WorkspaceError("BINARY_FILE", "x").code).toBe("BINARY_FILE");
});
