import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import {
  createApplyPatchTool,
  createCodingTools,
  createEditTool,
  createFsTools,
  createReadTool,
  createWriteTool,
  openWorkspace,
  ToolRegistry,
} from "../mod.ts";
import { readTrackerOf } from "../src/extend.ts";
import { createMcpRegistry } from "../src/mcp/create_mcp_registry.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { MemoryWorkspace } from "../testing.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { wrapHost } from "./helpers/swap_at_call.ts";
import { callTool } from "./helpers/tool_call.ts";

/** Another writer (a person, a formatter): changes the file in place, without Paddock. */
function writeBehind(tw: TestWorkspace, relative: string, content: string): void {
  const workspace = tw.workspace;
  if (workspace instanceof MemoryWorkspace) {
    workspace.host.writeFileSync(workspace.hostPath(relative.split("/")), content);
  } else fs.writeFileSync(path.join(workspace.root, relative), content);
}

const patchOf = (body: string) => `*** Begin Patch\n${body}*** End Patch\n`;

for (const host of TEST_HOSTS) {
  describe(`the stale-write guard on the ${host.name} host`, () => {
    async function withCodingTools(
      tree: string[],
      body: (tw: TestWorkspace, registry: ToolRegistry) => Promise<void>,
    ): Promise<void> {
      const tw = await host.open(tree);
      try {
        await body(tw, new ToolRegistry(createCodingTools(tw.workspace)));
        expect(await tw.leftovers()).toEqual([]);
      } finally {
        await tw.cleanup();
      }
    }

    test("write_file, edit_file and apply_patch refuse an existing file never read, with FILE_NOT_READ", async () => {
      await withCodingTools(["a.txt=old\n"], async (tw, registry) => {
        const calls: [string, unknown][] = [
          ["write_file", { path: "a.txt", content: "new\n" }],
          ["edit_file", { path: "a.txt", old_string: "old", new_string: "new" }],
          ["apply_patch", { patch: patchOf("*** Update File: a.txt\n@@\n-old\n+new\n") }],
          ["apply_patch", { patch: patchOf("*** Delete File: a.txt\n") }],
        ];
        for (const [name, args] of calls) {
          const { isError, body } = await callTool(registry, name, args);
          expect(isError, name).toBe(true);
          expect(body.error.code, name).toBe("FILE_NOT_READ");
          expect(body.error.hint, name).toContain("read 'a.txt'");
        }
        expect(await tw.readRaw("a.txt")).toBe("old\n");
      });
    });

    test("after read_file the file may be changed, and a file the agent wrote counts as read", async () => {
      await withCodingTools(["a.txt=one\n"], async (tw, registry) => {
        expect((await callTool(registry, "read_file", { path: "a.txt" })).isError).toBe(false);
        expect((await callTool(registry, "edit_file", { path: "a.txt", old_string: "one", new_string: "two" })).body)
          .toMatchObject({ replacements: 1 });
        expect((await callTool(registry, "write_file", { path: "a.txt", content: "three\n" })).isError).toBe(false);
        const patched = await callTool(registry, "apply_patch", {
          patch: patchOf("*** Update File: a.txt\n@@\n-three\n+four\n"),
        });
        expect(patched.isError).toBe(false);
        expect(
          (await callTool(registry, "edit_file", { path: "a.txt", old_string: "four", new_string: "five" })).isError,
        )
          .toBe(false);
        expect(await tw.readRaw("a.txt")).toBe("five\n");
      });
    });

    test("creating a new file needs no read, and the new file counts as read", async () => {
      await withCodingTools([], async (tw, registry) => {
        expect((await callTool(registry, "write_file", { path: "d/new.txt", content: "x\n" })).isError).toBe(false);
        expect((await callTool(registry, "apply_patch", { patch: patchOf("*** Add File: added.txt\n+a\n") })).isError)
          .toBe(false);
        expect((await callTool(registry, "edit_file", { path: "added.txt", old_string: "a", new_string: "b" })).isError)
          .toBe(false);
        expect((await callTool(registry, "write_file", { path: "d/new.txt", content: "y\n" })).isError).toBe(false);
        expect(await tw.readRaw("added.txt")).toBe("b\n");
      });
    });

    test("a file changed by someone else since it was read is refused with FILE_CHANGED_SINCE_READ", async () => {
      await withCodingTools(["a.txt=one\n"], async (tw, registry) => {
        await callTool(registry, "read_file", { path: "a.txt" });
        writeBehind(tw, "a.txt", "one, changed by a person\n");
        const calls: [string, unknown][] = [
          ["write_file", { path: "a.txt", content: "mine\n" }],
          ["edit_file", { path: "a.txt", old_string: "one", new_string: "two" }],
          ["apply_patch", { patch: patchOf("*** Update File: a.txt\n@@\n-one, changed by a person\n+two\n") }],
        ];
        for (const [name, args] of calls) {
          const { body } = await callTool(registry, name, args);
          expect(body.error.code, name).toBe("FILE_CHANGED_SINCE_READ");
          expect(body.error.hint, name).toContain("read it again");
        }
        expect(await tw.readRaw("a.txt")).toBe("one, changed by a person\n");
        // Read again: now the change goes through.
        await callTool(registry, "read_file", { path: "a.txt", offset: 1, limit: 1 }); // a windowed read counts
        expect((await callTool(registry, "edit_file", { path: "a.txt", old_string: "one", new_string: "two" })).isError)
          .toBe(false);
        expect(await tw.readRaw("a.txt")).toBe("two, changed by a person\n");
      });
    });

    test("move_path {overwrite: true} and delete_path refuse a file never read, or changed since, as write_file does", async () => {
      await withCodingTools(
        ["a.txt=a\n", "b.txt=b\n", "c.txt=c\n", "d/e.txt=e\n", "l => c.txt"],
        async (tw, registry) => {
          const before = await tw.listAll();
          // Never read: the file replaced by a move, and the file deleted.
          for (
            const [name, args] of [
              ["move_path", { source: "b.txt", destination: "a.txt", overwrite: true }],
              ["delete_path", { path: "a.txt" }],
            ] as const
          ) {
            const { body } = await callTool(registry, name, args);
            expect(body.error?.code, name).toBe("FILE_NOT_READ");
            expect(body.error.hint, name).toContain("read 'a.txt'");
          }
          // Read, then changed by someone else.
          await callTool(registry, "read_file", { path: "a.txt" });
          writeBehind(tw, "a.txt", "a, changed by a person\n");
          for (
            const [name, args] of [
              ["move_path", { source: "b.txt", destination: "a.txt", overwrite: true }],
              ["delete_path", { path: "a.txt" }],
            ] as const
          ) {
            expect((await callTool(registry, name, args)).body.error?.code, name).toBe("FILE_CHANGED_SINCE_READ");
          }
          expect(await tw.listAll()).toEqual(before);
          expect(await tw.readRaw("a.txt")).toBe("a, changed by a person\n");
          expect(await tw.readRaw("b.txt")).toBe("b\n");
          // What moves needs no read; a link and a folder are not checked (no text of their own; files not each read).
          expect((await callTool(registry, "move_path", { source: "c.txt", destination: "c2.txt" })).isError).toBe(
            false,
          );
          expect((await callTool(registry, "delete_path", { path: "l" })).isError).toBe(false);
          expect((await callTool(registry, "delete_path", { path: "d", recursive: true })).isError).toBe(false);
          // Read again: the replace goes through; what was seen of the moved file follows it to its new name.
          await callTool(registry, "read_file", { path: "a.txt" });
          await callTool(registry, "read_file", { path: "b.txt" });
          expect(
            (await callTool(registry, "move_path", { source: "b.txt", destination: "a.txt", overwrite: true })).body,
          )
            .toMatchObject({ overwritten: true });
          expect((await callTool(registry, "edit_file", { path: "a.txt", old_string: "b", new_string: "B" })).isError)
            .toBe(false);
          expect((await callTool(registry, "delete_path", { path: "a.txt" })).isError).toBe(false);
          expect(await tw.listAll()).toEqual(["c2.txt"]);
        },
      );
    });

    test("a multi-file patch with one stale file changes nothing", async () => {
      await withCodingTools(["a.txt=a\n", "b.txt=b\n"], async (tw, registry) => {
        await callTool(registry, "read_file", { path: "a.txt" });
        const { body } = await callTool(registry, "apply_patch", {
          patch: patchOf("*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n"),
        });
        expect(body.error).toMatchObject({ code: "FILE_NOT_READ", message: expect.stringContaining("'b.txt'") });
        expect([await tw.readRaw("a.txt"), await tw.readRaw("b.txt")]).toEqual(["a\n", "b\n"]);
      });
    });

    test("a file read through a link inside counts for its target", async () => {
      await withCodingTools(["t.txt=x\n", "link.txt => t.txt"], async (tw, registry) => {
        await callTool(registry, "read_file", { path: "link.txt" });
        expect((await callTool(registry, "write_file", { path: "t.txt", content: "y\n" })).isError).toBe(false);
        expect(await tw.readRaw("t.txt")).toBe("y\n");
      });
    });

    test("is off with staleWriteGuard: false, for factories called alone, and for the seeds' createFsTools", async () => {
      const tw = await host.open(["a.txt=1\n"]);
      try {
        const registries = [
          new ToolRegistry(createCodingTools(tw.workspace, { staleWriteGuard: false })),
          new ToolRegistry([
            createWriteTool(tw.workspace),
            createEditTool(tw.workspace),
            createApplyPatchTool(tw.workspace),
          ]),
          new ToolRegistry(createFsTools(tw.workspace)),
        ];
        let n = 1;
        for (const registry of registries) {
          writeBehind(tw, "a.txt", `${n}\n`);
          expect(
            (await callTool(registry, "edit_file", { path: "a.txt", old_string: `${n}`, new_string: `${n + 1}` }))
              .isError,
          )
            .toBe(false);
          n++;
        }
        expect(await tw.readRaw("a.txt")).toBe(`${n}\n`);
        expect(createFsTools(tw.workspace).map((tool) => tool.name)).not.toContain("apply_patch");
      } finally {
        await tw.cleanup();
      }
    });

    test("one tracker per workspace: a read by one tool lets another tool over the same workspace write", async () => {
      const tw = await host.open(["a.txt=1\n"]);
      try {
        await createReadTool(tw.workspace).execute({ path: "a.txt" });
        const write = createWriteTool(tw.workspace, { staleWriteGuard: true });
        await write.execute({ path: "a.txt", content: "2\n" });
        expect(readTrackerOf(tw.workspace).seen(["a.txt"])).toMatchObject({ size: 2 });
        expect(await tw.readRaw("a.txt")).toBe("2\n");
      } finally {
        await tw.cleanup();
      }
    });
  });
}

describe("the stale-write guard through paddock mcp's registry", () => {
  test("is on by default (read_multiple_files counts as a read) and off with staleWriteGuard: false", async () => {
    const fixture = await diskFixture(["a.txt=1\n", "b.txt=1\n"]);
    try {
      const registry = createMcpRegistry(fixture.workspace);
      expect(
        (await callTool(registry, "edit_file", { path: "a.txt", old_string: "1", new_string: "2" })).body.error.code,
      )
        .toBe("FILE_NOT_READ");
      await callTool(registry, "read_multiple_files", { paths: ["a.txt"] });
      expect((await callTool(registry, "edit_file", { path: "a.txt", old_string: "1", new_string: "2" })).isError).toBe(
        false,
      );
      const off = createMcpRegistry(await openWorkspace(fixture.root), { staleWriteGuard: false });
      expect((await callTool(off, "edit_file", { path: "b.txt", old_string: "1", new_string: "2" })).isError).toBe(
        false,
      );
      expect(fs.readFileSync(fixture.abs("a.txt"), "utf8") + fs.readFileSync(fixture.abs("b.txt"), "utf8")).toBe(
        "2\n2\n",
      );
    } finally {
      fixture.cleanup();
    }
  });
});

describe("the stale-write guard checks at the write's own compare step", () => {
  test("a change in place, same size, after the guard passed and before the rename is refused, and kept", async () => {
    const fixture = await diskFixture(["a.txt=one\n"]);
    try {
      let armed = false;
      const { host } = wrapHost(createAutoHost(), {
        // Just before the temp file is synced (after the guard's check inside the lock): another writer.
        beforeCall: (_n, name) => {
          if (armed && name.endsWith("sync") && !name.startsWith("syncFolder")) {
            armed = false;
            fs.writeFileSync(fixture.abs("a.txt"), "ONE\n");
            const later = new Date(Date.now() + 5_000);
            fs.utimesSync(fixture.abs("a.txt"), later, later); // same size: only the mtime tells
          }
        },
      });
      const workspace = await openWorkspace(fixture.root, { host });
      const registry = new ToolRegistry(createCodingTools(workspace));
      await callTool(registry, "read_file", { path: "a.txt" });
      armed = true;
      const { body } = await callTool(registry, "write_file", { path: "a.txt", content: "mine\n" });
      expect(armed).toBe(false);
      expect(body.error.code).toBe("PATH_CHANGED");
      expect(fs.readFileSync(fixture.abs("a.txt"), "utf8")).toBe("ONE\n");
      expect(fs.readdirSync(fixture.root)).toEqual(["a.txt"]);
    } finally {
      fixture.cleanup();
    }
  });
});
