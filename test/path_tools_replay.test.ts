// Every path tool of test/cases/tool_replay.ts, replayed over the shared
// hostile-path and symlink tables on every host, through executeToolCall.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { SLASH_DESTINATION_CASES, SYMLINK_CASES } from "./cases/symlink_fixtures.ts";
import { PATH_TOOLS, REPLAY_TREE } from "./cases/tool_replay.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { pathToolRegistry, replayHostile, replayLink } from "./helpers/replay.ts";
import { callTool } from "./helpers/tool_call.ts";

for (const host of TEST_HOSTS) {
  describe(`path tools on the ${host.name} host`, () => {
    describe("hostile paths", () => {
      let tw: TestWorkspace;
      beforeAll(async () => {
        tw = await host.open([...REPLAY_TREE, "f"]);
      });
      afterAll(() => tw.cleanup());
      describe.each(PATH_TOOLS)("$label", (tool) => {
        test.each(HOSTILE_PATHS)("refuses $name with $code and changes nothing", async (row) => {
          await replayHostile(tw, tool, row);
        });
      });
    });

    describe("symlink fixtures", () => {
      describe.each(PATH_TOOLS)("$label", (tool) => {
        test.each(SYMLINK_CASES)("through $name ($path) does what the table says", async (row) => {
          const tw = await host.open(REPLAY_TREE);
          try {
            await replayLink(tw, tool, row);
          } finally {
            await tw.cleanup();
          }
        });
      });
    });

    test("a caller's trailing '/' on a link to a file is named as the caller's in the message", async () => {
      const tw = await host.open(REPLAY_TREE);
      try {
        const registry = pathToolRegistry(tw.workspace);
        for (
          const [name, args] of [["read_file", { path: "in-file/" }], ["move_path", {
            source: "in-file/",
            destination: "x",
          }]] as const
        ) {
          const { body } = await callTool(registry, name, args);
          expect(body.error.code).toBe("NOT_A_DIRECTORY");
          expect(body.error.message).toContain("the path ends in '/'");
        }
        // A link whose own target ends in '/' is still named as the link's.
        const { body } = await callTool(registry, "read_file", { path: "file-slash" });
        expect(body.error.message).toContain("a symbolic link's target ends in '/'");
      } finally {
        await tw.cleanup();
      }
    });

    describe("move_path onto a destination ending in '/', with overwrite", () => {
      test.each(SLASH_DESTINATION_CASES)("onto $name ($destination), from $source", async (row) => {
        const tw = await host.open(REPLAY_TREE);
        try {
          const before = await tw.listAll();
          const contents = { "d/f.txt": await tw.readRaw("d/f.txt"), "src.txt": await tw.readRaw("src.txt") };
          const args = { source: row.source, destination: row.destination, overwrite: true };
          const { isError, body } = await callTool(pathToolRegistry(tw.workspace), "move_path", args);
          expect(isError ? body.error.code : null).toBe(row.code);
          if (row.code === null) {
            const to = row.destination.replace(/\/\.?$/, "");
            const moved = (entry: string) => entry.replace(new RegExp(`^${row.source}(?=/|$)`), to);
            expect(await tw.listAll()).toEqual(before.map(moved).sort());
          } else {
            // The message names the destination as the caller gave it, slash and all.
            if (row.source === "src.txt") expect(body.error.message).toContain(`'${row.destination}'`);
            expect(await tw.listAll()).toEqual(before);
            for (const [file, content] of Object.entries(contents)) expect(await tw.readRaw(file)).toBe(content);
          }
          expect(await tw.outsideIntact()).toBe(true);
          expect(await tw.leftovers()).toEqual([]);
        } finally {
          await tw.cleanup();
        }
      });
    });
  });
}
