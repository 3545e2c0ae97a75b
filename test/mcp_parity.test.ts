// What the MCP server gives beyond the reference filesystem server: honest
// behaviour hints per tool, the relative form for an absolute path inside the
// root, and a --root that must be named (and may not be / or home by accident).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createRequire } from "node:module";
import { afterEach, describe, expect, test } from "vitest";
import { broadRootReason } from "../src/cli/mcp_command.ts";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { toolAnnotations } from "../src/mcp/tool_annotations.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { REPO } from "./helpers/paddock_command.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

async function connect(options: { shell?: { mode: "ask" } } = {}) {
  fixture = await diskFixture(["src/a.ts=export {};\n"]);
  const { server, workspace } = await createPaddockMcpServer({ root: fixture.workspace, ...options });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1" }, { capabilities: {} });
  await client.connect(clientSide);
  return { client, root: workspace.root };
}

describe("tool annotations", () => {
  test("each tool says whether it reads, destroys, repeats safely and reaches outside", async () => {
    const { client } = await connect({ shell: { mode: "ask" } });
    const { tools } = await client.listTools();
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(hints.read_file).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(hints.write_file).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(hints.delete_path).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(hints.create_directory).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(hints.node_process).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(hints.shell).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(hints.process_list).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(hints.process_output).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(hints.process_input).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(hints.process_kill).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    for (const name of ["read_media_file", "directory_tree", "get_file_info", "list_allowed_directories"]) {
      expect(hints[name], name).toEqual({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      });
    }
    await client.close();
  });

  test("a tool of one's own gets MCP's cautious defaults unless it is read-only", () => {
    expect(toolAnnotations("deploy", false)).toEqual({
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    });
    expect(toolAnnotations("lookup", true)).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });
});

describe("output schemas", () => {
  test("every built-in tool advertises one, and every result (and error) matches it", async () => {
    const { client } = await connect();
    const { tools } = await client.listTools();
    expect(tools.filter((tool) => tool.outputSchema === undefined).map((tool) => tool.name)).toEqual([]);
    // The SDK client checks structuredContent against the advertised schema on every call.
    const calls: [string, Record<string, unknown>][] = [
      ["read_file", { path: "src/a.ts" }],
      ["read_file", { path: "src/a.ts", offset: 1, limit: 1 }],
      ["read_multiple_files", { paths: ["src/a.ts", "missing.txt", "../x"] }],
      ["write_file", { path: "b.txt", content: "one\ntwo\n" }],
      ["edit_file", { path: "b.txt", old_string: "two", new_string: "three" }],
      ["apply_patch", { patch: "*** Begin Patch\n*** Update File: b.txt\n@@\n-three\n+four\n*** End Patch\n" }],
      ["list_directory", { path: "." }],
      ["directory_tree", {}],
      ["get_file_info", { path: "src/a.ts" }],
      ["get_file_info", {}],
      ["find_files", { pattern: "**/*.ts" }],
      ["grep", { pattern: "three" }],
      ["grep", { pattern: "three", output_mode: "files_with_matches" }],
      ["grep", { pattern: "three", output_mode: "count" }],
      ["create_directory", { path: "d" }],
      ["move_path", { source: "b.txt", destination: "d/b.txt" }],
      ["delete_path", { path: "d", recursive: true }],
      ["undo_last_change", {}],
      // Bun has no permission model, so the confined default cannot run there.
      ...("Bun" in globalThis
        ? []
        : [["node_process", { source: "console.log(1)" }] as [string, Record<string, unknown>]]),
      ["process_list", {}],
      ["read_file", { path: "missing.txt" }],
    ];
    for (const [name, args] of calls) {
      const result = await client.callTool({ name, arguments: args });
      expect(result.structuredContent, `${name} ${JSON.stringify(args)}`).toBeDefined();
      const body = result.structuredContent as { error?: { code: string } };
      // node_process has the server's default 500 ms limit, which a loaded machine can exceed.
      const timedOut = name === "node_process" && body.error?.code === "NODE_PROCESS_TIMEOUT";
      expect(result.isError && !timedOut, `${name} ${JSON.stringify(body)}`).toBe(
        name === "read_file" && args.path === "missing.txt",
      );
    }
    await client.close();
  });

  test.skipIf("Bun" in globalThis)(
    `a background process's start, output, input, list and kill match theirs${
      "Bun" in globalThis ? " [skipped: Bun has no permission model for the confined node_process]" : ""
    }`,
    async () => {
      const { client } = await connect();
      const call = async (name: string, args: Record<string, unknown>) =>
        (await client.callTool({ name, arguments: args })).structuredContent as Record<string, unknown>;
      const source = "process.stdin.on('data', (d) => process.stdout.write(String(d)));";
      const started = await call("node_process", { source, background: true });
      expect(started).toMatchObject({ status: "running" });
      const id = started.process_id as string;
      expect(await call("process_input", { process_id: id, text: "x\n" })).toEqual({
        process_id: id,
        bytes: 2,
        unsentBytes: 0,
      });
      expect(await call("process_output", { process_id: id, wait_ms: 100 })).toMatchObject({ process_id: id });
      expect(await call("process_list", {})).toMatchObject({ processes: [{ process_id: id }] });
      expect(await call("process_kill", { process_id: id })).toMatchObject({ status: "exited", killed: true });
      expect(await call("process_output", { process_id: id })).toMatchObject({ error: { code: "PROCESS_NOT_FOUND" } });
      await client.close();
    },
  );
});

describe("read_media_file through the protocol", () => {
  test("an image is MCP image content with the sniffed MIME type; a text file is refused", async () => {
    const { client, root } = await connect();
    fs.writeFileSync(path.join(root, "logo.dat"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]));
    const result = await client.callTool({ name: "read_media_file", arguments: { path: "logo.dat" } });
    expect(result.isError).toBe(false);
    const content = result.content as { type: string; data?: string; mimeType?: string; text?: string }[];
    expect(content[0]).toEqual({
      type: "image",
      mimeType: "image/png",
      data: fs.readFileSync(path.join(root, "logo.dat")).toString("base64"),
    });
    // The rest as text and structured content, without the bytes a second time.
    expect(result.structuredContent).toEqual({ path: "logo.dat", kind: "image", mimeType: "image/png", bytes: 10 });
    expect(JSON.parse(content[1].text ?? "")).toEqual(result.structuredContent);
    const text = await client.callTool({ name: "read_media_file", arguments: { path: "src/a.ts" } });
    expect(text.isError).toBe(true);
    expect(text.structuredContent).toMatchObject({ error: { code: "UNSUPPORTED_MEDIA_TYPE" } });
    await client.close();
  });
});

describe("absolute paths through the protocol", () => {
  test("an absolute path inside the root is refused with the relative form to use, and nothing is read", async () => {
    const { client, root } = await connect();
    const result = await client.callTool({ name: "read_file", arguments: { path: path.join(root, "src", "a.ts") } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "INVALID_RELATIVE_PATH",
        hint: "use the workspace-relative path 'src/a.ts' (paths start at the workspace root)",
      },
    });
    await client.close();
  });
});

describe("--root", () => {
  test("the filesystem root and the home folder are broad roots; a project folder is not", () => {
    expect(broadRootReason("/")).toBe("the filesystem root");
    expect(broadRootReason("C:\\")).toBe("the filesystem root");
    expect(broadRootReason(fs.realpathSync(os.homedir()))).toBe("your home folder");
    expect(broadRootReason(fs.realpathSync(os.tmpdir()))).toBeUndefined();
  });
});

// Each tool of the reference server and the Paddock tool that does its job (grep: REFERENCE_COUNTERPARTS).
const REFERENCE_COUNTERPARTS: Readonly<Record<string, string>> = {
  read_file: "read_file",
  read_text_file: "read_file",
  read_media_file: "read_media_file",
  read_multiple_files: "read_multiple_files",
  write_file: "write_file",
  edit_file: "edit_file",
  create_directory: "create_directory",
  list_directory: "list_directory",
  list_directory_with_sizes: "list_directory",
  directory_tree: "directory_tree",
  move_file: "move_path",
  search_files: "find_files",
  get_file_info: "get_file_info",
  list_allowed_directories: "list_allowed_directories",
};

describe("beside the reference filesystem server (@modelcontextprotocol/server-filesystem)", () => {
  test(
    "every reference tool has a Paddock counterpart, and media, tree and file information agree on the same files",
    async () => {
      const { client: paddock, root } = await connect();
      fs.mkdirSync(path.join(root, "d", "e"), { recursive: true });
      fs.writeFileSync(path.join(root, "d", "b.txt"), "hello");
      fs.writeFileSync(path.join(root, "p.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]));
      const bin = path.join(
        path.dirname(
          createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/package.json", {
            paths: [REPO],
          }),
        ),
        "dist",
        "index.js",
      );
      const reference = new Client({ name: "t", version: "1" });
      await reference.connect(new StdioClientTransport({ command: "node", args: [bin, root], stderr: "pipe" }));
      try {
        const theirs = (await reference.listTools()).tools.map((tool) => tool.name).sort();
        const ours = new Set((await paddock.listTools()).tools.map((tool) => tool.name));
        // A tool the reference adds later fails here until it has a counterpart.
        expect(theirs.filter((name) => !Object.hasOwn(REFERENCE_COUNTERPARTS, name))).toEqual([]);
        expect(theirs.map((name) => REFERENCE_COUNTERPARTS[name]).filter((name) => !ours.has(name))).toEqual([]);

        // The same image content block (the reference names the file by absolute path, Paddock relative).
        const media = async (client: Client, file: string) =>
          (await client.callTool({ name: "read_media_file", arguments: { path: file } })).content as unknown[];
        expect((await media(paddock, "p.png"))[0]).toEqual((await media(reference, path.join(root, "p.png")))[0]);

        // The same tree (the reference's `type` is Paddock's `kind`).
        const tree = (await paddock.callTool({ name: "directory_tree", arguments: {} })).structuredContent as {
          tree: unknown[];
        };
        const theirTree = JSON.parse(
          ((await reference.callTool({ name: "directory_tree", arguments: { path: root } })).content as {
            text: string;
          }[])[0].text,
        );
        type Node = { name: string; kind?: string; type?: string; children?: Node[] };
        // Both sorted by name (the reference lists in readdir order), the reference's `type` as Paddock's `kind`.
        const normalized = (nodes: Node[]): Node[] =>
          nodes.map((node) => ({
            name: node.name,
            kind: node.kind ?? node.type,
            ...(node.children === undefined ? {} : { children: normalized(node.children) }),
          })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        expect(normalized(tree.tree as Node[])).toEqual(normalized(theirTree));

        // The same size and permission bits.
        const info = (await paddock.callTool({ name: "get_file_info", arguments: { path: "d/b.txt" } }))
          .structuredContent as {
            size: number;
            mode: string;
          };
        const theirInfo =
          ((await reference.callTool({ name: "get_file_info", arguments: { path: path.join(root, "d", "b.txt") } }))
            .content as { text: string }[])[0].text;
        expect(theirInfo).toContain(`size: ${info.size}\n`);
        expect(theirInfo).toContain(`permissions: ${info.mode.replace(/^0/, "")}`);
      } finally {
        await reference.close();
        await paddock.close();
      }
    },
    60_000,
  );
});
