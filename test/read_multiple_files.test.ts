// read_multiple_files (MCP): read_file on each path, so every hostile path and
// every link of the shared tables fails as read_file fails, entry by entry,
// while the other paths are still read.
import { afterEach, describe, expect, test } from "vitest";
import { executeToolCall, ToolRegistry } from "../mod.ts";
import { createMcpRegistry } from "../src/mcp/mod.ts";
import { createReadMultipleFilesTool, READ_MULTIPLE_FILES_MAX_PATHS } from "../src/mcp/read_multiple_files.ts";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { SYMLINK_CASES, SYMLINK_TREE } from "./cases/symlink_fixtures.ts";
import { type DiskFixture, diskFixture, OUTSIDE_SECRET } from "./helpers/fixture.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

async function readMany(paths: unknown): Promise<{ isError: boolean; body: Record<string, unknown> }> {
  if (fixture === undefined) throw new Error("no fixture");
  const registry = new ToolRegistry([createReadMultipleFilesTool(fixture.workspace)]);
  const result = await executeToolCall(registry, { id: "1", name: "read_multiple_files", arguments: { paths } });
  return { isError: result.isError, body: JSON.parse(result.content) };
}

describe("read_multiple_files", () => {
  test("reads each file in order; a missing one is an error entry and the rest are still read", async () => {
    fixture = await diskFixture(["a.txt=alpha", "d/", "d/b.txt=beta"]);
    const { isError, body } = await readMany(["a.txt", "nope.txt", "d/b.txt", "d"]);
    expect(isError).toBe(false);
    expect(body.files).toEqual([
      { path: "a.txt", content: "alpha", bytes: 5 },
      { path: "nope.txt", error: expect.objectContaining({ code: "NOT_FOUND" }) },
      { path: "d/b.txt", content: "beta", bytes: 4 },
      { path: "d", error: expect.objectContaining({ code: "NOT_A_FILE" }) },
    ]);
  });

  test("every hostile path of the shared table is refused as read_file refuses it", async () => {
    fixture = await diskFixture(["f=x", "d/"]);
    const files: { path: string; error?: { code: string; message: string } }[] = [];
    for (let start = 0; start < HOSTILE_PATHS.length; start += READ_MULTIPLE_FILES_MAX_PATHS) {
      const rows = HOSTILE_PATHS.slice(start, start + READ_MULTIPLE_FILES_MAX_PATHS);
      files.push(...((await readMany(rows.map((row) => row.path))).body.files as typeof files));
    }
    expect(files.map((entry) => entry.error?.message)).toEqual(HOSTILE_PATHS.map((row) => row.code));
    expect(files.every((entry) => entry.error?.code === "TOOL_ARGUMENTS_INVALID")).toBe(true);
  });

  test("every link of the shared table is confined as read_file confines it, and no outside byte is returned", async () => {
    fixture = await diskFixture(SYMLINK_TREE);
    const { body } = await readMany(SYMLINK_CASES.map((row) => row.path));
    const files = body.files as { error?: { code: string } }[];
    expect(files.map((entry) => entry.error?.code ?? null)).toEqual(SYMLINK_CASES.map((row) => row.read));
    expect(JSON.stringify(body)).not.toContain(OUTSIDE_SECRET);
  });

  test("the list must hold 1 to the limit of paths", async () => {
    fixture = await diskFixture([]);
    for (const paths of [[], Array.from({ length: READ_MULTIPLE_FILES_MAX_PATHS + 1 }, (_, i) => `f${i}`), "a.txt"]) {
      const { isError, body } = await readMany(paths);
      expect(isError).toBe(true);
      expect(body).toMatchObject({ error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_ARGUMENTS" } });
    }
  });

  test("the MCP server offers it, also in read-only mode", async () => {
    fixture = await diskFixture([]);
    expect(createMcpRegistry(fixture.workspace).get("read_multiple_files")?.readOnly).toBe(true);
    expect(createMcpRegistry(fixture.workspace, { readOnly: true }).get("read_multiple_files")).toBeDefined();
  });
});
