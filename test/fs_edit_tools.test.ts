// The edit tools' tables (hostile paths, symlink fixtures) are replayed with
// every other path tool by test/path_tools_replay.test.ts.
import { describe, expect, test } from "vitest";
import { type AnyTool, createCodingTools, createReadOnlyTools } from "../mod.ts";
import { unopened } from "./helpers/unopened.ts";

describe("createCodingTools()", () => {
  test("includes the edit, delete, move and create_directory tools and leaves out one given false", () => {
    const names = (tools: AnyTool[]) => tools.map((tool) => tool.name);
    expect(names(createCodingTools(unopened()))).toEqual(
      expect.arrayContaining(["read_file", "edit_file", "delete_path", "move_path", "create_directory"]),
    );
    expect(names(createCodingTools(unopened(), { edit: false, move: false }))).not.toContain("edit_file");
    expect(names(createCodingTools(unopened(), { edit: { name: "str_replace" } }))).toContain("str_replace");
    expect(names(createReadOnlyTools(unopened()))).not.toEqual(
      expect.arrayContaining(["edit_file"]),
    );
  });

  test("advertises plain object schemas without additional properties", () => {
    for (const tool of createCodingTools(unopened())) {
      expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      expect(tool.inputSchema).not.toHaveProperty("anyOf");
      expect(tool.inputSchema).not.toHaveProperty("oneOf");
    }
  });
});
