// The stale-write guard on the region (test/cases/stale_regions.ts), replayed through edit_file and apply_patch on
// every host; then the agent's own writes keeping the stamp current, and write_file's whole-file rule.
import { afterEach, describe, expect, test } from "vitest";
import { type AnyTool, createCodingTools, type Workspace } from "../mod.ts";
import { STALE_REGION_CASES } from "./cases/stale_regions.ts";
import { errorOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

// Someone else rewrites the file (a new inode, as formatters that write and rename make).
async function rewrite(workspace: Workspace, name: string, text: string): Promise<void> {
  await workspace.host.unlink(workspace.hostPath([name]));
  const file = await workspace.host.open(workspace.hostPath([name]), {
    write: true,
    createExclusive: true,
    mode: 0o644,
  });
  await file.write(new TextEncoder().encode(text), 0);
  await file.close();
}

function toolsOf(workspace: Workspace): (name: string) => AnyTool {
  const tools = createCodingTools(workspace, { processTools: false });
  return (name) => tools.find((tool) => tool.name === name) as AnyTool;
}

// deno-lint-ignore no-explicit-any
type Any = any;
const run = (tool: AnyTool, args: Record<string, unknown>): Promise<Any> => tool.execute(args as never);

const WAYS = [
  {
    name: "edit_file",
    action: "edit",
    call: (tool: (name: string) => AnyTool, edit: { old_string: string; new_string: string }) =>
      run(tool("edit_file"), { path: "f.txt", old_string: edit.old_string, new_string: edit.new_string }),
    changes: (result: Any) => result.changedSinceRead ?? [],
  },
  {
    name: "apply_patch",
    action: "patch",
    call: (tool: (name: string) => AnyTool, edit: { hunk: string }) =>
      run(tool("apply_patch"), { patch: `*** Begin Patch\n*** Update File: f.txt\n@@\n${edit.hunk}*** End Patch\n` }),
    changes: (result: Any) => result.files[0].changedSinceRead ?? [],
  },
];

for (const host of TEST_HOSTS) {
  describe(`the stale-write guard on the region, on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    const open = async (tree: string[]) => (fixture = await host.open(tree));
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    for (const way of WAYS) {
      for (const row of STALE_REGION_CASES) {
        test(`${way.name}: ${row.name}`, async () => {
          const ws = await open([`f.txt=${row.before}`]);
          const tool = toolsOf(ws.workspace);
          await run(tool("read_file"), { path: "f.txt", ...row.read });
          await rewrite(ws.workspace, "f.txt", row.changed);
          if (row.through !== undefined) {
            const result = await way.call(tool, row.edit);
            expect(await ws.readRaw("f.txt")).toBe(row.through.after);
            expect(way.changes(result)).toEqual(row.through.changedSinceRead);
          } else {
            const refused = row.refused!;
            const error = await errorOf(way.call(tool, row.edit));
            expect(error.code).toBe("FILE_CHANGED_SINCE_READ");
            expect(error.message).toBe(
              `Cannot ${way.action} 'f.txt': ${refused.because.replaceAll("EDIT", way.action)}`,
            );
            expect(error.details).toEqual({ region: refused.region, current: refused.current });
            expect(await ws.readRaw("f.txt")).toBe(row.changed);
          }
          expect(await ws.leftovers()).toEqual([]);
        });
      }

      test(`${way.name}: no refusal after the agent's own change, nor after a formatter changed other lines since`, async () => {
        const ws = await open(["f.txt=a\nb\nc\nd\ne\n"]);
        const tool = toolsOf(ws.workspace);
        await run(tool("read_file"), { path: "f.txt" });
        await way.call(tool, { old_string: "b", new_string: "B", hunk: " a\n-b\n+B\n c\n" });
        const again = await way.call(tool, { old_string: "d", new_string: "D", hunk: " c\n-d\n+D\n e\n" });
        expect(way.changes(again)).toEqual([]);
        await rewrite(ws.workspace, "f.txt", "a\nB\nc\nD\ne;\n");
        const third = await way.call(tool, { old_string: "c", new_string: "C", hunk: " B\n-c\n+C\n D\n" });
        expect(way.changes(third)).toEqual([{ startLine: 5, endLine: 5, removed: 1, text: "e;\n" }]);
        expect(await ws.readRaw("f.txt")).toBe("a\nB\nC\nD\ne;\n");
      });
    }

    test("write_file over a whole file keeps the whole-file rule", async () => {
      const ws = await open(["f.txt=a\nb\n"]);
      const tool = toolsOf(ws.workspace);
      await run(tool("read_file"), { path: "f.txt" });
      await rewrite(ws.workspace, "f.txt", "a\nB\n");
      const error = await errorOf(run(tool("write_file"), { path: "f.txt", content: "x\n" }));
      expect(error.code).toBe("FILE_CHANGED_SINCE_READ");
      expect(await ws.readRaw("f.txt")).toBe("a\nB\n");
    });

    test("a file never read is still FILE_NOT_READ; an edit inside a one-line window goes through, lines past it unreported", async () => {
      const ws = await open(["f.txt=a\nb\nc\n"]);
      const tool = toolsOf(ws.workspace);
      expect((await errorOf(run(tool("edit_file"), { path: "f.txt", old_string: "a", new_string: "A" }))).code)
        .toBe("FILE_NOT_READ");
      await run(tool("read_file"), { path: "f.txt", offset: 1, limit: 1 });
      await rewrite(ws.workspace, "f.txt", "a\nb\nC\n");
      expect((await run(tool("edit_file"), { path: "f.txt", old_string: "a", new_string: "A" })).changedSinceRead)
        .toBeUndefined();
    });
  });
}
