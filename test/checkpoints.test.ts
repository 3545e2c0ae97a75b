import * as fs from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import * as z from "zod";
import { registerCallScope } from "../host.ts";
import {
  checkpoint,
  configureCheckpoints,
  createApplyPatchTool,
  createCodingTools,
  createDeleteTool,
  createDirectoryTool,
  createEditTool,
  createMoveTool,
  createUndoLastChangeTool,
  createWriteTool,
  defineTool,
  executeToolCall,
  isAbortError,
  openWorkspace,
  restore,
  ToolRegistry,
  type Workspace,
} from "../mod.ts";
import type { MemoryWorkspace } from "../testing.ts";
import { errorOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestHost, type TestWorkspace } from "./helpers/hosts.ts";
import { holdingHost } from "./helpers/holding_host.ts";

// Raw (non-Paddock) access to a fixture, for "someone else" and for assertions.
function raw(host: TestHost, ws: TestWorkspace) {
  const workspace = ws.workspace;
  const abs = (relative: string) => workspace.hostPath(relative.split("/"));
  const memory = host.name === "memory" ? (workspace as MemoryWorkspace).host : undefined;
  return {
    bytes: (relative: string): Uint8Array | null => {
      try {
        return new Uint8Array(memory ? memory.readFileSync(abs(relative)) : fs.readFileSync(abs(relative)));
      } catch {
        return null;
      }
    },
    write: (relative: string, data: string | Uint8Array) =>
      memory ? memory.writeFileSync(abs(relative), data) : fs.writeFileSync(abs(relative), data),
    mode: async (relative: string) => (await workspace.host.lstat(abs(relative))).mode & 0o7777,
    chmod: (relative: string, mode: number) => workspace.host.chmod(abs(relative), mode),
    rename: (from: string, to: string) => workspace.host.rename(abs(from), abs(to)),
    unlink: (relative: string) => workspace.host.unlink(abs(relative)),
    readlink: (relative: string) => workspace.host.readlink(abs(relative)),
    symlink: (target: string, relative: string) =>
      memory ? memory.symlinkSync(target, abs(relative)) : fs.symlinkSync(target, abs(relative)),
  };
}

const bytes = (text: string) => new TextEncoder().encode(text);
// Every byte value, so "exact bytes" means more than text.
const BINARY = Uint8Array.from({ length: 256 }, (_, index) => index);

for (const host of TEST_HOSTS) {
  describe(`checkpoints on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    const open = async (tree: string[]) => (fixture = await host.open(tree));
    afterEach(async () => {
      expect(await fixture?.leftovers()).toEqual([]);
      await fixture?.cleanup();
      fixture = undefined;
    });

    for (const confinement of ["auto", "paths"] as const) {
      test(`restore() puts back every write, edit, delete, move and mkdir since the checkpoint (${confinement})`, async () => {
        const ws = await open(["a.txt=alpha\n", "b.bin", "d/c.txt=gamma\n", "d/e/f.txt=phi\n", "m.txt=moved\n"]);
        const io = raw(host, ws);
        io.write("b.bin", BINARY);
        await io.chmod("a.txt", 0o640);
        await io.chmod("b.bin", 0o755);
        const before = { list: await ws.listAll(), a: io.bytes("a.txt"), b: io.bytes("b.bin") };
        const workspace: Workspace = confinement === "auto"
          ? ws.workspace
          : await openWorkspace(ws.workspace.root, { host: ws.workspace.host, confinement });
        const point = checkpoint(workspace);

        await createWriteTool(workspace).execute({ path: "a.txt", content: "overwritten\n" });
        await createWriteTool(workspace).execute({ path: "new/deep/n.txt", content: "created\n" });
        await createEditTool(workspace).execute({ path: "d/c.txt", old_string: "gamma", new_string: "GAMMA" });
        await createDeleteTool(workspace).execute({ path: "b.bin" });
        await createDeleteTool(workspace).execute({ path: "d/e", recursive: true });
        await createMoveTool(workspace).execute({ source: "m.txt", destination: "moved/m2.txt" });
        await createDirectoryTool(workspace).execute({ path: "made/sub" });
        expect(await ws.listAll()).not.toEqual(before.list);

        const result = await restore(workspace, point);
        expect(result.complete).toBe(true);
        expect(result.dropped).toBe(false);
        expect(result.changes.every((change) => change.status === "restored")).toBe(true);
        expect(result.changes.map((change) => [change.change, change.path])).toEqual([
          ["mkdir", "made/sub"],
          ["mkdir", "made"],
          ["move", "moved/m2.txt"],
          ["mkdir", "moved"],
          ["remove", "d/e"],
          ["remove", "d/e/f.txt"],
          ["remove", "b.bin"],
          ["write", "d/c.txt"],
          ["write", "new/deep/n.txt"],
          ["mkdir", "new/deep"],
          ["mkdir", "new"],
          ["write", "a.txt"],
        ]);
        expect(await ws.listAll()).toEqual(before.list);
        expect(io.bytes("a.txt")).toEqual(before.a);
        expect(io.bytes("b.bin")).toEqual(BINARY);
        expect(await io.mode("a.txt")).toBe(0o640);
        expect(await io.mode("b.bin")).toBe(0o755);
        expect(await ws.readRaw("d/c.txt")).toBe("gamma\n");
        expect(await ws.readRaw("d/e/f.txt")).toBe("phi\n");
        expect(await ws.readRaw("m.txt")).toBe("moved\n");
        // Put back once: the journal holds nothing since the checkpoint any more.
        expect((await restore(workspace, point)).changes).toEqual([]);
        if (workspace !== ws.workspace) await workspace.close();
      });
    }

    test("a file changed by someone else since is refused and untouched, then put back when forced", async () => {
      const ws = await open(["a.txt=original\n", "b.txt=other\n"]);
      const io = raw(host, ws);
      const point = checkpoint(ws.workspace);
      await createWriteTool(ws.workspace).execute({ path: "a.txt", content: "by the tool\n" });
      await createWriteTool(ws.workspace).execute({ path: "b.txt", content: "by the tool too\n" });
      io.write("a.txt", "by a person, later\n");

      const refused = await restore(ws.workspace, point);
      expect(refused.complete).toBe(false);
      expect(refused.changes).toEqual([
        { path: "b.txt", change: "write", status: "restored" },
        expect.objectContaining({
          path: "a.txt",
          change: "write",
          status: "refused",
          code: "CHANGED_SINCE_CHECKPOINT",
        }),
      ]);
      expect(await ws.readRaw("a.txt")).toBe("by a person, later\n");
      expect(await ws.readRaw("b.txt")).toBe("other\n");

      const forced = await restore(ws.workspace, point, { force: true });
      expect(forced.changes).toEqual([{ path: "a.txt", change: "write", status: "restored" }]);
      expect(forced.complete).toBe(true);
      expect(await ws.readRaw("a.txt")).toBe("original\n");
    });

    test("a file created in place of a deleted one is refused, not overwritten", async () => {
      const ws = await open(["a.txt=original\n"]);
      const point = checkpoint(ws.workspace);
      await createDeleteTool(ws.workspace).execute({ path: "a.txt" });
      raw(host, ws).write("a.txt", "someone else's\n");
      const result = await restore(ws.workspace, point);
      expect(result.changes[0]).toMatchObject({ status: "refused", code: "CHANGED_SINCE_CHECKPOINT" });
      expect(await ws.readRaw("a.txt")).toBe("someone else's\n");
    });

    test("a file over the journal's file bound is reported not restorable", async () => {
      const ws = await open(["big.txt", "small.txt=small\n"]);
      configureCheckpoints(ws.workspace, { fileBytes: 64 });
      raw(host, ws).write("big.txt", "x".repeat(65));
      const point = checkpoint(ws.workspace);
      await createWriteTool(ws.workspace).execute({ path: "big.txt", content: "replaced\n" });
      await createWriteTool(ws.workspace).execute({ path: "small.txt", content: "replaced\n" });
      const result = await restore(ws.workspace, point);
      expect(result.complete).toBe(false);
      expect(result.changes).toEqual([
        { path: "small.txt", change: "write", status: "restored" },
        expect.objectContaining({ path: "big.txt", status: "not_restorable", code: "NOT_RESTORABLE" }),
      ]);
      expect(await ws.readRaw("big.txt")).toBe("replaced\n");
      expect(await ws.readRaw("small.txt")).toBe("small\n");
    });

    test("a full journal drops its oldest entries and the checkpoint says it restored only part", async () => {
      const ws = await open([]);
      configureCheckpoints(ws.workspace, { journalBytes: 4_096 });
      const point = checkpoint(ws.workspace);
      const write = createWriteTool(ws.workspace);
      for (let index = 0; index < 20; index++) {
        await write.execute({ path: `f${index}.txt`, content: `${index}\n` });
      }
      const result = await restore(ws.workspace, point);
      expect(result.dropped).toBe(true);
      expect(result.complete).toBe(false);
      // 256 bytes per entry: 16 fit; the newest are put back, the oldest stay.
      expect(result.changes.length).toBe(16);
      expect(result.changes.every((change) => change.status === "restored")).toBe(true);
      expect(await ws.listAll()).toEqual(["f0.txt", "f1.txt", "f2.txt", "f3.txt"]);
    });

    test("undo_last_change takes back the last call, then the one before, then has nothing left", async () => {
      const ws = await open(["a.txt=one\n"]);
      const registry = new ToolRegistry(createCodingTools(ws.workspace));
      const call = async (name: string, args: unknown) =>
        JSON.parse((await executeToolCall(registry, { id: "1", name, arguments: args })).content);
      await call("read_file", { path: "a.txt" }); // the stale-write guard (on in createCodingTools) wants it read
      expect(await call("write_file", { path: "a.txt", content: "two\n" })).toEqual({ path: "a.txt", bytes: 4 });
      await call("delete_path", { path: "a.txt" });
      expect(await ws.readRaw("a.txt")).toBeNull();

      expect(await call("undo_last_change", {})).toEqual({
        complete: true,
        changes: [{ path: "a.txt", change: "remove", status: "restored" }],
      });
      expect(await ws.readRaw("a.txt")).toBe("two\n");
      expect(await call("undo_last_change", {})).toEqual({
        complete: true,
        changes: [{ path: "a.txt", change: "write", status: "restored" }],
      });
      expect(await ws.readRaw("a.txt")).toBe("one\n");
      expect((await call("undo_last_change", {})).error.code).toBe("NOTHING_TO_UNDO");
    });

    /**
     * Two calls that overlap in time: `slow` writes a.txt and c.txt through write_file (calls inside a call) and
     * waits between them while another call writes `other` ("b1\n").
     */
    async function overlappingCalls(ws: TestWorkspace, other = "b.txt"): Promise<void> {
      const write = createWriteTool(ws.workspace);
      let release!: () => void;
      const released = new Promise<void>((resolve) => release = resolve);
      let wrote!: () => void;
      const firstWrote = new Promise<void>((resolve) => wrote = resolve);
      const slow = defineTool({
        name: "slow",
        description: "writes two files, waiting between them",
        readOnly: false,
        schema: z.object({}).strict(),
        prepare: () => ({}),
        run: async () => {
          await write.execute({ path: "a.txt", content: "a1\n" });
          wrote();
          await released;
          await write.execute({ path: "c.txt", content: "c1\n" });
          return {};
        },
      });
      const first = slow.execute({});
      await firstWrote;
      await write.execute({ path: other, content: "b1\n" });
      release();
      await first;
    }

    test("calls that overlap in time are undone one call at a time, with the calls made inside them", async () => {
      const ws = await open(["a.txt=a0\n", "b.txt=b0\n"]);
      await overlappingCalls(ws);
      const undo = createUndoLastChangeTool(ws.workspace);
      // The newest change is the slow call's c.txt: that call goes first, whole, newest first.
      expect(await undo.execute({})).toEqual({
        complete: true,
        changes: [
          { path: "c.txt", change: "write", status: "restored" },
          { path: "a.txt", change: "write", status: "restored" },
        ],
      });
      expect([await ws.readRaw("a.txt"), await ws.readRaw("b.txt"), await ws.readRaw("c.txt")]).toEqual([
        "a0\n",
        "b1\n",
        null,
      ]);
      expect(await undo.execute({})).toEqual({
        complete: true,
        changes: [{ path: "b.txt", change: "write", status: "restored" }],
      });
      expect(await ws.readRaw("b.txt")).toBe("b0\n");
      expect((await errorOf(undo.execute({}))).code).toBe("NOTHING_TO_UNDO");
    });

    test("a file the other call changed after the newest call is refused, then each goes back in turn", async () => {
      const ws = await open(["a.txt=a0\n"]);
      await overlappingCalls(ws, "a.txt");
      const undo = createUndoLastChangeTool(ws.workspace);
      expect(await undo.execute({})).toMatchObject({
        complete: false,
        changes: [
          { path: "c.txt", change: "write", status: "restored" },
          { path: "a.txt", change: "write", status: "refused", code: "CHANGED_SINCE_CHECKPOINT" },
        ],
      });
      expect(await ws.readRaw("a.txt")).toBe("b1\n");
      // The other call's write is now the newest change; then the slow call's, found as it left it again.
      expect((await undo.execute({})).changes).toEqual([{ path: "a.txt", change: "write", status: "restored" }]);
      expect(await ws.readRaw("a.txt")).toBe("a1\n");
      expect((await undo.execute({})).changes).toEqual([{ path: "a.txt", change: "write", status: "restored" }]);
      expect(await ws.readRaw("a.txt")).toBe("a0\n");
      expect((await errorOf(undo.execute({}))).code).toBe("NOTHING_TO_UNDO");
    });

    // A tool that runs `run` as one call that changes files.
    const changing = (name: string, run: () => Promise<void>) =>
      defineTool({
        name,
        description: name,
        readOnly: false,
        schema: z.object({}).strict(),
        prepare: () => ({}),
        run: async () => {
          await run();
          return {};
        },
      });

    test("a call that a finished call left behind (a timer) is undone on its own, though another call runs", async () => {
      const ws = await open([]);
      const write = createWriteTool(ws.workspace);
      let release!: () => void;
      const released = new Promise<void>((resolve) => release = resolve);
      // Writes b.txt, then runs until released: a call is running when the timer fires.
      const held = changing("holds", async () => {
        await write.execute({ path: "b.txt", content: "b\n" });
        await released;
      }).execute({});
      let later!: Promise<unknown>;
      await changing("leaves", async () => {
        await write.execute({ path: "a.txt", content: "a\n" });
        later = new Promise((resolve) =>
          setTimeout(() => resolve(write.execute({ path: "c.txt", content: "c\n" })), 20)
        );
      }).execute({});
      await later;
      release();
      await held;
      const undo = createUndoLastChangeTool(ws.workspace);
      for (const path of ["c.txt", "a.txt", "b.txt"]) {
        expect((await undo.execute({})).changes).toEqual([{ path, change: "write", status: "restored" }]);
      }
      expect(await ws.listAll()).toEqual([]);
    });

    test("a call that a call started and left running is undone with it, whole", async () => {
      const ws = await open([]);
      let release!: () => void;
      const released = new Promise<void>((resolve) => release = resolve);
      // Every mkdir waits until released: the write started below is still running when the call that started it ends.
      const host = holdingHost(ws.workspace.host, "mkdir", () => released);
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host });
      let inner!: Promise<unknown>;
      await changing("starts", () => {
        inner = createWriteTool(workspace).execute({ path: "x/y/z.txt", content: "z\n" });
        return Promise.resolve();
      }).execute({});
      // The outer call has ended, and no other runs: the write is still its call's.
      release();
      await inner;
      expect((await createUndoLastChangeTool(workspace).execute({})).changes).toEqual([
        { path: "x/y/z.txt", change: "write", status: "restored" },
        { path: "x/y", change: "mkdir", status: "restored" },
        { path: "x", change: "mkdir", status: "restored" },
      ]);
      expect(await ws.listAll()).toEqual([]);
    });

    test("with no call scope registered, calls that overlap in time are undone together", async () => {
      const ws = await open(["a.txt=a0\n", "b.txt=b0\n"]);
      registerCallScope(undefined);
      try {
        await overlappingCalls(ws);
      } finally {
        const { asyncCallScope } = await import("../src/hosts/async_call_scope.ts");
        registerCallScope(asyncCallScope);
      }
      expect((await createUndoLastChangeTool(ws.workspace).execute({})).changes.map((change) => change.path)).toEqual([
        "c.txt",
        "b.txt",
        "a.txt",
      ]);
      expect([await ws.readRaw("a.txt"), await ws.readRaw("b.txt"), await ws.readRaw("c.txt")]).toEqual([
        "a0\n",
        "b0\n",
        null,
      ]);
    });

    test("an undo aborted after putting back one file of a call leaves the journal with the rest of it", async () => {
      const ws = await open(["a.txt=a0\n", "b.txt=b0\n"]);
      const controller = new AbortController();
      let armed = false;
      // Once armed, the next rename (the undo putting back b.txt) aborts the undo: it completes, the next step stops.
      const host = holdingHost(ws.workspace.host, "rename", () => {
        if (armed) controller.abort();
        armed = false;
        return undefined;
      });
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host });
      await createWriteTool(workspace).execute({ path: "a.txt", content: "a1\n" });
      await createApplyPatchTool(workspace).execute({
        patch: "*** Begin Patch\n*** Update File: a.txt\n@@\n-a1\n+a2\n*** Update File: b.txt\n@@\n-b0\n+b2\n" +
          "*** End Patch\n",
      });
      const undo = createUndoLastChangeTool(workspace);
      armed = true;
      expect(await undo.execute({}, { signal: controller.signal }).then(() => "done", isAbortError)).toBe(true);
      expect([await ws.readRaw("a.txt"), await ws.readRaw("b.txt")]).toEqual(["a2\n", "b0\n"]);
      // The rest of the patch's call, then the write before it: no refusal of the file already put back.
      expect(await undo.execute({})).toEqual({
        complete: true,
        changes: [{ path: "a.txt", change: "write", status: "restored" }],
      });
      expect(await undo.execute({})).toEqual({
        complete: true,
        changes: [{ path: "a.txt", change: "write", status: "restored" }],
      });
      expect([await ws.readRaw("a.txt"), await ws.readRaw("b.txt")]).toEqual(["a0\n", "b0\n"]);
    });

    test("a file someone saves right after an undo put it back is refused by the next undo, not overwritten", async () => {
      const ws = await open(["a.txt=a0\n"]);
      const io = raw(host, ws);
      let armed = false;
      // Once armed: right after the undo's rename puts a.txt back, someone else saves their own version.
      const workspace = await openWorkspace(ws.workspace.rootEntry, {
        host: holdingHost(ws.workspace.host, "rename", () => {
          if (armed) io.write("a.txt", "theirs\n");
          armed = false;
          return undefined;
        }, "after"),
      });
      const write = createWriteTool(workspace);
      await write.execute({ path: "a.txt", content: "a1\n" });
      await write.execute({ path: "a.txt", content: "a2\n" });
      const undo = createUndoLastChangeTool(workspace);
      armed = true;
      expect((await undo.execute({})).complete).toBe(true);
      expect(await ws.readRaw("a.txt")).toBe("theirs\n");
      expect((await undo.execute({})).changes).toMatchObject([
        { path: "a.txt", status: "refused", code: "CHANGED_SINCE_CHECKPOINT" },
      ]);
      expect(await ws.readRaw("a.txt")).toBe("theirs\n");
    });

    test("undo_last_change refuses a file changed since unless force", async () => {
      const ws = await open(["a.txt=one\n"]);
      const undo = createUndoLastChangeTool(ws.workspace);
      await createWriteTool(ws.workspace).execute({ path: "a.txt", content: "two\n" });
      raw(host, ws).write("a.txt", "three, by hand\n");
      expect((await undo.execute({})).changes[0]).toMatchObject({
        status: "refused",
        code: "CHANGED_SINCE_CHECKPOINT",
      });
      expect(await ws.readRaw("a.txt")).toBe("three, by hand\n");
      expect(await undo.execute({ force: true })).toEqual({
        complete: true,
        changes: [{ path: "a.txt", change: "write", status: "restored" }],
      });
      expect(await ws.readRaw("a.txt")).toBe("one\n");
    });

    test("a created folder that someone filled since is kept", async () => {
      const ws = await open([]);
      const point = checkpoint(ws.workspace);
      await createDirectoryTool(ws.workspace).execute({ path: "made" });
      raw(host, ws).write("made/theirs.txt", "theirs\n");
      const result = await restore(ws.workspace, point);
      expect(result.changes).toEqual([
        expect.objectContaining({ path: "made", status: "kept", code: "DIRECTORY_NOT_EMPTY" }),
      ]);
      expect(await ws.readRaw("made/theirs.txt")).toBe("theirs\n");
    });

    test("restore over a folder swapped for a link to outside writes nothing outside", async () => {
      const ws = await open(["d/a.txt=inside\n", "d/b.txt=bee\n", "out => @outside"]);
      const io = raw(host, ws);
      const outside = await io.readlink("out");
      const point = checkpoint(ws.workspace);
      await createWriteTool(ws.workspace).execute({ path: "d/a.txt", content: "changed\n" });
      await createWriteTool(ws.workspace).execute({ path: "d/secret.txt", content: "new\n" });
      await createDeleteTool(ws.workspace).execute({ path: "d/b.txt" });
      // The folder the journal names is now a link out (with a secret.txt there, as the new file's name).
      await io.rename("d", "d-old");
      io.symlink(outside, "d");

      const result = await restore(ws.workspace, point);
      expect(result.complete).toBe(false);
      expect(result.changes.map((change) => [change.path, change.status, change.code])).toEqual([
        ["d/b.txt", "refused", "PATH_ESCAPES_WORKSPACE"],
        ["d/secret.txt", "refused", "PATH_ESCAPES_WORKSPACE"],
        ["d/a.txt", "refused", "PATH_ESCAPES_WORKSPACE"],
      ]);
      expect(await ws.outsideIntact()).toBe(true);
      // Forced, too: the walk refuses, whatever force says.
      await restore(ws.workspace, point, { force: true });
      expect(await ws.outsideIntact()).toBe(true);
      expect(await ws.readRaw("d-old/a.txt")).toBe("changed\n");
    });

    test("restore over a file swapped for a link to an outside file writes nothing outside", async () => {
      const ws = await open(["a.txt=inside\n", "new.txt=x\n", "out => @outside"]);
      const io = raw(host, ws);
      const secret = `${await io.readlink("out")}/secret.txt`;
      const point = checkpoint(ws.workspace);
      await createWriteTool(ws.workspace).execute({ path: "a.txt", content: "changed\n" });
      await createDeleteTool(ws.workspace).execute({ path: "new.txt" });
      await io.rename("a.txt", "a-old.txt");
      io.symlink(secret, "a.txt");
      io.symlink(secret, "new.txt");
      for (const force of [false, true]) {
        const result = await restore(ws.workspace, point, { force });
        expect(result.changes.map((change) => change.status)).toEqual(["refused", "refused"]);
        expect(result.changes.map((change) => change.code)).toEqual(
          force ? ["NOT_A_FILE", "NOT_A_FILE"] : ["CHANGED_SINCE_CHECKPOINT", "CHANGED_SINCE_CHECKPOINT"],
        );
        expect(await ws.outsideIntact()).toBe(true);
      }
    });

    test("a move over an existing file is undone: the moved file goes back and the replaced one returns", async () => {
      const ws = await open(["src.txt=moved\n", "dst.txt=replaced\n"]);
      const undo = createUndoLastChangeTool(ws.workspace);
      await createMoveTool(ws.workspace).execute({ source: "src.txt", destination: "dst.txt", overwrite: true });
      expect(await ws.listAll()).toEqual(["dst.txt"]);
      expect(await undo.execute({})).toEqual({
        complete: true,
        changes: [
          { path: "dst.txt", from: "src.txt", change: "move", status: "restored" },
          { path: "dst.txt", change: "remove", status: "restored" },
        ],
      });
      expect(await ws.readRaw("src.txt")).toBe("moved\n");
      expect(await ws.readRaw("dst.txt")).toBe("replaced\n");
    });

    test("a file the user deleted after a move over it or an edit of it is not made again, unless force", async () => {
      const ws = await open(["src.txt=moved\n", "dst.txt=replaced\n", "e.txt=one\n"]);
      const undo = createUndoLastChangeTool(ws.workspace);
      // An edit, then the user deletes the file: refused (what the user did stays).
      await createEditTool(ws.workspace).execute({ path: "e.txt", old_string: "one", new_string: "two" });
      await raw(host, ws).unlink("e.txt");
      expect((await undo.execute({})).changes).toMatchObject([
        { path: "e.txt", change: "write", status: "refused", code: "CHANGED_SINCE_CHECKPOINT" },
      ]);
      expect(await ws.listAll()).toEqual(["dst.txt", "src.txt"]);
      await undo.execute({ force: true }); // taken back, so the move below is the last call
      expect(await ws.readRaw("e.txt")).toBe("one\n");
      await raw(host, ws).unlink("e.txt");
      // A move over a file, then the user deletes the destination: refused alike, nothing made again.
      await createMoveTool(ws.workspace).execute({ source: "src.txt", destination: "dst.txt", overwrite: true });
      await raw(host, ws).unlink("dst.txt");
      const refused = await undo.execute({});
      expect(refused.complete).toBe(false);
      expect(refused.changes).toMatchObject([
        { path: "dst.txt", from: "src.txt", change: "move", status: "refused" },
        { path: "dst.txt", change: "remove", status: "refused", code: "CHANGED_SINCE_CHECKPOINT" },
      ]);
      expect(await ws.listAll()).toEqual([]);
      // With force the replaced file comes back (the moved one is gone: nothing to move back).
      const forced = await undo.execute({ force: true });
      expect(forced.changes).toMatchObject([
        { path: "dst.txt", change: "move", status: "refused", code: "NOT_FOUND" },
        { path: "dst.txt", change: "remove", status: "restored" },
      ]);
      expect(await ws.readRaw("dst.txt")).toBe("replaced\n");
    });

    test("a checkpoint of another workspace is refused", async () => {
      const ws = await open([]);
      const other = await host.open([]);
      try {
        expect((await errorOf(restore(ws.workspace, checkpoint(other.workspace)))).code).toBe("CHECKPOINT_UNKNOWN");
      } finally {
        await other.cleanup();
      }
    });

    test("a failed write journals nothing", async () => {
      const ws = await open(["d/"]);
      const point = checkpoint(ws.workspace);
      expect((await errorOf(createWriteTool(ws.workspace).execute({ path: "d", content: "x" }))).code).toBe(
        "NOT_A_FILE",
      );
      expect((await restore(ws.workspace, point)).changes).toEqual([]);
    });

    test("write_file's bytes are exact through the journal (UTF-8 and a byte order mark)", async () => {
      const ws = await open([]);
      raw(host, ws).write("bom.txt", bytes("\ufeffé\r\n"));
      const point = checkpoint(ws.workspace);
      await createWriteTool(ws.workspace).execute({ path: "bom.txt", content: "plain\n" });
      await restore(ws.workspace, point);
      expect(raw(host, ws).bytes("bom.txt")).toEqual(bytes("\ufeffé\r\n"));
    });
  });
}
