import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createCodingTools, createReadOnlyTools, createWriteTool, executeToolCall, ToolRegistry } from "../mod.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { unopened } from "./helpers/unopened.ts";

describe("executeToolCall()", () => {
  test("seed: write_file of ../outside.txt is TOOL_ARGUMENTS_INVALID / INVALID_RELATIVE_PATH and creates nothing", async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-seed-"));
    try {
      const root = path.join(parent, "workspace");
      fs.mkdirSync(root);
      const registry = new ToolRegistry([createWriteTool(root)]);
      const result = await executeToolCall(registry, {
        id: "call-1",
        name: "write_file",
        arguments: { path: "../outside.txt", content: "escaped" },
      });
      expect(result.isError).toBe(true);
      expect(result.toolCallId).toBe("call-1");
      expect(result.toolName).toBe("write_file");
      expect(JSON.parse(result.content)).toEqual({
        error: {
          code: "TOOL_ARGUMENTS_INVALID",
          message: "INVALID_RELATIVE_PATH",
          hint: expect.stringContaining("would leave the workspace"),
        },
      });
      expect(fs.existsSync(path.join(parent, "outside.txt"))).toBe(false);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  const shapes: Array<[string, unknown, string]> = [
    ["null arguments", null, "INVALID_ARGUMENTS"],
    ["an array", [{ path: "a", content: "b" }], "INVALID_ARGUMENTS"],
    ["a number", 42, "INVALID_ARGUMENTS"],
    ["a string that is not JSON", "{path: a}", "INVALID_JSON"],
    ["JSON text of an array", "[1]", "INVALID_ARGUMENTS"],
    ["a number for the path", { path: 7, content: "x" }, "INVALID_ARGUMENTS"],
    ["an object for the content", { path: "a", content: { text: "x" } }, "INVALID_ARGUMENTS"],
    ["a missing content", { path: "a" }, "INVALID_ARGUMENTS"],
    ["a missing path", { content: "x" }, "INVALID_ARGUMENTS"],
    ["an extra property", { path: "a", content: "x", mode: 511 }, "INVALID_ARGUMENTS"],
    [
      "a prototype-polluting property",
      JSON.parse('{"path":"a","content":"x","__proto__":{"admin":true}}'),
      "INVALID_ARGUMENTS",
    ],
    ["null for the path", { path: null, content: "x" }, "INVALID_ARGUMENTS"],
  ];

  test.each(shapes)("refuses %s with TOOL_ARGUMENTS_INVALID and no side effect", async (_name, args, reason) => {
    const fixture = await diskFixture([]);
    try {
      const registry = new ToolRegistry(createCodingTools(fixture.workspace));
      // `{path: "a"}` is a valid read_file call; every other shape is invalid for all three.
      const names = reason === "INVALID_ARGUMENTS" && _name === "a missing content"
        ? ["write_file", "node_process"]
        : ["read_file", "write_file", "node_process"];
      for (const name of names) {
        const result = await executeToolCall(registry, { id: "x", name, arguments: args });
        expect(result.isError).toBe(true);
        const body = JSON.parse(result.content);
        expect(body.error.code).toBe("TOOL_ARGUMENTS_INVALID");
        if (name === "write_file") expect(body.error.message).toBe(reason);
      }
      expect(fs.readdirSync(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });

  test("names the offending property in the hint", async () => {
    const registry = new ToolRegistry([createWriteTool(unopened())]);
    const extra = JSON.parse(
      (await executeToolCall(registry, { id: "1", name: "write_file", arguments: { path: "a", content: "", x: 1 } }))
        .content,
    );
    expect(extra.error.hint).toBe("unknown property 'x'");
    const missing = JSON.parse(
      (await executeToolCall(registry, { id: "1", name: "write_file", arguments: { path: "a" } })).content,
    );
    expect(missing.error.hint).toBe("missing property 'content'");
    const wrong = JSON.parse(
      (await executeToolCall(registry, { id: "1", name: "write_file", arguments: { path: 1, content: "" } })).content,
    );
    expect(wrong.error.hint).toBe("property 'path': expected string");
  });

  test("accepts arguments as JSON text", async () => {
    const fixture = await diskFixture([]);
    try {
      const registry = new ToolRegistry(createCodingTools(fixture.workspace));
      const result = await executeToolCall(registry, {
        id: "1",
        name: "write_file",
        arguments: JSON.stringify({ path: "j.txt", content: "json" }),
      });
      expect(result.isError).toBe(false);
      expect(fs.readFileSync(fixture.abs("j.txt"), "utf8")).toBe("json");
    } finally {
      fixture.cleanup();
    }
  });

  test.each([["an unknown tool", "rm_rf"], ["an empty name", ""], ["a prototype key", "constructor"], [
    "toString",
    "toString",
  ]])(
    "reports %s as TOOL_NOT_FOUND",
    async (_label, name) => {
      const registry = new ToolRegistry(createCodingTools(unopened()));
      const result = await executeToolCall(registry, { id: "z", name, arguments: {} });
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content).error.code).toBe("TOOL_NOT_FOUND");
    },
  );

  test("reports a malformed call object as TOOL_NOT_FOUND instead of throwing", async () => {
    const registry = new ToolRegistry(createCodingTools(unopened()));
    // deno-lint-ignore no-explicit-any
    const result = await executeToolCall(registry, null as any);
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content).error.code).toBe("TOOL_NOT_FOUND");
  });
});

describe("tool definitions", () => {
  test("every tool advertises an object schema without additional properties", () => {
    for (const tool of createCodingTools(unopened())) {
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.description.length).toBeGreaterThan(20);
    }
  });

  test("createReadOnlyTools() holds only tools that change nothing", () => {
    const names = createReadOnlyTools(unopened()).map((tool) => tool.name);
    expect(names).toContain("read_file");
    expect(names).not.toContain("write_file");
    expect(names).not.toContain("node_process");
  });

  test("a registry refuses two tools of one name, and a factory takes a custom name", () => {
    const registry = new ToolRegistry([createWriteTool(unopened())]);
    expect(() => registry.register(createWriteTool(unopened()))).toThrow();
    registry.register(createWriteTool(unopened(), { name: "save" }));
    expect(registry.definitions().map((d) => d.name)).toEqual(["write_file", "save"]);
  });
});

describe("createCodingTools() from a root path", () => {
  test("opens the workspace once and shares it between the tools", async () => {
    const fixture = await diskFixture(["a.txt=shared"]);
    try {
      const registry = new ToolRegistry(createCodingTools(fixture.root));
      await executeToolCall(registry, { id: "1", name: "write_file", arguments: { path: "b.txt", content: "x" } });
      // The root is replaced: every tool of the set sees the same recorded identity.
      fs.renameSync(fixture.root, fixture.root + "-old");
      fs.mkdirSync(fixture.root);
      const calls: Array<[string, unknown]> = [
        ["read_file", { path: "a.txt" }],
        ["list_directory", {}],
        ["write_file", { path: "a.txt", content: "y" }],
      ];
      for (const [name, args] of calls) {
        const result = await executeToolCall(registry, { id: "2", name, arguments: args });
        expect(JSON.parse(result.content).error?.code, name).toBe("WORKSPACE_ROOT_CHANGED");
      }
      expect(fs.readdirSync(fixture.root)).toEqual([]);
      fs.rmSync(fixture.root + "-old", { recursive: true, force: true });
    } finally {
      fixture.cleanup();
    }
  });
});
