import { afterEach, describe, expect, test } from "vitest";
import { createApplyPatchTool, createDeleteTool, createEditTool, createMoveTool, openWorkspace } from "../mod.ts";
import type { Host, HostFile } from "../host.ts";
import { codeOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

// A host that runs `hook` once, after the first call of `method` resolves
// (for `close`: after the first opened file is closed).
function after(host: Host, method: "unlink" | "close", hook: () => Promise<void>): Host {
  let fired = false;
  const fire = async () => {
    if (fired) return;
    fired = true;
    await hook();
  };
  return new Proxy(host, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (method === "close" && property === "open") {
        return async (path: string, options: Parameters<Host["open"]>[1]) => {
          const file: HostFile = await target.open(path, options);
          const wrapped: HostFile = {
            read: (buffer, position) => file.read(buffer, position),
            write: (data, position) => file.write(data, position),
            sync: () => file.sync(),
            stat: () => file.stat(),
            close: async () => {
              await file.close();
              await fire();
            },
          };
          if (file.chmod !== undefined) wrapped.chmod = (mode) => (file.chmod as (mode: number) => Promise<void>)(mode);
          return wrapped;
        };
      }
      if (property !== method) return value.bind(target);
      return async (...args: unknown[]) => {
        const result = await value.apply(target, args);
        await fire();
        return result;
      };
    },
  });
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

    test("apply_patch stopped by a file made between its check and its write names what it applied", async () => {
      const ws = await open(["keep.txt=kept\n"]);
      const base = ws.workspace.host;
      // Another writer makes b.txt once the first file's temp copy is written.
      const spied = after(base, "close", async () => {
        const file = await base.open(ws.workspace.hostPath(["b.txt"]), { write: true, createExclusive: true });
        await file.write(new TextEncoder().encode("theirs\n"), 0);
        await file.close();
      });
      const workspace = await openWorkspace(ws.workspace.rootEntry, { host: spied });
      const result = await createApplyPatchTool(workspace).execute({
        patch: "*** Begin Patch\n*** Add File: a.txt\n+ours\n*** Add File: b.txt\n+ours\n*** End Patch\n",
      }).catch((error) => error);
      expect(result).toMatchObject({ code: "ALREADY_EXISTS", details: { applied: ["a.txt"] } });
      // Quoted, as every path of a message is (an MCP server prefixes a quoted path of another root).
      expect((result as Error).message).toMatch(/\(already applied: 'a\.txt'\)$/);
      expect(await ws.readRaw("a.txt")).toBe("ours\n");
      expect(await ws.readRaw("b.txt")).toBe("theirs\n");
      expect(await ws.leftovers()).toEqual([]);
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
