import { afterEach, describe, expect, test } from "vitest";
import { createDeleteTool, createDirectoryTool, createMoveTool } from "../mod.ts";
import { codeOf, errorOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

for (const host of TEST_HOSTS) {
  describe(`delete_path, move_path and create_directory on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    const open = async (tree: string[]) => (fixture = await host.open(tree));
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    describe("delete_path", () => {
      test("deletes a file and an empty folder", async () => {
        const ws = await open(["a.txt", "empty/", "keep.txt"]);
        const del = createDeleteTool(ws.workspace);
        expect(await del.execute({ path: "a.txt" })).toEqual({ path: "a.txt", kind: "file", removed: 1 });
        expect(await del.execute({ path: "empty" })).toEqual({ path: "empty", kind: "directory", removed: 1 });
        expect(await ws.listAll()).toEqual(["keep.txt"]);
      });

      test("refuses a non-empty folder without recursive", async () => {
        const ws = await open(["d/a.txt"]);
        const error = await errorOf(createDeleteTool(ws.workspace).execute({ path: "d" }));
        expect(error.code).toBe("DIRECTORY_NOT_EMPTY");
        expect(error.hint).toContain("recursive");
        expect(await ws.listAll()).toEqual(["d/", "d/a.txt"]);
      });

      test("deletes a folder tree with recursive and counts what it removed", async () => {
        const ws = await open(["d/a.txt", "d/e/b.txt", "d/e/f/", "keep.txt"]);
        expect(await createDeleteTool(ws.workspace).execute({ path: "d", recursive: true })).toEqual({
          path: "d",
          kind: "directory",
          removed: 5,
        });
        expect(await ws.listAll()).toEqual(["keep.txt"]);
      });

      test("refuses to delete the workspace root", async () => {
        const ws = await open(["a.txt"]);
        for (const path of [".", "./"]) {
          const error = await errorOf(createDeleteTool(ws.workspace).execute({ path, recursive: true }));
          expect(error.code).toBe("WORKSPACE_ROOT_PROTECTED");
        }
        expect(await ws.listAll()).toEqual(["a.txt"]);
      });

      test("deletes a link to an outside file, and the outside file survives", async () => {
        const ws = await open(["file-out => @outside/secret.txt", "dir-out => @outside"]);
        const del = createDeleteTool(ws.workspace);
        expect(await del.execute({ path: "file-out" })).toEqual({ path: "file-out", kind: "symlink", removed: 1 });
        expect(await del.execute({ path: "dir-out", recursive: true })).toEqual({
          path: "dir-out",
          kind: "symlink",
          removed: 1,
        });
        expect(await ws.listAll()).toEqual([]);
        expect(await ws.outsideIntact()).toBe(true);
      });

      test("deletes a folder holding links out without deleting anything outside", async () => {
        const ws = await open([
          "box/a.txt",
          "box/out => @outside",
          "box/sub/secret => @outside/secret.txt",
          "box/sub/up => ../../d",
          "box/sub/deeper/loop => ../deeper",
          "d/kept.txt",
        ]);
        const result = await createDeleteTool(ws.workspace).execute({ path: "box", recursive: true });
        expect(result.removed).toBe(8);
        expect(await ws.listAll()).toEqual(["d/", "d/kept.txt"]);
        expect(await ws.outsideIntact()).toBe(true);
      });

      test("deletes a link to a folder inside, not the folder", async () => {
        const ws = await open(["d/a.txt", "in-dir => d"]);
        await createDeleteTool(ws.workspace).execute({ path: "in-dir", recursive: true });
        expect(await ws.listAll()).toEqual(["d/", "d/a.txt"]);
      });

      test("refuses a tree over the entry limit before removing anything", async () => {
        const ws = await open(["d/1", "d/2", "d/3", "d/e/4"]);
        const del = createDeleteTool(ws.workspace, { maxEntries: 5 });
        const error = await errorOf(del.execute({ path: "d", recursive: true }));
        expect(error.code).toBe("TOO_MANY_ENTRIES");
        expect(await ws.listAll()).toEqual(["d/", "d/1", "d/2", "d/3", "d/e/", "d/e/4"]);
        expect(await createDeleteTool(ws.workspace, { maxEntries: 6 }).execute({ path: "d", recursive: true }))
          .toMatchObject({ removed: 6 });
      });

      test("reports a missing path as NOT_FOUND", async () => {
        const ws = await open([]);
        expect(await codeOf(createDeleteTool(ws.workspace).execute({ path: "nope" }))).toBe("NOT_FOUND");
      });

      test("stops when aborted, before removing anything", async () => {
        const ws = await open(["d/a.txt"]);
        const controller = new AbortController();
        controller.abort();
        await expect(
          createDeleteTool(ws.workspace).execute({ path: "d", recursive: true }, { signal: controller.signal }),
        )
          .rejects.toMatchObject({ name: "AbortError" });
        expect(await ws.listAll()).toEqual(["d/", "d/a.txt"]);
      });
    });

    describe("move_path", () => {
      test("renames a file, creating missing folders", async () => {
        const ws = await open(["a.txt=hello"]);
        expect(await createMoveTool(ws.workspace).execute({ source: "a.txt", destination: "x/y/b.txt" })).toEqual({
          source: "a.txt",
          destination: "x/y/b.txt",
          kind: "file",
          overwritten: false,
        });
        expect(await ws.listAll()).toEqual(["x/", "x/y/", "x/y/b.txt"]);
        expect(await ws.readRaw("x/y/b.txt")).toBe("hello");
      });

      test("moves a folder with its content", async () => {
        const ws = await open(["d/a.txt", "d/e/b.txt"]);
        await createMoveTool(ws.workspace).execute({ source: "d", destination: "n" });
        expect(await ws.listAll()).toEqual(["n/", "n/a.txt", "n/e/", "n/e/b.txt"]);
      });

      test("refuses an existing destination unless overwrite, and never replaces a folder", async () => {
        const ws = await open(["a.txt=new", "b.txt=old", "d/", "e/"]);
        const move = createMoveTool(ws.workspace);
        const error = await errorOf(move.execute({ source: "a.txt", destination: "b.txt" }));
        expect(error.code).toBe("ALREADY_EXISTS");
        expect(error.hint).toContain("overwrite");
        expect(await codeOf(move.execute({ source: "a.txt", destination: "d", overwrite: true }))).toBe(
          "ALREADY_EXISTS",
        );
        expect(await codeOf(move.execute({ source: "e", destination: "b.txt", overwrite: true }))).toBe(
          "ALREADY_EXISTS",
        );
        expect(await ws.readRaw("b.txt")).toBe("old");
        expect(await move.execute({ source: "a.txt", destination: "b.txt", overwrite: true })).toMatchObject({
          overwritten: true,
        });
        expect(await ws.listAll()).toEqual(["b.txt", "d/", "e/"]);
        expect(await ws.readRaw("b.txt")).toBe("new");
      });

      test("refuses to move a folder into itself without creating anything", async () => {
        const ws = await open(["d/a.txt"]);
        const move = createMoveTool(ws.workspace);
        expect(await codeOf(move.execute({ source: "d", destination: "d/x/y/d" }))).toBe("MOVE_INTO_ITSELF");
        expect(await ws.listAll()).toEqual(["d/", "d/a.txt"]);
      });

      test("refuses a folder moving into itself through a link", async () => {
        const ws = await open(["d/a.txt", "in-dir => d"]);
        const move = createMoveTool(ws.workspace);
        expect(await codeOf(move.execute({ source: "d", destination: "in-dir/x/d" }))).toBe("MOVE_INTO_ITSELF");
        expect(await ws.listAll()).toEqual(["d/", "d/a.txt", "in-dir"]);
      });

      test("refuses to move the root or onto the root", async () => {
        const ws = await open(["a.txt"]);
        const move = createMoveTool(ws.workspace);
        expect(await codeOf(move.execute({ source: ".", destination: "x" }))).toBe("WORKSPACE_ROOT_PROTECTED");
        expect(await codeOf(move.execute({ source: "a.txt", destination: "." }))).toBe("WORKSPACE_ROOT_PROTECTED");
        expect(await ws.listAll()).toEqual(["a.txt"]);
      });

      test("moves nothing in from outside the workspace", async () => {
        const ws = await open(["dir-out => @outside", "d/"]);
        const move = createMoveTool(ws.workspace);
        // The file behind the link, and the link itself (it would still point outside).
        for (const source of ["dir-out/secret.txt", "dir-out"]) {
          expect(await codeOf(move.execute({ source, destination: "d/stolen.txt" }))).toBe("PATH_ESCAPES_WORKSPACE");
        }
        // 'dir-out/.' names the folder behind the link, which a move never follows.
        expect(await codeOf(move.execute({ source: "dir-out/.", destination: "d/stolen.txt" }))).toBe(
          "NOT_A_DIRECTORY",
        );
        expect(await ws.listAll()).toEqual(["d/", "dir-out"]);
        expect(await ws.outsideIntact()).toBe(true);
      });

      test("moves nothing out to outside the workspace", async () => {
        const ws = await open(["dir-out => @outside", "abs-out => /tmp", "d/a.txt=mine"]);
        const move = createMoveTool(ws.workspace);
        for (const destination of ["dir-out/a.txt", "dir-out/new/a.txt", "abs-out/paddock-never.txt"]) {
          expect(await codeOf(move.execute({ source: "d/a.txt", destination }))).toBe("PATH_ESCAPES_WORKSPACE");
          expect(await codeOf(move.execute({ source: "d", destination }))).toBe("PATH_ESCAPES_WORKSPACE");
        }
        expect(await ws.listAll()).toEqual(["abs-out", "d/", "d/a.txt", "dir-out"]);
        expect(await ws.outsideIntact()).toBe(true);
      });

      test("replaces a link out with overwrite, leaving its target alone", async () => {
        const ws = await open(["file-out => @outside/secret.txt", "a.txt=mine"]);
        await createMoveTool(ws.workspace).execute({ source: "a.txt", destination: "file-out", overwrite: true });
        expect(await ws.listAll()).toEqual(["file-out"]);
        expect(await ws.readRaw("file-out")).toBe("mine");
        expect(await ws.outsideIntact()).toBe(true);
      });

      test(
        "refuses a folder move that would make a relative link inside point out",
        async () => {
          const ws = await open(["a/b/l => ../../d/f.txt", "d/f.txt"]);
          const move = createMoveTool(ws.workspace);
          expect(await codeOf(move.execute({ source: "a/b", destination: "b" }))).toBe("PATH_ESCAPES_WORKSPACE");
          expect(await codeOf(move.execute({ source: "a/b/l", destination: "l" }))).toBe("PATH_ESCAPES_WORKSPACE");
          expect(await ws.listAll()).toEqual(["a/", "a/b/", "a/b/l", "d/", "d/f.txt"]);
          // As deep or deeper, the link stays inside.
          await move.execute({ source: "a/b", destination: "x/y/b" });
          expect(await ws.listAll()).toEqual(["a/", "d/", "d/f.txt", "x/", "x/y/", "x/y/b/", "x/y/b/l"]);
        },
      );
    });

    describe("create_directory", () => {
      test("creates a folder with its missing parents", async () => {
        const ws = await open([]);
        expect(await createDirectoryTool(ws.workspace).execute({ path: "a/b/c" })).toEqual({
          path: "a/b/c",
          created: true,
        });
        expect(await ws.listAll()).toEqual(["a/", "a/b/", "a/b/c/"]);
      });

      test("accepts an existing folder and the root", async () => {
        const ws = await open(["d/"]);
        const mkdir = createDirectoryTool(ws.workspace);
        expect(await mkdir.execute({ path: "d" })).toEqual({ path: "d", created: false });
        expect(await mkdir.execute({ path: "." })).toEqual({ path: ".", created: false });
      });

      test("refuses an existing file as ALREADY_EXISTS and a file on the way as NOT_A_DIRECTORY", async () => {
        const ws = await open(["f.txt"]);
        const mkdir = createDirectoryTool(ws.workspace);
        expect(await codeOf(mkdir.execute({ path: "f.txt" }))).toBe("ALREADY_EXISTS");
        expect(await codeOf(mkdir.execute({ path: "f.txt/x" }))).toBe("NOT_A_DIRECTORY");
        expect(await ws.listAll()).toEqual(["f.txt"]);
      });

      test("creates inside a folder reached through a link inside, never outside", async () => {
        const ws = await open(["d/", "in-dir => d", "dir-out => @outside"]);
        const mkdir = createDirectoryTool(ws.workspace);
        expect(await mkdir.execute({ path: "in-dir/new" })).toEqual({ path: "in-dir/new", created: true });
        expect(await codeOf(mkdir.execute({ path: "dir-out/new/deeper" }))).toBe("PATH_ESCAPES_WORKSPACE");
        expect(await ws.listAll()).toEqual(["d/", "d/new/", "dir-out", "in-dir"]);
        expect(await ws.outsideIntact()).toBe(true);
      });
    });
  });
}
