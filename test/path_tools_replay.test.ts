// Every path tool of test/cases/tool_replay.ts, replayed over the shared
// hostile-path and symlink tables on every host, through executeToolCall.
import { afterAll, beforeAll, describe, test } from "vitest";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { SYMLINK_CASES } from "./cases/symlink_fixtures.ts";
import { PATH_TOOLS, REPLAY_TREE } from "./cases/tool_replay.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { replayHostile, replayLink } from "./helpers/replay.ts";

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
  });
}
