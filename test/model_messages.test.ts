// Messages a model (or a developer) can act on: a refused path says how to
// write it instead, and a workspace that cannot be opened is named.
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createCodingTools, executeToolCall, normalizeWorkspacePath, openWorkspace, ToolRegistry } from "../mod.ts";
import { withRelativePathHint } from "../src/mcp/relative_path_hint.ts";
import { errorOf } from "./helpers/codes.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

describe("the path grammar's hints", () => {
  test("an absolute path is refused with a hint to give it relative to the workspace root", () => {
    for (const absolute of ["/home/me/project/src/a.ts", "C:\\project\\a.ts", "\\\\server\\share\\a"]) {
      let error: unknown;
      try {
        normalizeWorkspacePath(absolute);
      } catch (caught) {
        error = caught;
      }
      expect(error).toMatchObject({
        code: "INVALID_RELATIVE_PATH",
        hint: expect.stringContaining("relative to the workspace root"),
      });
    }
  });

  test("a leading '~' segment is refused with a hint, and '~' elsewhere or as part of a name is a plain name", () => {
    for (const tilde of ["~", "~/notes.md", "~\\notes.md"]) {
      expect(() => normalizeWorkspacePath(tilde)).toThrow(/'~' is not expanded/);
    }
    expect(normalizeWorkspacePath("~draft.md")).toEqual(["~draft.md"]);
    expect(normalizeWorkspacePath("a/~/b")).toEqual(["a", "~", "b"]);
  });

  test("the call layer passes the hint on to the model, and write_file('~/x') creates nothing", async () => {
    fixture = await diskFixture([]);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace));
    const result = await executeToolCall(registry, {
      id: "1",
      name: "write_file",
      arguments: { path: "~/notes.md", content: "x" },
    });
    expect(JSON.parse(result.content)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "INVALID_RELATIVE_PATH",
        hint: "paths start at the workspace root; drop the leading '~/' and name the file inside the workspace",
      },
    });
    expect(fixture.listAll()).toEqual(["outside/", "outside/secret.txt", "workspace/"]);
  });
});

describe("the tools' relative-form hint, outside MCP too", () => {
  test("an absolute path inside the root names the relative form, through executeToolCall and execute", async () => {
    fixture = await diskFixture(["src/a.ts=x"]);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace));
    const inside = path.join(fixture.workspace.root, "src", "a.ts");
    for (
      const [name, args] of [
        ["read_file", { path: inside }],
        ["get_file_info", { path: inside }],
        ["write_file", { path: inside, content: "y" }],
        ["move_path", { source: "src/a.ts", destination: inside }],
      ] as const
    ) {
      const result = await executeToolCall(registry, { id: "1", name, arguments: args });
      expect(JSON.parse(result.content).error, name).toEqual({
        code: "TOOL_ARGUMENTS_INVALID",
        message: "INVALID_RELATIVE_PATH",
        hint: "use the workspace-relative path 'src/a.ts' (paths start at the workspace root)",
      });
    }
    expect((await errorOf(createCodingTools(fixture.workspace)[0].execute({ path: inside }))).hint).toContain(
      "'src/a.ts'",
    );
    // Outside the root, or another argument that merely looks like a path inside: the generic hint.
    for (const args of [{ path: "/etc/passwd" }, { path: "/x/../y", content: inside }]) {
      const result = await executeToolCall(registry, {
        id: "1",
        name: "write_file",
        arguments: { content: "", ...args },
      });
      expect(JSON.parse(result.content).error.hint).toContain("relative to the workspace root");
    }
  });

  test("a root given as a path names the relative form before and after it is opened", async () => {
    fixture = await diskFixture(["src/a.ts=x"]);
    const [read] = createCodingTools(fixture.root);
    for (let i = 0; i < 2; i++) {
      expect((await errorOf(read.execute({ path: path.join(fixture.root, "src/a.ts") }))).hint).toContain("'src/a.ts'");
      await read.execute({ path: "src/a.ts" });
    }
  });
});

describe("the MCP server's relative-form hint", () => {
  const refused = (hint: string) => ({
    toolCallId: "1",
    toolName: "read_file",
    isError: true,
    content: JSON.stringify({ error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_RELATIVE_PATH", hint } }),
  });
  const hintOf = (result: { content: string }) => JSON.parse(result.content).error.hint;

  test("an absolute path inside the root gets the relative form to use", () => {
    expect(hintOf(withRelativePathHint(refused("generic"), { path: "/srv/ws/src/a.ts" }, "/srv/ws"))).toBe(
      "use the workspace-relative path 'src/a.ts' (paths start at the workspace root)",
    );
    expect(hintOf(withRelativePathHint(refused("generic"), { path: "/srv/ws" }, "/srv/ws"))).toContain("'.'");
    expect(hintOf(withRelativePathHint(refused("generic"), { path: "C:\\Work\\ws\\a.txt" }, "c:\\work\\ws"))).toContain(
      "'a.txt'",
    );
  });

  test("a path outside the root, or one that climbs out, keeps the generic hint", () => {
    for (const outside of ["/srv/other/a.ts", "/srv/wsx/a.ts", "/srv/ws/../other/a", "relative/../x"]) {
      expect(hintOf(withRelativePathHint(refused("generic"), { path: outside }, "/srv/ws"))).toBe("generic");
    }
  });
});

describe("openWorkspace()", () => {
  test("a missing folder is named in the message", async () => {
    fixture = await diskFixture([]);
    const missing = path.join(fixture.root, "no-such-folder");
    const error = await errorOf(openWorkspace(missing));
    expect(error.code).toBe("WORKSPACE_ROOT_INVALID");
    expect(error.message).toBe(
      `Cannot open workspace '${missing}': the root folder does not exist or cannot be reached`,
    );
  });
});
