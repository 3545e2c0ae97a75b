import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import { createReadTool, createWriteTool, executeToolCall, openWorkspace, ToolRegistry } from "../mod.ts";
import { READ_FILE_MAX_BYTES, WRITE_FILE_MAX_BYTES } from "../src/core/limits.ts";
import { SYMLINK_CASES, SYMLINK_TREE } from "./cases/symlink_fixtures.ts";
import { diskFixture, leftovers } from "./helpers/fixture.ts";
import { TEST_HOSTS } from "./helpers/hosts.ts";
import { callTool as call, withReadWriteWorkspace as withWorkspace } from "./helpers/tool_call.ts";

for (const host of TEST_HOSTS) {
  describe(`read_file and write_file on the ${host.name} host`, () => {
    // The hostile-path and symlink tables: test/path_tools_replay.test.ts.
    test("write_file then read_file round-trips exact bytes, creating folders", async () => {
      await withWorkspace(host.open, [], async (ws, registry) => {
        const content = "line 1\r\nnaïve 日本語 🎉\n\u0000nul\n";
        const written = await call(registry, "write_file", { path: "a/b/c.txt", content });
        expect(written).toEqual({
          isError: false,
          body: { path: "a/b/c.txt", bytes: new TextEncoder().encode(content).length },
        });
        expect(await ws.readRaw("a/b/c.txt")).toBe(content);
        const read = await call(registry, "read_file", { path: "a\\b\\./c.txt" });
        expect(read.body).toEqual({ path: "a/b/c.txt", content, bytes: written.body.bytes });
      });
    });

    test("read_file refuses a folder and a missing file with exact codes", async () => {
      await withWorkspace(host.open, ["d/", "f"], async (_ws, registry) => {
        expect((await call(registry, "read_file", { path: "d" })).body.error.code).toBe("NOT_A_FILE");
        expect((await call(registry, "read_file", { path: "missing" })).body.error.code).toBe("NOT_FOUND");
        expect((await call(registry, "read_file", { path: "f/x" })).body.error.code).toBe("NOT_A_DIRECTORY");
        expect((await call(registry, "read_file", { path: "." })).body.error.code).toBe("NOT_A_FILE");
      });
    });

    test("write_file refuses to replace a folder or the root", async () => {
      await withWorkspace(host.open, ["d/", "d/keep"], async (ws, registry) => {
        expect((await call(registry, "write_file", { path: "d", content: "x" })).body.error.code).toBe("NOT_A_FILE");
        expect((await call(registry, "write_file", { path: ".", content: "x" })).body.error.code).toBe(
          "WORKSPACE_ROOT_PROTECTED",
        );
        expect(await ws.readRaw("d/keep")).toBe("d/keep");
      });
    });

    test("read_file reads a file exactly at the limit and refuses one byte more", async () => {
      await withWorkspace(host.open, [], async (ws, registry) => {
        await call(registry, "write_file", { path: "exact", content: "a".repeat(READ_FILE_MAX_BYTES) });
        const exact = await call(registry, "read_file", { path: "exact" });
        expect(exact.body.bytes).toBe(READ_FILE_MAX_BYTES);
        const big = ws.workspace;
        const tools = new ToolRegistry([
          createReadTool(big),
          createWriteTool(big, { maxBytes: READ_FILE_MAX_BYTES + 1 }),
        ]);
        await call(tools, "write_file", { path: "over", content: "a".repeat(READ_FILE_MAX_BYTES + 1) });
        const over = await call(tools, "read_file", { path: "over" });
        expect(over.body.error.code).toBe("FILE_TOO_LARGE");
        expect(over.body.error.message).toContain(String(READ_FILE_MAX_BYTES + 1));
      });
    });

    test("write_file accepts content exactly at the limit and refuses one byte more, touching nothing", async () => {
      await withWorkspace(host.open, [], async (ws, registry) => {
        const exact = await call(registry, "write_file", { path: "exact", content: "a".repeat(WRITE_FILE_MAX_BYTES) });
        expect(exact.isError).toBe(false);
        // Multi-byte: 2-byte characters one byte over the limit.
        const over = await call(registry, "write_file", {
          path: "over",
          content: "a" + "é".repeat(WRITE_FILE_MAX_BYTES / 2),
        });
        expect(over.body).toEqual({
          error: {
            code: "TOOL_ARGUMENTS_INVALID",
            message: "CONTENT_TOO_LARGE",
            hint: expect.stringContaining(`at most ${WRITE_FILE_MAX_BYTES.toLocaleString("en-US")} bytes`),
          },
        });
        expect(await ws.readRaw("over")).toBeNull();
      });
    });

    test("read_file refuses a binary file with BINARY_FILE, naming it and pointing to read_media_file", async () => {
      await withWorkspace(host.open, [], async (ws, registry) => {
        const file = await ws.workspace.host.open(ws.workspace.hostPath(["bin"]), {
          write: true,
          createExclusive: true,
        });
        await file.write(new Uint8Array([0x61, 0xff, 0x00, 0x62]), 0);
        await file.close();
        const { error } = (await call(registry, "read_file", { path: "bin" })).body;
        expect(error.code).toBe("BINARY_FILE");
        expect(error.message).toBe("Cannot read 'bin': it is a binary file (a NUL byte at offset 2)");
        expect(error.hint).toContain("read_media_file");
      });
    });

    test("concurrent writes to one target serialize: the result is one of them, whole", async () => {
      await withWorkspace(host.open, [], async (ws, registry) => {
        const contents = Array.from({ length: 12 }, (_, i) => String(i).repeat(5_000 + i));
        const results = await Promise.all(
          contents.map((content) => call(registry, "write_file", { path: "t.txt", content })),
        );
        for (const result of results) expect(result.isError).toBe(false);
        expect(contents).toContain(await ws.readRaw("t.txt"));
      });
    });
  });
}

describe("read_file and write_file on the real disk", () => {
  test("read_file returns the same bytes as a raw read (differential)", async () => {
    const fixture = await diskFixture(["d/e/file.txt=differential ✓\n"]);
    try {
      const result = await createReadTool(fixture.workspace).execute({ path: "d/e/file.txt" });
      expect(result.content).toBe(fs.readFileSync(fixture.abs("d/e/file.txt"), "utf8"));
      expect(result.bytes).toBe(fs.statSync(fixture.abs("d/e/file.txt")).size);
    } finally {
      fixture.cleanup();
    }
  });

  test("write_file keeps an existing file's permission bits and gives a new file the default", async () => {
    const fixture = await diskFixture(["script.sh=#!/bin/sh\n", "shared.txt=x"]);
    try {
      fs.chmodSync(fixture.abs("script.sh"), 0o750);
      // Bits the umask takes off a new file's mode must come back for an existing one.
      fs.chmodSync(fixture.abs("shared.txt"), 0o666);
      const write = createWriteTool(fixture.workspace);
      await write.execute({ path: "script.sh", content: "#!/bin/sh\necho hi\n" });
      expect(fs.statSync(fixture.abs("script.sh")).mode & 0o777).toBe(0o750);
      await write.execute({ path: "shared.txt", content: "y" });
      expect(fs.statSync(fixture.abs("shared.txt")).mode & 0o777).toBe(0o666);
      await write.execute({ path: "new.txt", content: "x" });
      expect(fs.statSync(fixture.abs("new.txt")).mode & 0o777).toBe(0o666 & ~process.umask());
      expect(leftovers(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });

  // A blocking open of a FIFO never returns (no writer): the test's timeout bounds that hang.
  test("read_file refuses a FIFO without blocking", async () => {
    const fixture = await diskFixture([]);
    try {
      execFileSync("mkfifo", [fixture.abs("pipe")]);
      await expect(createReadTool(fixture.workspace).execute({ path: "pipe" })).rejects.toMatchObject({
        code: "NOT_A_FILE",
      });
    } finally {
      fixture.cleanup();
    }
  }, 5_000);

  test("read_file refuses a device through a link inside without blocking", async () => {
    const fixture = await diskFixture(["zero => /dev/zero", "in-dev => d", "d/"]);
    try {
      await expect(createReadTool(fixture.workspace).execute({ path: "zero" })).rejects.toMatchObject({
        code: "PATH_ESCAPES_WORKSPACE",
      });
    } finally {
      fixture.cleanup();
    }
  });

  test("a root deleted and re-created gives WORKSPACE_ROOT_CHANGED and nothing is written", async () => {
    const fixture = await diskFixture(["f=old"]);
    try {
      const registry = new ToolRegistry([createReadTool(fixture.workspace), createWriteTool(fixture.workspace)]);
      fs.rmSync(fixture.root, { recursive: true });
      // The filesystem may hand the new folder the same inode number; the
      // birth time tells them apart (Deno reports it in whole milliseconds).
      await new Promise((resolve) => setTimeout(resolve, 5));
      fs.mkdirSync(fixture.root);
      for (const [name, args] of [["read_file", { path: "f" }], ["write_file", { path: "g", content: "x" }]] as const) {
        const { body } = await call(registry, name, args);
        expect(body.error.code).toBe("WORKSPACE_ROOT_CHANGED");
      }
      expect(fs.readdirSync(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });

  test("a root link retargeted gives WORKSPACE_ROOT_CHANGED", async () => {
    const fixture = await diskFixture(["f=old"]);
    try {
      const link = path.join(fixture.parent, "root-link");
      fs.symlinkSync(fixture.root, link);
      const workspace = await openWorkspace(link);
      expect(workspace.root).toBe(fixture.root);
      const read = createReadTool(workspace);
      expect((await read.execute({ path: "f" })).content).toBe("old");
      fs.unlinkSync(link);
      fs.symlinkSync(fixture.outside, link);
      await expect(read.execute({ path: "secret.txt" })).rejects.toMatchObject({ code: "WORKSPACE_ROOT_CHANGED" });
      await expect(read.execute({ path: "f" })).rejects.toMatchObject({ code: "WORKSPACE_ROOT_CHANGED" });
    } finally {
      fixture.cleanup();
    }
  });

  test("a root that is missing or a file cannot be opened", async () => {
    const fixture = await diskFixture(["f"]);
    try {
      await expect(openWorkspace(fixture.abs("missing"))).rejects.toMatchObject({ code: "WORKSPACE_ROOT_INVALID" });
      await expect(openWorkspace(fixture.abs("f"))).rejects.toMatchObject({ code: "WORKSPACE_ROOT_INVALID" });
    } finally {
      fixture.cleanup();
    }
  });

  test("error results never hold the absolute host path", async () => {
    const fixture = await diskFixture([...SYMLINK_TREE]);
    try {
      const registry = new ToolRegistry([createReadTool(fixture.workspace), createWriteTool(fixture.workspace)]);
      for (const { path: linkPath } of SYMLINK_CASES) {
        for (const name of ["read_file", "write_file"]) {
          const result = await executeToolCall(registry, {
            id: "x",
            name,
            arguments: { path: linkPath, content: "x" },
          });
          expect(result.content).not.toContain(fixture.parent);
          expect(result.content).not.toContain("    at ");
        }
      }
    } finally {
      fixture.cleanup();
    }
  });
});
