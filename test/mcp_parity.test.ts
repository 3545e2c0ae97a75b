// What the MCP server gives beyond the reference filesystem server: honest
// behaviour hints per tool, the relative form for an absolute path inside the
// root, and a --root that must be named (and may not be / or home by accident).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, test } from "vitest";
import { broadRootReason } from "../src/cli/mcp_command.ts";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { toolAnnotations } from "../src/mcp/tool_annotations.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";

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
      // Bun has no permission model, so the confined default cannot run there.
      ...("Bun" in globalThis
        ? []
        : [["node_process", { source: "console.log(1)" }] as [string, Record<string, unknown>]]),
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
