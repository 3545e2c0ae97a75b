// Several --root folders in one MCP server, addressed as NAME:path, and a
// client's roots/list narrowing (never widening) what is served: in-process
// through the SDK's client, then against the real `paddock mcp` process on
// Node and Deno.
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { openWorkspace } from "../mod.ts";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { nameRoots, RootSet } from "../src/mcp/root_set.ts";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { type DiskFixture, diskFixture, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { APPLY_PATCH_MAX_BYTES } from "../src/core/limits.ts";
import { paddockCommand, REPO, SERVER_RUNTIMES } from "./helpers/paddock_command.ts";

let fixture: DiskFixture;
let app: string;
let docs: string;

beforeAll(async () => {
  fixture = await diskFixture(["app/src/a.ts=export const a = 1;\n", "docs/guide.md=# Guide\n", "docs/img/"]);
  app = fs.realpathSync(fixture.abs("app"));
  docs = fs.realpathSync(fixture.abs("docs"));
});
afterAll(() => fixture.cleanup());

type Roots = { uri: string; name?: string }[];

/**
 * A client on the in-process server over `app` (default) and `docs`, with `clientRoots` when given;
 * `onInitialized` set as the server's `oninitialized` (the user's own handler) before it connects.
 */
async function connect(clientRoots?: Roots, onInitialized?: () => void): Promise<Client> {
  const { server } = await createPaddockMcpServer({ root: app, roots: [docs], nodeProcess: false });
  if (onInitialized !== undefined) server.oninitialized = onInitialized;
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1" }, {
    capabilities: clientRoots === undefined ? {} : { roots: { listChanged: true } },
  });
  if (clientRoots !== undefined) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: clientRoots }));
  await client.connect(clientSide);
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, body: result.structuredContent as Record<string, unknown> };
}

const codeOf = (body: Record<string, unknown>) => (body.error as { code?: string } | undefined)?.code ?? null;

describe("root names", () => {
  test("each root is named after its folder, made unique, and the first is the default", async () => {
    const a = await openWorkspace(app);
    const b = await openWorkspace(docs);
    const roots = nameRoots([a, b, b]);
    expect(roots.map((root) => [root.name, root.isDefault])).toEqual([["app", true], ["docs", false], [
      "docs-2",
      false,
    ]]);
    const set = new RootSet(roots);
    expect(set.route("src/a.ts")).toMatchObject({ path: "src/a.ts", root: { name: "app" } });
    expect(set.route("docs:guide.md")).toMatchObject({ path: "guide.md", root: { name: "docs" } });
    expect(set.route("docs:")).toMatchObject({ path: ".", root: { name: "docs" } });
    // Not a root's name: the path stays as it is, and the grammar refuses its colon.
    expect(set.route("nope:x")).toMatchObject({ path: "nope:x", root: { name: "app" } });
  });
});

describe("several roots in one server", () => {
  test("bare paths name the default root, NAME:path the others, and results say NAME: again", async () => {
    const client = await connect();
    expect((await call(client, "read_file", { path: "src/a.ts" })).body).toMatchObject({ path: "src/a.ts" });
    expect((await call(client, "read_file", { path: "docs:guide.md" })).body).toEqual({
      path: "docs:guide.md",
      content: "# Guide\n",
      bytes: 8,
    });
    expect((await call(client, "write_file", { path: "docs:new.md", content: "x" })).body).toEqual({
      path: "docs:new.md",
      bytes: 1,
    });
    expect(fs.readFileSync(path.join(docs, "new.md"), "utf8")).toBe("x");
    expect(fs.existsSync(path.join(app, "new.md"))).toBe(false);
    const found = await call(client, "find_files", { pattern: "**/*.md", path: "docs:" });
    expect(found.body).toMatchObject({ paths: ["docs:guide.md", "docs:new.md"] });
    const many = await call(client, "read_multiple_files", { paths: ["src/a.ts", "docs:guide.md", "docs:../x"] });
    const files = (many.body as { files: { path: string; error?: { message: string } }[] }).files;
    expect(files.map((file) => file.path)).toEqual(["src/a.ts", "docs:guide.md", "docs:../x"]);
    expect(files[2].error?.message).toBe("INVALID_RELATIVE_PATH");
    const listed = await call(client, "list_allowed_directories", {});
    expect(listed.body).toEqual({
      roots: [{ name: "app", prefix: "app:", default: true }, { name: "docs", prefix: "docs:", default: false }],
    });
    expect(JSON.stringify(listed.body)).not.toContain(fixture.parent);
    await client.close();
  });

  test("a call may not span two roots, and every hostile path is refused in each root", async () => {
    const client = await connect();
    const moved = await call(client, "move_path", { source: "src/a.ts", destination: "docs:a.ts" });
    expect(moved.body).toMatchObject({ error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_ARGUMENTS" } });
    expect(fs.existsSync(path.join(app, "src/a.ts"))).toBe(true);
    for (const row of HOSTILE_PATHS) {
      const { isError, body } = await call(client, "read_file", { path: `docs:${row.path}` });
      // `docs:` alone is the folder itself: read_file refuses it as a folder.
      if (row.path === "") expect(codeOf(body)).toBe("NOT_A_FILE");
      else {expect({ row: row.name, isError, message: (body.error as { message?: string }).message }).toEqual({
          row: row.name,
          isError: true,
          message: row.code,
        });}
    }
    expect(fs.readFileSync(path.join(fixture.outside, "secret.txt"), "utf8")).toBe(OUTSIDE_SECRET);
    await client.close();
  });

  test("apply_patch goes to the root its patch names, with NAME: taken off each path", async () => {
    const client = await connect();
    fs.writeFileSync(path.join(docs, "patched.md"), "one\ntwo\n");
    // The stale-write guard is on in the server: the file must be read first, in its own root, and the
    // error says so with the path as the model writes it (a bare 'patched.md' is the default root's).
    const unread = await call(client, "apply_patch", {
      patch: "*** Begin Patch\n*** Update File: docs:patched.md\n@@\n-two\n+2\n*** End Patch\n",
    });
    expect(unread.body.error).toEqual({
      code: "FILE_NOT_READ",
      message: "Cannot patch 'docs:patched.md': the file was not read in this session",
      hint: "read 'docs:patched.md' with read_file first, then retry; nothing was changed",
    });
    expect((await call(client, "read_file", { path: "docs:patched.md" })).isError).toBe(false);
    const patch = "*** Begin Patch\r\n*** Update File: docs:patched.md\r\n@@\r\n one\r\n-two\r\n+2\r\n" +
      "*** Add File: docs:img/added.md\r\n+*** Add File: docs:kept.md\r\n*** End Patch\r\n";
    const { isError, body } = await call(client, "apply_patch", { patch });
    expect({ isError, body }).toEqual({
      isError: false,
      body: {
        files: [
          { path: "docs:patched.md", action: "updated", added: 1, removed: 1 },
          { path: "docs:img/added.md", action: "added", added: 1, removed: 0 },
        ],
      },
    });
    expect(fs.readFileSync(path.join(docs, "patched.md"), "utf8")).toBe("one\n2\n");
    // An added line that looks like a header is content, kept as sent.
    expect(fs.readFileSync(path.join(docs, "img/added.md"), "utf8")).toBe("*** Add File: docs:kept.md\n");
    expect(fs.existsSync(path.join(app, "patched.md"))).toBe(false);
    expect(fs.readdirSync(app).some((name) => name.includes(":"))).toBe(false);
    // Bare paths stay in the default root.
    const bare = await call(client, "apply_patch", {
      patch: "*** Begin Patch\n*** Add File: src/b.ts\n+b\n*** End Patch\n",
    });
    expect(bare.body).toEqual({ files: [{ path: "src/b.ts", action: "added", added: 1, removed: 0 }] });
    expect(fs.readFileSync(path.join(app, "src/b.ts"), "utf8")).toBe("b\n");
    fs.rmSync(path.join(app, "src/b.ts"));
    fs.rmSync(path.join(docs, "img/added.md"));
    fs.rmSync(path.join(docs, "patched.md"));
    await client.close();
  });

  test("apply_patch across two roots, or a unified diff of another root's file, changes nothing", async () => {
    const client = await connect();
    const before = fs.readFileSync(path.join(docs, "guide.md"), "utf8");
    const refused = [
      "*** Begin Patch\n*** Delete File: src/a.ts\n*** Update File: docs:guide.md\n@@\n-# Guide\n+# G\n*** End Patch\n",
      // A move from one root into another.
      "*** Begin Patch\n*** Update File: docs:guide.md\n*** Move to: src/guide.md\n*** End Patch\n",
      "--- a/docs:guide.md\n+++ b/docs:guide.md\n@@ -1 +1 @@\n-# Guide\n+# G\n",
    ];
    for (const patch of refused) {
      const { body } = await call(client, "apply_patch", { patch });
      expect({ patch, error: body.error }).toMatchObject({
        patch,
        error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_ARGUMENTS" },
      });
    }
    // Over the tool's bound: refused as too large, wherever its paths point, before it is read.
    const large = await call(client, "apply_patch", {
      patch: `*** Begin Patch\n*** Add File: docs:big.md\n${"+x\n".repeat(100_000)}*** End Patch\n`,
    });
    expect(large.body.error).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: "CONTENT_TOO_LARGE" });
    expect(fs.existsSync(path.join(docs, "big.md"))).toBe(false);
    const unified = await call(client, "apply_patch", { patch: refused[2] });
    expect((unified.body.error as { hint?: string }).hint).toContain("*** Update File: docs:path");
    expect(fs.readFileSync(path.join(docs, "guide.md"), "utf8")).toBe(before);
    expect(fs.readFileSync(path.join(app, "src/a.ts"), "utf8")).toBe("export const a = 1;\n");
    expect(fs.existsSync(path.join(app, "src/guide.md"))).toBe(false);
    // Every hostile path, written after `docs:` in a patch, is refused there and creates nothing anywhere.
    const listing = (dir: string) => fs.readdirSync(dir, { recursive: true }).map(String).sort();
    const trees = [app, docs, fixture.outside].map(listing);
    for (const row of HOSTILE_PATHS) {
      if (/[\r\n]/.test(row.path) || row.path.trim() !== row.path || row.path === "") continue; // not one header line
      const { isError, body } = await call(client, "apply_patch", {
        patch: `*** Begin Patch\n*** Add File: docs:${row.path}\n+x\n*** End Patch\n`,
      });
      expect({ row: row.name, isError, message: (body.error as { message?: string }).message }).toEqual({
        row: row.name,
        isError: true,
        message: row.code,
      });
    }
    expect([app, docs, fixture.outside].map(listing)).toEqual(trees);
    expect(fs.readFileSync(path.join(fixture.outside, "secret.txt"), "utf8")).toBe(OUTSIDE_SECRET);
    await client.close();
  });

  test("an error in another root names the call's paths with their NAME: form", async () => {
    const client = await connect();
    const missing = await call(client, "read_file", { path: "docs:img//nope.md" });
    expect(missing.body.error).toMatchObject({ code: "NOT_FOUND" });
    expect((missing.body.error as { message: string }).message).toContain("'docs:img/nope.md'");
    expect(JSON.stringify(missing.body)).not.toMatch(/'img\/nope\.md'/);
    const unread = await call(client, "write_file", { path: "docs:guide.md", content: "x" });
    expect(unread.body.error).toMatchObject({ code: "FILE_NOT_READ" });
    expect((unread.body.error as { hint: string }).hint).toContain("'docs:guide.md'");
    // One pass over the text: a name inside another (`'t.md'` in `'don't.md'`) is not rewritten again.
    fs.writeFileSync(path.join(docs, "don't.md"), "a");
    fs.writeFileSync(path.join(docs, "t.md"), "b");
    const moved = await call(client, "move_path", { source: "docs:don't.md", destination: "docs:t.md" });
    expect((moved.body.error as { message: string }).message).toContain("Cannot move 'docs:don't.md' to 'docs:t.md'");
    fs.rmSync(path.join(docs, "don't.md"));
    fs.rmSync(path.join(docs, "t.md"));
    // The folder itself is `docs:`; an argument error's hint quotes a property, not the path.
    const root = await call(client, "delete_path", { path: "docs:" });
    expect((root.body.error as { message: string }).message).toContain("'docs:'");
    const property = await call(client, "write_file", { path: "docs:content" });
    expect(property.body.error).toMatchObject({ hint: expect.stringContaining("'content'") });
    expect(JSON.stringify(property.body)).not.toContain("docs:content");
    // The default root's errors are as the tool wrote them.
    const here = await call(client, "read_file", { path: "nope.md" });
    expect((here.body.error as { message: string }).message).toContain("'nope.md'");
    await client.close();
  });

  test("a patch's errors in another root name its files with NAME:, and nothing else is rewritten", async () => {
    const client = await connect();
    const files = { "x.md": "x\n", "notes.md": "see 'notes.md' here\n", "-": "dash\n" };
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(docs, name), content);
    const patch = async (body: string) =>
      (await call(client, "apply_patch", { patch: `*** Begin Patch\n${body}*** End Patch\n` })).body.error as {
        code: string;
        message: string;
        hint: string;
      };
    // A space after `docs:` is trimmed as the tool trims a header's path.
    expect(await patch("*** Delete File: docs: x.md\n")).toMatchObject({
      code: "FILE_NOT_READ",
      message: "Cannot delete 'docs:x.md': the file was not read in this session",
      hint: "read 'docs:x.md' with read_file first, then retry; nothing was changed",
    });
    // The header a hint suggests names the file as the model writes it.
    expect((await patch("*** Add File: docs:guide.md\n+x\n")).hint).toContain("'*** Update File: docs:guide.md'");
    expect((await patch("*** Update File: docs:it's.md\n@@\n-a\n+b\n")).message).toContain("'docs:it's.md'");
    for (const name of Object.keys(files)) await call(client, "read_file", { path: `docs:${name}` });
    // The nearest lines are the file's own text, quotes and all.
    const near = await patch("*** Update File: docs:notes.md\n@@\n-see 'notes.md' here\n-missing\n+X\n");
    expect(near.message.split("\n")).toEqual([
      "Cannot apply patch to 'docs:notes.md': hunk 1 of 1 not found, its lines match nowhere in the file; " +
      "nearest lines 1-1 (1 of 2 lines match), first difference at line 2 (past the end of the file): the patch has " +
      "'missing', the file ends there:",
      "1: see 'notes.md' here",
    ]);
    // A file named '-' is not mistaken for the hint's own '-'.
    expect((await patch("*** Update File: docs:-\n@@\n-nomatch\n+X\n")).hint).toContain(
      "with context and '-' lines exactly",
    );
    // The default root's own prefix is taken off too.
    await call(client, "read_file", { path: "src/a.ts" });
    const own = await call(client, "apply_patch", {
      patch:
        "*** Begin Patch\n*** Update File: app:src/a.ts\n@@\n-export const a = 1;\n+export const a = 2;\n*** End Patch\n",
    });
    expect(own.body).toEqual({ files: [{ path: "src/a.ts", action: "updated", added: 1, removed: 1 }] });
    expect(fs.readFileSync(path.join(app, "src/a.ts"), "utf8")).toBe("export const a = 2;\n");
    fs.writeFileSync(path.join(app, "src/a.ts"), "export const a = 1;\n");
    for (const name of Object.keys(files)) fs.rmSync(path.join(docs, name));
    expect(fs.readFileSync(path.join(docs, "guide.md"), "utf8")).toBe("# Guide\n");
    await client.close();
  });

  test("a patch over the bound as sent is refused, though its NAME:s taken off would bring it under", async () => {
    const client = await connect();
    const head = "*** Begin Patch\n*** Add File: docs:big.md\n+";
    const tail = "\n*** End Patch\n";
    // Two-byte characters: under the bound in UTF-16 units, 1 or 2 bytes over it in UTF-8 with 'docs:' (5 bytes).
    const base = new TextEncoder().encode(head + tail).length;
    const patch = head + "é".repeat(Math.floor((APPLY_PATCH_MAX_BYTES - base) / 2) + 1) + tail;
    expect(new TextEncoder().encode(patch).length - APPLY_PATCH_MAX_BYTES).toBeGreaterThan(0);
    expect(new TextEncoder().encode(patch.replace("docs:", "")).length).toBeLessThanOrEqual(APPLY_PATCH_MAX_BYTES);
    const { body } = await call(client, "apply_patch", { patch });
    // Found before any side effect, so reported as an argument error with the precise code as its message.
    expect(body.error).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: "CONTENT_TOO_LARGE" });
    expect(fs.existsSync(path.join(docs, "big.md"))).toBe(false);
    await client.close();
  });

  test("errors about the folder itself and the patch syntax hint read right in another root", async () => {
    fs.writeFileSync(path.join(docs, "p"), "x\n");
    fs.symlinkSync("p", path.join(docs, "plink"));
    try {
      const client = await connect();
      const folder = await call(client, "apply_patch", {
        patch: "*** Begin Patch\n*** Delete File: docs:./\n*** End Patch\n",
      });
      expect(codeOf(folder.body)).toBe("WORKSPACE_ROOT_PROTECTED");
      expect((folder.body.error as { message: string }).message).toContain("'docs:'");
      expect((folder.body.error as { message: string }).message).not.toContain("'./'");
      // A file named like the hint's placeholder: the hint's own text is left alone.
      for (const name of ["docs:p", "docs:plink"]) {
        expect((await call(client, "read_file", { path: name })).isError).toBe(false);
      }
      const twice = await call(client, "apply_patch", {
        patch:
          "*** Begin Patch\n*** Update File: docs:plink\n@@\n-x\n+y\n*** Update File: docs:p\n@@\n-x\n+z\n*** End Patch\n",
      });
      expect(codeOf(twice.body)).toBe("PATCH_INVALID");
      const error = twice.body.error as { message: string; hint: string };
      expect(error.message).toContain("'docs:p'");
      expect(error.hint).toContain("'*** Update File: <path>'");
      expect(error.hint).not.toContain("docs:");
      expect(fs.readFileSync(path.join(docs, "p"), "utf8")).toBe("x\n");
      await client.close();
    } finally {
      fs.rmSync(path.join(docs, "plink"));
      fs.rmSync(path.join(docs, "p"));
    }
  });

  test("an absolute path inside another root gets a hint with its NAME: form", async () => {
    const client = await connect();
    const { body } = await call(client, "read_file", { path: path.join(docs, "guide.md") });
    expect((body.error as { hint?: string }).hint).toContain("'docs:guide.md'");
    await client.close();
  });
});

describe("client roots", () => {
  test("narrow the served folders to those inside them", async () => {
    const client = await connect([{ uri: pathToFileURL(docs).href }]);
    expect((await call(client, "read_file", { path: "docs:guide.md" })).isError).toBe(false);
    const refused = await call(client, "read_file", { path: "src/a.ts" });
    expect(codeOf(refused.body)).toBe("ROOT_NOT_SERVED");
    expect(JSON.stringify(refused.body)).not.toContain(fixture.parent);
    expect(codeOf((await call(client, "node_process", { source: "1" })).body)).not.toBe(null);
    // Calls refused for what they are, whatever root, say so, though the default root is not served.
    const unreadable = await call(client, "apply_patch", { patch: "*** Begin Patch\n*** Frobnicate: x\n" });
    expect(codeOf(unreadable.body)).toBe("PATCH_INVALID");
    expect(JSON.stringify(unreadable.body)).not.toContain(fixture.parent);
    expect(codeOf((await call(client, "apply_patch", { patch: 42 })).body)).toBe("TOOL_ARGUMENTS_INVALID");
    expect(codeOf((await call(client, "apply_patch", {})).body)).toBe("TOOL_ARGUMENTS_INVALID");
    expect(codeOf((await call(client, "read_file", { path: 42 })).body)).toBe("TOOL_ARGUMENTS_INVALID");
    const huge = `*** Begin Patch\n*** Add File: docs:h.md\n+${"a".repeat(APPLY_PATCH_MAX_BYTES)}\n*** End Patch\n`;
    expect((await call(client, "apply_patch", { patch: huge })).body.error).toMatchObject({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "CONTENT_TOO_LARGE",
    });
    expect(fs.existsSync(path.join(docs, "h.md"))).toBe(false);
    // A call with no path at all still needs the default root.
    expect(codeOf((await call(client, "list_directory", {})).body)).toBe("ROOT_NOT_SERVED");
    expect((await call(client, "list_allowed_directories", {})).body).toEqual({
      roots: [{ name: "docs", prefix: "docs:", default: false }],
    });
    await client.close();
  });

  test("still narrow them when the server's user sets its own oninitialized, which runs too", async () => {
    let handshakes = 0;
    const client = await connect([{ uri: pathToFileURL(docs).href }], () => handshakes++);
    expect(codeOf((await call(client, "read_file", { path: "src/a.ts" })).body)).toBe("ROOT_NOT_SERVED");
    expect((await call(client, "list_allowed_directories", {})).body).toEqual({
      roots: [{ name: "docs", prefix: "docs:", default: false }],
    });
    expect(handshakes).toBe(1);
    await client.close();
  });

  test("never widen them: file:/// and folders outside every root add nothing", async () => {
    const client = await connect([
      { uri: "file:///" },
      { uri: pathToFileURL(fixture.outside).href },
      { uri: "https://example.com/" },
    ]);
    expect((await call(client, "list_allowed_directories", {})).body).toMatchObject({
      roots: [{ name: "app" }, { name: "docs" }],
    });
    for (const target of ["../outside/secret.txt", path.join(fixture.outside, "secret.txt"), "outside:secret.txt"]) {
      const { isError, body } = await call(client, "read_file", { path: target });
      expect(isError).toBe(true);
      expect(JSON.stringify(body)).not.toContain(OUTSIDE_SECRET);
    }
    await client.close();
  });

  test("a root folder inside a client root that lies within a served root does not widen or re-root", async () => {
    // The client names a subfolder of docs: docs is not inside it, so docs is no longer served.
    const client = await connect([{ uri: pathToFileURL(path.join(docs, "img")).href }]);
    expect((await call(client, "list_allowed_directories", {})).body).toEqual({ roots: [] });
    expect(codeOf((await call(client, "read_file", { path: "docs:guide.md" })).body)).toBe("ROOT_NOT_SERVED");
    await client.close();
  });
});

describe.each(SERVER_RUNTIMES)("paddock mcp with two --root folders under %s", (serverRuntime) => {
  test("serves both, and the client's roots narrow them as the server process sees them", async () => {
    const { command, args } = paddockCommand(serverRuntime, ["mcp", "--root", app, "--root", docs, "--read-only"]);
    const transport = new StdioClientTransport({ command, args, cwd: REPO, stderr: "pipe" });
    let clientRoots: Roots = [{ uri: pathToFileURL(app).href }, { uri: pathToFileURL(docs).href }];
    const client = new Client({ name: "t", version: "1" }, { capabilities: { roots: { listChanged: true } } });
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: clientRoots }));
    await client.connect(transport);
    try {
      expect((await call(client, "read_file", { path: "docs:guide.md" })).body).toMatchObject({ content: "# Guide\n" });
      expect((await call(client, "read_file", { path: "src/a.ts" })).body).toMatchObject({ bytes: 20 });
      clientRoots = [{ uri: pathToFileURL(app).href }];
      await client.sendRootsListChanged();
      // The narrowing settles before the next call runs; poll briefly for the notification to arrive.
      let code: string | null = null;
      for (let i = 0; i < 50 && code === null; i++) {
        code = codeOf((await call(client, "read_file", { path: "docs:guide.md" })).body);
        if (code === null) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(code).toBe("ROOT_NOT_SERVED");
      expect((await call(client, "read_file", { path: "src/a.ts" })).isError).toBe(false);
      // Widening back to file:/// serves only what was configured.
      clientRoots = [{ uri: "file:///" }];
      await client.sendRootsListChanged();
      let names: string[] = [];
      for (let i = 0; i < 50 && names.length < 2; i++) {
        names = ((await call(client, "list_allowed_directories", {})).body as { roots: { name: string }[] }).roots
          .map((root) => root.name);
        if (names.length < 2) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(names).toEqual(["app", "docs"]);
      expect(codeOf((await call(client, "read_file", { path: "../outside/secret.txt" })).body)).toBe(
        "TOOL_ARGUMENTS_INVALID",
      );
    } finally {
      await client.close();
    }
  }, 60_000);
});
