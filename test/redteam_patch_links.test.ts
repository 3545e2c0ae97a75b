// Red team: apply_patch and files spelled through a linked folder. A patch's files are identified by what they
// resolve to: two spellings of one file are refused before any change (test/cases/hostile_patches.ts), and a
// failure half-way puts back a file the patch wrote through a link.
import { afterEach, describe, expect, test } from "vitest";
import { createApplyPatchTool, createUndoLastChangeTool, openWorkspace } from "../mod.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { holdingHost } from "./helpers/holding_host.ts";

for (const host of TEST_HOSTS) {
  describe(`apply_patch through a linked folder on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    test("a failure after a file added through a linked folder puts that file back", async () => {
      const ws = fixture = await host.open(["real/", "linked => real", "keep.txt=kept\n"]);
      const base = ws.workspace.host;
      // Another writer makes b.txt once the patch closes its temp copy of linked/x.txt (its first file closed:
      // adding reads nothing), so the patch's second Add fails ALREADY_EXISTS after the first was written.
      const workspace = await openWorkspace(ws.workspace.rootEntry, {
        host: holdingHost(base, "close", async (call) => {
          if (call !== 1) return;
          const file = await base.open(ws.workspace.hostPath(["b.txt"]), { write: true, createExclusive: true });
          await file.write(new TextEncoder().encode("theirs\n"), 0);
          await file.close();
        }, "after"),
      });
      const patch = "*** Begin Patch\n*** Add File: linked/x.txt\n+ours\n*** Add File: b.txt\n+ours\n*** End Patch\n";
      const result = await createApplyPatchTool(workspace).execute({ patch }).catch((error: unknown) => error);
      // Before, the file was named by its spelling, the journal by its real path: nothing was put back.
      expect(result).toMatchObject({ code: "ALREADY_EXISTS", details: { restored: ["linked/x.txt"] } });
      expect(await ws.readRaw("real/x.txt")).toBeNull();
      expect(await ws.readRaw("b.txt")).toBe("theirs\n");
      expect(await ws.listAll()).toEqual(["b.txt", "keep.txt", "linked", "real/"]);
      expect(await ws.leftovers()).toEqual([]);
      expect(await ws.outsideIntact()).toBe(true);
      // Nothing of the patch is left for undo to take back.
      expect(await createUndoLastChangeTool(workspace).execute({}).catch((error: { code?: string }) => error.code))
        .toBe("NOTHING_TO_UNDO");
    });

    test("a move to a new file through a linked folder and an update of it spelled directly is refused", async () => {
      const ws = fixture = await host.open(["real/", "linked => real", "a.txt=one\n", "real/y.txt=y\n"]);
      const tool = createApplyPatchTool(ws.workspace);
      const patch = "*** Begin Patch\n*** Update File: real/y.txt\n@@\n-y\n+Y\n" +
        "*** Update File: a.txt\n*** Move to: linked/y.txt\n*** End Patch\n";
      // The move's destination exists (it is real/y.txt): refused as that, and nothing changed.
      expect(await tool.execute({ patch }).catch((error: { code?: string }) => error.code)).toBe("PATCH_FILE_EXISTS");
      expect(await ws.readRaw("real/y.txt")).toBe("y\n");
      expect(await ws.readRaw("a.txt")).toBe("one\n");
    });
  });
}
