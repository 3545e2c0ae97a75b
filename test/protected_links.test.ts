// A protected name that is a symbolic link inside the workspace (issue #39,
// item 3): what it leads to is protected with it, for every file tool, on
// every host, however the tools were made; the links themselves stay as they
// were, and the files beside them stay writable.
import { afterEach, describe, expect, test } from "vitest";
import { createCodingTools, executeToolCall, ToolRegistry } from "../mod.ts";
import {
  PROTECTED_LINK_ABSENT,
  PROTECTED_LINK_CHANGES,
  PROTECTED_LINK_ORIGINALS,
  PROTECTED_LINK_TREE,
} from "./cases/protected_writes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

const ALLOW = { allow: ["npm test", "git status"], needsApproval: false };

let opened: TestWorkspace | undefined;
afterEach(async () => {
  await opened?.cleanup();
  opened = undefined;
});

async function expectIntact(tw: TestWorkspace, before: string[]): Promise<void> {
  for (const [file, bytes] of Object.entries(PROTECTED_LINK_ORIGINALS)) {
    expect(await tw.readRaw(file), file).toBe(bytes);
  }
  for (const name of PROTECTED_LINK_ABSENT) expect(await tw.readRaw(name), name).toBeNull();
  expect(await tw.listAll()).toEqual(before);
  expect(await tw.leftovers()).toEqual([]);
}

for (const host of TEST_HOSTS) {
  describe(`protected names that are links, on the ${host.name} host`, () => {
    for (const staleWriteGuard of [true, false]) {
      test.each(PROTECTED_LINK_CHANGES)(
        `$name is PROTECTED_PATH and changes nothing (stale-write guard ${staleWriteGuard ? "on" : "off"})`,
        async (row) => {
          const tw = opened = await host.open([...PROTECTED_LINK_TREE]);
          const registry = new ToolRegistry(createCodingTools(tw.workspace, { shell: ALLOW, staleWriteGuard }));
          // Read first, so the guard has nothing to say.
          for (const path of Object.keys(PROTECTED_LINK_ORIGINALS)) {
            await executeToolCall(registry, { id: "r", name: "read_file", arguments: { path } });
          }
          const before = await tw.listAll();
          const result = await executeToolCall(registry, { id: "1", name: row.tool, arguments: row.args });
          const body = JSON.parse(result.content);
          expect(body.error?.code, row.name).toBe("PROTECTED_PATH");
          expect(body.error.message).not.toContain(tw.workspace.root);
          await expectIntact(tw, before);
        },
      );
    }

    test("the files beside them stay writable, and the messages say why", async () => {
      const tw = opened = await host.open([...PROTECTED_LINK_TREE]);
      const protectedTools = new ToolRegistry(
        createCodingTools(tw.workspace, { shell: ALLOW, staleWriteGuard: false }),
      );
      for (
        const [name, args] of [
          ["write_file", { path: "cfg/other.json", content: "{}" }],
          ["write_file", { path: "lib/b.txt", content: "changed" }],
          ["move_path", { source: "lib/b.txt", destination: "lib/c.txt" }],
          ["delete_path", { path: "lib", recursive: true }],
        ] as const
      ) {
        const result = await executeToolCall(protectedTools, { id: "1", name, arguments: args });
        expect(result.isError, `${name} ${JSON.stringify(args)}: ${result.content}`).toBe(false);
      }
      // The messages say why.
      const write = await executeToolCall(protectedTools, {
        id: "2",
        name: "write_file",
        arguments: { path: "cfg/real.json", content: "{}" },
      });
      expect(JSON.parse(write.content).error.message).toBe(
        "Cannot write 'cfg/real.json': it is 'cfg/real.json', where a protected name that is a symbolic link leads",
      );
      const del = await executeToolCall(protectedTools, {
        id: "3",
        name: "delete_path",
        arguments: { path: "gitdir", recursive: true },
      });
      expect(JSON.parse(del.content).error.message).toBe(
        "Cannot delete 'gitdir': it is 'gitdir', where a protected name that is a symbolic link leads",
      );
    });

    test("without an allow list the targets are plain files", async () => {
      const tw = opened = await host.open([...PROTECTED_LINK_TREE]);
      const plain = new ToolRegistry(createCodingTools(tw.workspace, { staleWriteGuard: false }));
      const result = await executeToolCall(plain, {
        id: "1",
        name: "write_file",
        arguments: { path: "cfg/real.json", content: "{}" },
      });
      expect(result.isError).toBe(false);
      expect(await tw.readRaw("cfg/real.json")).toBe("{}");
    });
  });
}
