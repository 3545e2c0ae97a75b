import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type AnyTool,
  createCodingTools,
  createDeleteTool,
  createDirectoryTool,
  createEditTool,
  createMoveTool,
  createReadOnlyTools,
  createReadTool,
  type Workspace,
} from "../mod.ts";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { SYMLINK_CASES, SYMLINK_TREE } from "./cases/symlink_fixtures.ts";
import { codeOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

// Each tool as it is called with one path, for the shared tables.
const PATH_TOOLS: { name: string; call: (ws: Workspace, path: string) => Promise<unknown> }[] = [
  { name: "read_file (window)", call: (ws, path) => createReadTool(ws).execute({ path, offset: 1, limit: 1 }) },
  {
    name: "edit_file",
    call: (ws, path) => createEditTool(ws).execute({ path, old_string: "inside", new_string: "edited" }),
  },
  { name: "delete_path", call: (ws, path) => createDeleteTool(ws).execute({ path, recursive: true }) },
  { name: "move_path source", call: (ws, path) => createMoveTool(ws).execute({ source: path, destination: "moved" }) },
  {
    name: "move_path destination",
    call: (ws, path) => createMoveTool(ws).execute({ source: "src.txt", destination: path, overwrite: true }),
  },
  { name: "create_directory", call: (ws, path) => createDirectoryTool(ws).execute({ path }) },
];

// What delete_path and move_path do with each symlink case. Neither follows a
// final link: deleting a link removes the link; moving one moves the link,
// unless its target, read from the new place, would leave the workspace.
type Outcome = { code: string } | { gone: string[]; added?: string[] };
const DELETE_OUTCOMES: Record<string, Outcome> = {
  "file-out": { gone: ["file-out"] },
  "rel-out": { gone: ["rel-out"] },
  "dir-out/secret.txt": { code: "PATH_ESCAPES_WORKSPACE" },
  "dir-out/new.txt": { code: "PATH_ESCAPES_WORKSPACE" },
  "abs-out/passwd": { code: "PATH_ESCAPES_WORKSPACE" },
  "deep-rel-out/secret.txt": { code: "PATH_ESCAPES_WORKSPACE" },
  "chain-out1": { gone: ["chain-out1"] },
  "loop1": { gone: ["loop1"] },
  "self": { gone: ["self"] },
  "dangling": { gone: ["dangling"] },
  "dangling-out": { gone: ["dangling-out"] },
  "chain1": { gone: ["chain1"] },
  "in-file": { gone: ["in-file"] },
  "in-dir/f.txt": { gone: ["d/f.txt"] },
  "abs-in": { gone: ["abs-in"] },
  "d/up": { gone: ["d/up"] },
};
const MOVE_SOURCE_OUTCOMES: Record<string, Outcome> = {
  "file-out": { code: "PATH_ESCAPES_WORKSPACE" }, // the link would still point outside
  "rel-out": { code: "PATH_ESCAPES_WORKSPACE" },
  "dir-out/secret.txt": { code: "PATH_ESCAPES_WORKSPACE" },
  "dir-out/new.txt": { code: "PATH_ESCAPES_WORKSPACE" },
  "abs-out/passwd": { code: "PATH_ESCAPES_WORKSPACE" },
  "deep-rel-out/secret.txt": { code: "PATH_ESCAPES_WORKSPACE" },
  "chain-out1": { gone: ["chain-out1"], added: ["moved"] }, // its target 'chain-out2' stays inside
  "loop1": { gone: ["loop1"], added: ["moved"] },
  "self": { gone: ["self"], added: ["moved"] },
  "dangling": { gone: ["dangling"], added: ["moved"] },
  "dangling-out": { code: "PATH_ESCAPES_WORKSPACE" },
  "chain1": { gone: ["chain1"], added: ["moved"] },
  "in-file": { gone: ["in-file"], added: ["moved"] },
  "in-dir/f.txt": { gone: ["d/f.txt"], added: ["moved"] },
  "abs-in": { gone: ["abs-in"], added: ["moved"] },
  "d/up": { code: "PATH_ESCAPES_WORKSPACE" }, // '../d/f.txt' read from the root leaves it
};

const TREE = [...SYMLINK_TREE, "src.txt=moving"];

for (const host of TEST_HOSTS) {
  describe(`fs edit tools on the ${host.name} host`, () => {
    let fixture: TestWorkspace;
    beforeAll(async () => {
      fixture = await host.open(TREE);
    });
    afterAll(async () => {
      await fixture.cleanup();
    });

    describe.each(PATH_TOOLS)("$name", ({ call }) => {
      test.each(HOSTILE_PATHS)("refuses $name with $code and changes nothing", async ({ path, code }) => {
        const before = await fixture.listAll();
        expect(await codeOf(call(fixture.workspace, path))).toBe(code);
        expect(await fixture.listAll()).toEqual(before);
        expect(await fixture.outsideIntact()).toBe(true);
      });
    });

    test.skipIf(!host.symlinks).each(SYMLINK_CASES)(
      "read_file with a window through $name: $read",
      async ({ path, read }) => {
        const result = codeOf(createReadTool(fixture.workspace).execute({ path, offset: 1, limit: 1 }));
        expect(await result).toBe(read);
        if (read === null) {
          const page = await createReadTool(fixture.workspace).execute({ path, offset: 1, limit: 1 });
          expect(page).toMatchObject({ content: "inside", startLine: 1, endLine: 1, totalLines: 1, hasMore: false });
        }
      },
    );
  });

  describe(`fs edit tools through symlinks on the ${host.name} host`, () => {
    let fixture: TestWorkspace;
    const open = async () => {
      fixture = await host.open(TREE);
      return fixture;
    };
    afterAll(async () => {
      await fixture?.cleanup();
    });

    test.skipIf(!host.symlinks).each(SYMLINK_CASES)("edit_file through $name: $write", async ({ path, write }) => {
      const ws = await open();
      try {
        const before = await ws.listAll();
        const code = await codeOf(
          createEditTool(ws.workspace).execute({ path, old_string: "inside", new_string: "edited" }),
        );
        expect(code).toBe(write);
        expect(await ws.readRaw("d/f.txt")).toBe(write === null ? "edited" : "inside");
        expect(await ws.listAll()).toEqual(before); // links stay links
        expect(await ws.outsideIntact()).toBe(true);
        expect(await ws.leftovers()).toEqual([]);
      } finally {
        await ws.cleanup();
      }
    });

    test.skipIf(!host.symlinks).each(SYMLINK_CASES)("create_directory at $name", async ({ path, write }) => {
      const ws = await open();
      try {
        const before = await ws.listAll();
        const code = await codeOf(createDirectoryTool(ws.workspace).execute({ path }));
        // Every case that a write may follow names an existing file: refused as ALREADY_EXISTS.
        expect(code).toBe(write ?? "ALREADY_EXISTS");
        expect(await ws.listAll()).toEqual(before);
        expect(await ws.outsideIntact()).toBe(true);
      } finally {
        await ws.cleanup();
      }
    });

    test.skipIf(!host.symlinks).each(SYMLINK_CASES)("delete_path of $name", async ({ path }) => {
      const ws = await open();
      try {
        const before = await ws.listAll();
        const outcome = DELETE_OUTCOMES[path];
        const code = await codeOf(createDeleteTool(ws.workspace).execute({ path }));
        if ("code" in outcome) {
          expect(code).toBe(outcome.code);
          expect(await ws.listAll()).toEqual(before);
        } else {
          expect(code).toBe(null);
          expect(await ws.listAll()).toEqual(before.filter((entry) => !outcome.gone.includes(entry)));
        }
        expect(await ws.outsideIntact()).toBe(true);
      } finally {
        await ws.cleanup();
      }
    });

    test.skipIf(!host.symlinks).each(SYMLINK_CASES)("move_path from $name", async ({ path }) => {
      const ws = await open();
      try {
        const before = await ws.listAll();
        const outcome = MOVE_SOURCE_OUTCOMES[path];
        const code = await codeOf(createMoveTool(ws.workspace).execute({ source: path, destination: "moved" }));
        if ("code" in outcome) {
          expect(code).toBe(outcome.code);
          expect(await ws.listAll()).toEqual(before);
        } else {
          expect(code).toBe(null);
          const expected = [...before.filter((entry) => !outcome.gone.includes(entry)), ...(outcome.added ?? [])];
          expect(await ws.listAll()).toEqual(expected.sort());
        }
        expect(await ws.outsideIntact()).toBe(true);
      } finally {
        await ws.cleanup();
      }
    });

    test.skipIf(!host.symlinks).each(SYMLINK_CASES)("move_path onto $name", async ({ path, read }) => {
      const ws = await open();
      try {
        const before = await ws.listAll();
        const code = await codeOf(createMoveTool(ws.workspace).execute({ source: "src.txt", destination: path }));
        // A destination behind a link out is refused by the walk; every other one exists already.
        const escapes = read === "PATH_ESCAPES_WORKSPACE" && path.includes("/");
        expect(code).toBe(escapes ? "PATH_ESCAPES_WORKSPACE" : "ALREADY_EXISTS");
        expect(await ws.listAll()).toEqual(before);
        expect(await ws.outsideIntact()).toBe(true);
      } finally {
        await ws.cleanup();
      }
    });
  });
}

describe("createCodingTools()", () => {
  test("includes the edit, delete, move and create_directory tools and leaves out one given false", () => {
    const names = (tools: AnyTool[]) => tools.map((tool) => tool.name);
    expect(names(createCodingTools("/nonexistent"))).toEqual(
      expect.arrayContaining(["read_file", "edit_file", "delete_path", "move_path", "create_directory"]),
    );
    expect(names(createCodingTools("/nonexistent", { edit: false, move: false }))).not.toContain("edit_file");
    expect(names(createCodingTools("/nonexistent", { edit: { name: "str_replace" } }))).toContain("str_replace");
    expect(names(createReadOnlyTools("/nonexistent"))).not.toEqual(
      expect.arrayContaining(["edit_file"]),
    );
  });

  test("advertises plain object schemas without additional properties", () => {
    for (const tool of createCodingTools("/nonexistent")) {
      expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      expect(tool.inputSchema).not.toHaveProperty("anyOf");
      expect(tool.inputSchema).not.toHaveProperty("oneOf");
    }
  });
});
