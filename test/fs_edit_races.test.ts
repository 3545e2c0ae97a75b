import { afterEach, describe, expect, test } from "vitest";
import {
  configureCheckpoints,
  createApplyPatchTool,
  createDeleteTool,
  createEditTool,
  createMoveTool,
  createUndoLastChangeTool,
  createWriteTool,
  isWorkspaceError,
  openWorkspace,
} from "../mod.ts";
import { type Host, TEMP_FILE_PREFIX } from "../host.ts";
import { codeOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { holdingHost } from "./helpers/holding_host.ts";

// A host that runs `hook` once, after the `nth` call of `method` resolves
// (for `close`: after the `nth` opened file is closed).
function after(host: Host, method: "unlink" | "close", hook: () => Promise<void>, nth = 1): Host {
  return holdingHost(host, method, (call) => call === nth ? hook() : undefined, "after");
}

for (const host of TEST_HOSTS) {
  describe(`fs edit tools under concurrent changes on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    const open = async (tree: string[]) => (fixture = await host.open(tree));
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    test("delete_path stops when the root is moved away in the middle of a recursive delete", async () => {
      const ws = await open(["d/1", "d/2", "d/3"]);
      const base = ws.workspace.host;
      const root = ws.workspace.root;
      const moved = `${root}-moved`;
      const spied = after(base, "unlink", () => base.rename(root, moved));
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: spied });
      try {
        expect(await codeOf(createDeleteTool(workspace).execute({ path: "d", recursive: true }))).toBe(
          "WORKSPACE_ROOT_CHANGED",
        );
      } finally {
        await base.rename(moved, root);
      }
      // One entry went before the root moved; the rest stayed.
      expect((await ws.listAll()).length).toBe(3);
    });

    test("edit_file refuses when the file changes between its read and its write", async () => {
      const ws = await open(["a.txt=hello world\n"]);
      const base = ws.workspace.host;
      const target = ws.workspace.hostPath(["a.txt"]);
      const spied = after(base, "close", async () => {
        // Another writer appends to the file right after the edit read it.
        const file = await base.open(target, { write: true });
        await file.write(new TextEncoder().encode("hello world\nmore\n"), 0);
        await file.close();
      });
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: spied });
      const code = await codeOf(
        createEditTool(workspace).execute({ path: "a.txt", old_string: "world", new_string: "there" }),
      );
      expect(code).toBe("PATH_CHANGED");
      expect(await ws.readRaw("a.txt")).toBe("hello world\nmore\n");
      expect(await ws.leftovers()).toEqual([]);
    });

    test("a write_file during a delete_path of the same file is never removed by it: it waits, then says", async () => {
      const ws = await open(["a.txt=old\n"]);
      let unlinks = 0;
      let letGo!: () => void;
      const goes = new Promise<void>((resolve) => letGo = resolve);
      const workspace = await openWorkspace(ws.workspace.rootEntry, {
        host: holdingHost(ws.workspace.host, "unlink", (call) => {
          unlinks = call;
          return goes;
        }),
      });
      // The delete has checked a.txt and journaled it, and waits at its unlink while the write runs.
      const deleted = createDeleteTool(workspace).execute({ path: "a.txt" });
      for (let waited = 0; unlinks === 0 && waited < 5_000; waited += 5) await new Promise((r) => setTimeout(r, 5));
      expect(unlinks).toBe(1);
      const wrote = createWriteTool(workspace).execute({ path: "a.txt", content: "new\n" }).then(
        () => "written",
        (error: unknown) => isWorkspaceError(error) ? error.code : error,
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
      letGo();
      expect(await deleted).toMatchObject({ path: "a.txt", removed: 1 });
      // The write ran after the removal: it found the file it had looked at gone, or wrote its own. Never "written"
      // with nothing there.
      const outcome = await wrote;
      expect(outcome === "written" ? await ws.readRaw("a.txt") : outcome).toBe(
        outcome === "written" ? "new\n" : "PATH_CHANGED",
      );
      expect(await ws.leftovers()).toEqual([]);
    });

    // Another writer makes `name` once the first file's temp copy is written (after apply_patch checked it).
    const makesFileMidway = (ws: TestWorkspace, name: string) => {
      const base = ws.workspace.host;
      // The second close: the first is apply_patch's read of keep.txt while it plans.
      return after(base, "close", async () => {
        const file = await base.open(ws.workspace.hostPath([name]), { write: true, createExclusive: true });
        await file.write(new TextEncoder().encode("theirs\n"), 0);
        await file.close();
      }, 2);
    };
    const TWO_FILES =
      "*** Begin Patch\n*** Update File: keep.txt\n@@\n-kept\n+ours\n*** Add File: sub/new.txt\n+ours\n" +
      "*** Add File: b.txt\n+ours\n*** End Patch\n";

    // keep.txt and two.txt updated, then b.txt added (which another writer makes first, in the tests that use it).
    const THREE_FILES =
      "*** Begin Patch\n*** Update File: keep.txt\n@@\n-kept\n+ours\n*** Update File: two.txt\n@@\n-two\n" +
      "+ours\n*** Add File: b.txt\n+ours\n*** End Patch\n";

    test("apply_patch stopped by a file made between its check and its write puts back what it changed", async () => {
      const ws = await open(["keep.txt=kept\n"]);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: makesFileMidway(ws, "b.txt") });
      const result = await createApplyPatchTool(workspace).execute({ patch: TWO_FILES }).catch((error) => error);
      expect(result).toMatchObject({ code: "ALREADY_EXISTS", details: { restored: ["keep.txt", "sub/new.txt"] } });
      // Quoted, as every path of a message is (an MCP server prefixes a quoted path of another root).
      expect((result as Error).message).toMatch(
        /\(the files it had changed are put back: 'keep\.txt', 'sub\/new\.txt'\)$/,
      );
      expect(await ws.readRaw("keep.txt")).toBe("kept\n");
      expect(await ws.readRaw("sub/new.txt")).toBe(null);
      expect(await ws.readRaw("b.txt")).toBe("theirs\n");
      expect(await ws.leftovers()).toEqual([]);
      // The folder made for the added file stays (another call may have put something in it since), and it is
      // all undo_last_change has left to take back: the files put back are not taken back twice.
      expect(await ws.listAll()).toEqual(["b.txt", "keep.txt", "sub/"]);
      const undone = await createUndoLastChangeTool(workspace).execute({});
      expect(undone.changes.map((change) => [change.path, change.change, change.status])).toEqual([
        ["sub", "mkdir", "restored"],
      ]);
      expect(await ws.listAll()).toEqual(["b.txt", "keep.txt"]);
    });

    test("apply_patch with the change journal off cannot put back: it names what it applied", async () => {
      const ws = await open(["keep.txt=kept\n"]);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: makesFileMidway(ws, "b.txt") });
      configureCheckpoints(workspace, { enabled: false });
      const result = await createApplyPatchTool(workspace).execute({ patch: TWO_FILES }).catch((error) => error);
      expect(result).toMatchObject({ code: "ALREADY_EXISTS", details: { applied: ["keep.txt", "sub/new.txt"] } });
      expect((result as Error).message).toMatch(/\(already applied: 'keep\.txt', 'sub\/new\.txt'\)$/);
      expect(await ws.readRaw("keep.txt")).toBe("ours\n");
      expect(await ws.readRaw("b.txt")).toBe("theirs\n");
    });

    test("apply_patch puts back only the files no one changed since; it names the one left changed", async () => {
      const ws = await open(["keep.txt=kept\n", "two.txt=two\n"]);
      const base = ws.workspace.host;
      // The fifth close: two.txt's temp copy (after the plan's two reads, keep.txt's temp copy and its folder's
      // sync). Another writer
      // then rewrites keep.txt (which the patch changed already) and makes b.txt (which the patch adds next).
      const meddles = after(base, "close", async () => {
        const keep = await base.open(ws.workspace.hostPath(["keep.txt"]), { write: true });
        await keep.write(new TextEncoder().encode("theirs, longer\n"), 0);
        await keep.close();
        const made = await base.open(ws.workspace.hostPath(["b.txt"]), { write: true, createExclusive: true });
        await made.write(new TextEncoder().encode("theirs\n"), 0);
        await made.close();
      }, 5);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: meddles });
      const result = await createApplyPatchTool(workspace).execute({ patch: THREE_FILES }).catch((error) => error);
      expect(result).toMatchObject({
        code: "ALREADY_EXISTS",
        details: { restored: ["two.txt"], applied: ["keep.txt"] },
      });
      expect((result as Error).message).toMatch(/\(put back: 'two\.txt'; already applied: 'keep\.txt'\)$/);
      expect(await ws.readRaw("two.txt")).toBe("two\n");
      expect(await ws.readRaw("keep.txt")).toBe("theirs, longer\n");
      expect(await ws.readRaw("b.txt")).toBe("theirs\n");
      expect(await ws.leftovers()).toEqual([]);
    });

    test("apply_patch puts back its own files when another call changed one of them meanwhile", async () => {
      const ws = await open(["keep.txt=kept\n", "two.txt=two\n"]);
      const base = ws.workspace.host;
      // Another tool call, begun outside the patch's call: once let go, it rewrites keep.txt (which the patch
      // changed already), and b.txt appears (which the patch adds next).
      let letGo!: () => void;
      const goes = new Promise<void>((resolve) => letGo = resolve);
      let other = Promise.resolve();
      // The fifth close: two.txt's temp copy, as in the test before.
      const workspace = await openWorkspace(ws.workspace.rootEntry, {
        host: after(base, "close", async () => {
          letGo();
          await other;
        }, 5),
      });
      other = (async () => {
        await goes;
        await createWriteTool(workspace).execute({ path: "keep.txt", content: "theirs, longer\n" });
        const made = await base.open(ws.workspace.hostPath(["b.txt"]), { write: true, createExclusive: true });
        await made.write(new TextEncoder().encode("theirs\n"), 0);
        await made.close();
      })();
      const result = await createApplyPatchTool(workspace).execute({ patch: THREE_FILES }).catch((error) => error);
      expect(result).toMatchObject({
        code: "ALREADY_EXISTS",
        details: { restored: ["two.txt"], applied: ["keep.txt"] },
      });
      expect([await ws.readRaw("keep.txt"), await ws.readRaw("two.txt")]).toEqual(["theirs, longer\n", "two\n"]);
      // The other call is the newest change: undone first, then the patch's keep.txt, found as it left it again.
      const undo = createUndoLastChangeTool(workspace);
      expect((await undo.execute({})).changes).toEqual([{ path: "keep.txt", change: "write", status: "restored" }]);
      expect(await ws.readRaw("keep.txt")).toBe("ours\n");
      expect((await undo.execute({})).changes).toEqual([{ path: "keep.txt", change: "write", status: "restored" }]);
      expect(await ws.readRaw("keep.txt")).toBe("kept\n");
      expect(await ws.leftovers()).toEqual([]);
    });

    test("apply_patch whose file was replaced before its folder's sync failed puts that file back too", async () => {
      const ws = await open(["p1=p1\n", "p2=p2\n", "p3=p3\n"]);
      // Once p2's new version is renamed into place (the second rename), the next sync of a folder fails (a disk error).
      let renamed = 0;
      let failSync = false;
      const host = new Proxy(ws.workspace.host, {
        get(target, property) {
          const value = Reflect.get(target, property, target);
          if (typeof value !== "function") return value;
          if (property === "rename") {
            return async (...args: unknown[]) => {
              const result = await value.apply(target, args);
              failSync = ++renamed === 2;
              return result;
            };
          }
          if (property !== "openDir") return value.bind(target);
          return async (...args: unknown[]) => {
            const folder = await value.apply(target, args);
            const sync = folder.sync.bind(folder);
            folder.sync = () => {
              if (!failSync) return sync();
              failSync = false;
              return Promise.reject(Object.assign(new Error("EIO: i/o error, fsync"), { code: "EIO" }));
            };
            return folder;
          };
        },
      });
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host });
      const patch = "*** Begin Patch\n*** Update File: p1\n@@\n-p1\n+P1\n*** Update File: p2\n@@\n-p2\n+P2\n" +
        "*** Update File: p3\n@@\n-p3\n+P3\n*** End Patch\n";
      const result = await createApplyPatchTool(workspace).execute({ patch }).catch((error) => error);
      expect(result).toMatchObject({ details: { restored: ["p1", "p2"] } });
      expect(result.details.applied).toBeUndefined();
      expect([await ws.readRaw("p1"), await ws.readRaw("p2"), await ws.readRaw("p3")]).toEqual([
        "p1\n",
        "p2\n",
        "p3\n",
      ]);
      expect(await ws.leftovers()).toEqual([]);
    });

    test("apply_patch whose move wrote the new file and found the old one replaced takes the new file back", async () => {
      const ws = await open(["old.txt=kept\n"]);
      const base = ws.workspace.host;
      // The second close: the new file's temp copy is written (the first is the plan's read of old.txt).
      const replacesOld = after(base, "close", async () => {
        const file = await base.open(ws.workspace.hostPath(["theirs.tmp"]), { write: true, createExclusive: true });
        await file.write(new TextEncoder().encode("theirs\n"), 0);
        await file.close();
        await base.rename(ws.workspace.hostPath(["theirs.tmp"]), ws.workspace.hostPath(["old.txt"]));
      }, 2);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: replacesOld });
      const patch =
        "*** Begin Patch\n*** Update File: old.txt\n*** Move to: new.txt\n@@\n-kept\n+ours\n*** End Patch\n";
      const result = await createApplyPatchTool(workspace).execute({ patch }).catch((error) => error);
      expect(result).toMatchObject({ details: { restored: ["new.txt"] } });
      expect((result as { code?: unknown }).code).toBe("PATH_CHANGED");
      expect(await ws.readRaw("old.txt")).toBe("theirs\n");
      expect(await ws.readRaw("new.txt")).toBe(null);
      expect(await ws.listAll()).toEqual(["old.txt"]);
      expect(await ws.leftovers()).toEqual([]);
    });

    test("apply_patch whose move wrote the new file, with the change journal off, names the new file applied", async () => {
      const ws = await open(["old.txt=kept\n"]);
      const base = ws.workspace.host;
      // As in the test before: old.txt is replaced once the new file's temp copy is written.
      const replacesOld = after(base, "close", async () => {
        const file = await base.open(ws.workspace.hostPath(["theirs.tmp"]), { write: true, createExclusive: true });
        await file.write(new TextEncoder().encode("theirs\n"), 0);
        await file.close();
        await base.rename(ws.workspace.hostPath(["theirs.tmp"]), ws.workspace.hostPath(["old.txt"]));
      }, 2);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: replacesOld });
      configureCheckpoints(workspace, { enabled: false });
      const patch =
        "*** Begin Patch\n*** Update File: old.txt\n*** Move to: new.txt\n@@\n-kept\n+ours\n*** End Patch\n";
      const result = await createApplyPatchTool(workspace).execute({ patch }).catch((error) => error);
      expect(result).toMatchObject({ code: "PATH_CHANGED", details: { applied: ["new.txt"] } });
      expect((result as Error).message).toMatch(/\(already applied: 'new\.txt'\)$/);
      expect([await ws.readRaw("old.txt"), await ws.readRaw("new.txt")]).toEqual(["theirs\n", "ours\n"]);
      expect(await ws.leftovers()).toEqual([]);
    });

    // Settles after `ms`, or at once when `first` settles first.
    const soonerOf = (first: Promise<unknown>, ms: number) =>
      Promise.race([first.then(() => {}, () => {}), new Promise<void>((resolve) => setTimeout(resolve, ms))]);
    const isTemp = (args: unknown[]) => String(args[0]).includes(TEMP_FILE_PREFIX);

    // A host whose first rename of a temp file waits until `until` settles (or `ms` pass); `reached` settles as it
    // starts waiting. The test starts the other call once `reached` settles: from its own body, so that the other
    // call is not made inside the held one (it would join its undo group).
    const heldAtTempRename = (base: Host, ms: number) => {
      let reach!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => reach = resolve);
      const until = new Promise<void>((resolve) => release = resolve);
      let first = true;
      const host = holdingHost(base, "rename", (_call, args) => {
        if (!isTemp(args) || !first) return undefined;
        first = false;
        reach();
        return soonerOf(until, ms);
      });
      return { host, reached, releaseOn: (other: Promise<unknown>) => other.then(release, release) };
    };

    test("a recursive delete_path leaves a write's temp file to it: the write lands, the delete says the folder is not empty", async () => {
      const ws = await open(["d/keep.txt=keep\n"]);
      const held = heldAtTempRename(ws.workspace.host, 2_000);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: held.host });
      const written = createWriteTool(workspace).execute({ path: "d/new.txt", content: "ours\n" });
      // The write's temp file is in d, about to be renamed, while the delete lists d and removes what it found.
      await held.reached;
      const deleted = createDeleteTool(workspace).execute({ path: "d", recursive: true });
      held.releaseOn(deleted);
      expect(await written).toMatchObject({ path: "d/new.txt" });
      expect(await codeOf(deleted)).toBe("DIRECTORY_NOT_EMPTY");
      expect(await ws.listAll()).toEqual(["d/", "d/new.txt"]);
      expect(await ws.readRaw("d/new.txt")).toBe("ours\n");
      // The delete's one removal is its group; the undo puts keep.txt back and makes no temp file.
      const undone = await createUndoLastChangeTool(workspace).execute({});
      expect(undone.changes.map((change) => [change.path, change.status])).toEqual([["d/keep.txt", "restored"]]);
      expect(await ws.listAll()).toEqual(["d/", "d/keep.txt", "d/new.txt"]);
      expect(await ws.leftovers()).toEqual([]);
    });

    test("move_path waits for a write to its source: the edit lands, the move refuses", async () => {
      const ws = await open(["a.txt=kept\n"]);
      // The move cannot settle while the edit holds a.txt's queue: the wait ends after 200 ms (before the fix the move
      // settled first, having moved a.txt away under the edit).
      const held = heldAtTempRename(ws.workspace.host, 200);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: held.host });
      const edited = createEditTool(workspace).execute({ path: "a.txt", old_string: "kept", new_string: "edited" });
      await held.reached;
      const moved = createMoveTool(workspace).execute({ source: "a.txt", destination: "b.txt" });
      held.releaseOn(moved);
      await edited;
      expect(await codeOf(moved)).toBe("PATH_CHANGED");
      expect(await ws.listAll()).toEqual(["a.txt"]);
      expect(await ws.readRaw("a.txt")).toBe("edited\n");
      expect(await ws.leftovers()).toEqual([]);
    });

    test("undo_last_change leaves a call that is still running alone, then takes it back whole", async () => {
      const ws = await open(["y.txt=y\n"]);
      let undoneEarly: Promise<unknown> = Promise.resolve();
      const workspace: Awaited<ReturnType<typeof openWorkspace>> = await openWorkspace(ws.workspace.rootEntry, {
        // The patch's second file waits while an undo runs: its first file (and folder) are in the journal already.
        host: holdingHost(ws.workspace.host, "rename", (call) => {
          if (call !== 2) return undefined;
          undoneEarly = createUndoLastChangeTool(workspace).execute({});
          return soonerOf(undoneEarly, 2_000);
        }),
      });
      const patch = "*** Begin Patch\n*** Add File: x/new.txt\n+new\n*** Update File: y.txt\n@@\n-y\n+Y\n" +
        "*** End Patch\n";
      await createApplyPatchTool(workspace).execute({ patch });
      expect(await codeOf(undoneEarly)).toBe("NOTHING_TO_UNDO");
      expect([await ws.readRaw("x/new.txt"), await ws.readRaw("y.txt")]).toEqual(["new\n", "Y\n"]);
      const undone = await createUndoLastChangeTool(workspace).execute({});
      expect(undone.complete).toBe(true);
      expect(await ws.listAll()).toEqual(["y.txt"]);
      expect(await ws.readRaw("y.txt")).toBe("y\n");
    });

    test("two undo_last_change calls at once take back the last two calls, not the last one twice", async () => {
      const ws = await open(["a.txt=0\n"]);
      const workspace = ws.workspace;
      const write = createWriteTool(workspace);
      await write.execute({ path: "a.txt", content: "1\n" });
      await write.execute({ path: "b.txt", content: "2\n" });
      const undo = createUndoLastChangeTool(workspace);
      const results = await Promise.all([undo.execute({}), undo.execute({})]);
      expect(results.map((result) => result.complete)).toEqual([true, true]);
      expect(results.flatMap((result) => result.changes.map((change) => change.path)).sort()).toEqual([
        "a.txt",
        "b.txt",
      ]);
      expect(await ws.listAll()).toEqual(["a.txt"]);
      expect(await ws.readRaw("a.txt")).toBe("0\n");
    });

    test("move_path moves nothing when aborted", async () => {
      const ws = await open(["a.txt"]);
      const controller = new AbortController();
      controller.abort();
      await expect(
        createMoveTool(ws.workspace).execute({ source: "a.txt", destination: "x/b.txt" }, {
          signal: controller.signal,
        }),
      ).rejects.toMatchObject({ name: "AbortError" });
      expect(await ws.listAll()).toEqual(["a.txt"]);
    });
  });
}
