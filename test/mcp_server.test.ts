import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema, ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createCodingTools, defineTool, executeToolCall, ToolRegistry } from "../mod.ts";
import { MCP_MAX_MESSAGE_BYTES, WRITE_FILE_MAX_BYTES } from "../src/core/limits.ts";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { SYMLINK_CASES, SYMLINK_TREE } from "./cases/symlink_fixtures.ts";
import { PATH_TOOLS } from "./cases/tool_replay.ts";
import { pathArgumentError } from "./helpers/codes.ts";
import { type DiskFixture, diskFixture, leftovers, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { gatedTool } from "./helpers/gated_tool.ts";
import { inMemoryClient } from "./helpers/in_memory_client.ts";
import { paddockCommand, REPO, SERVER_RUNTIMES } from "./helpers/paddock_command.ts";
import type { RuntimeName } from "./helpers/runtime.ts";
import { sandboxSkipReason } from "./helpers/sandbox.ts";

const TREE = ["README.md=# hello\n", "src/", "src/a.ts=export const a = 1;\n", ...SYMLINK_TREE];
const SEED_TOOLS = ["read_file", "write_file", "node_process"];

/** A connected client, with every reply text it has seen. */
interface Session {
  client: Client;
  replies: string[];
  stderr: () => string;
  call(name: string, args: Record<string, unknown>): Promise<{ isError: boolean; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

async function connect(
  on: RuntimeName,
  args: string[],
  clientOptions: ConstructorParameters<typeof Client>[1] = {},
): Promise<Session> {
  const { command, args: argv } = paddockCommand(on, ["mcp", ...args]);
  const transport = new StdioClientTransport({ command, args: argv, cwd: REPO, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
  const client = new Client({ name: "paddock-test", version: "1.0.0" }, clientOptions);
  await client.connect(transport);
  const replies: string[] = [];
  return {
    client,
    replies,
    stderr: () => stderr,
    async call(name, callArgs) {
      const result = await client.callTool({ name, arguments: callArgs });
      const content = result.content as { type: string; text: string }[];
      expect(content).toHaveLength(1);
      expect(content[0].type).toBe("text");
      replies.push(content[0].text);
      const body = JSON.parse(content[0].text) as Record<string, unknown>;
      expect(result.structuredContent).toEqual(body);
      return { isError: result.isError === true, body };
    },
    close: () => client.close(),
  };
}

const errorOf = (body: Record<string, unknown>) => body.error as { code: string; message: string; hint?: string };

describe.each(SERVER_RUNTIMES)("paddock mcp with the server under %s", (serverRuntime) => {
  let fixture: DiskFixture;
  let session: Session;

  beforeAll(async () => {
    fixture = await diskFixture(TREE);
    // --unsandboxed: node_process is offered where no OS sandbox works too (it runs in one where it does).
    session = await connect(serverRuntime, [
      "--root",
      fixture.root,
      "--unsandboxed",
      "--node-process-timeout",
      "10000",
    ]);
  });
  afterAll(async () => {
    await session?.close();
    fixture?.cleanup();
  });

  test("tools/list offers the coding tools with their JSON Schemas", async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(SEED_TOOLS));
    const expected = new ToolRegistry(createCodingTools(fixture.workspace)).definitions();
    for (const definition of expected) {
      const listed = tools.find((tool) => tool.name === definition.name);
      expect(listed?.inputSchema).toEqual(definition.inputSchema);
      // node_process states what a script reaches on the server's runtime and sandbox, not this one's.
      if (definition.name !== "node_process") expect(listed?.description).toBe(definition.description);
    }
    expect(tools.find((tool) => tool.name === "read_file")?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((tool) => tool.name === "write_file")?.annotations?.readOnlyHint).toBe(false);
  });

  test("read_file answers with the same JSON as executeToolCall", async () => {
    const { isError, body } = await session.call("read_file", { path: "src/a.ts" });
    const direct = await executeToolCall(new ToolRegistry(createCodingTools(fixture.workspace)), {
      id: "1",
      name: "read_file",
      arguments: { path: "src/a.ts" },
    });
    expect(isError).toBe(false);
    expect(JSON.stringify(body)).toBe(direct.content);
    expect(body).toEqual({ path: "src/a.ts", content: "export const a = 1;\n", bytes: 20 });
  });

  test("write_file writes exactly the bytes and leaves no temp file", async () => {
    const { isError, body } = await session.call("write_file", { path: "new/dir/b.txt", content: "héllo\n" });
    expect(isError).toBe(false);
    expect(body).toEqual({ path: "new/dir/b.txt", bytes: 7 });
    expect(fs.readFileSync(fixture.abs("new/dir/b.txt"), "utf8")).toBe("héllo\n");
    expect(leftovers(fixture.root)).toEqual([]);
  });

  test("node_process runs a script in the workspace and reports its exit as data", async () => {
    const { isError, body } = await session.call("node_process", {
      source: 'console.log(require("fs").readFileSync("README.md", "utf8").trim()); process.exitCode = 4;',
    });
    if (serverRuntime === "bun" && sandboxSkipReason !== undefined) {
      // Bun has no permission model: outside the OS sandbox a confined script cannot run, and the server says so.
      expect(errorOf(body).code).toBe("NODE_PROCESS_PERMISSIONS_UNAVAILABLE");
      return;
    }
    expect(isError).toBe(false);
    expect(body).toMatchObject({ exitCode: 4, stdout: "# hello\n", timedOut: false });
  });

  test("every listed tool answers empty arguments with a result or an argument error", async () => {
    const { tools } = await session.client.listTools();
    for (const tool of tools) {
      const { isError, body } = await session.call(tool.name, {});
      if (isError) expect(errorOf(body).code).toBe("TOOL_ARGUMENTS_INVALID");
    }
  });

  test("an unknown tool is an error result with TOOL_NOT_FOUND", async () => {
    const { isError, body } = await session.call("format_disk", {});
    expect(isError).toBe(true);
    expect(errorOf(body).code).toBe("TOOL_NOT_FOUND");
  });

  test("wrong arguments map to TOOL_ARGUMENTS_INVALID with the precise reason", async () => {
    const unknown = await session.call("read_file", { path: "README.md", extra: 1 });
    expect(unknown.isError).toBe(true);
    expect(errorOf(unknown.body)).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_ARGUMENTS" });
    expect(errorOf(unknown.body).hint).toContain("extra");
    const missing = await session.call("read_file", { path: "missing.txt" });
    expect(errorOf(missing.body).code).toBe("NOT_FOUND");
    const folder = await session.call("read_file", { path: "src" });
    expect(errorOf(folder.body).code).toBe("NOT_A_FILE");
  });

  // read_file and write_file of the replay table (test/cases/tool_replay.ts), through the protocol,
  // and the reference server's tools that take one path.
  const readWrite = PATH_TOOLS.filter((tool) => tool.label === "read_file" || tool.label === "write_file");
  const onePath = [
    ...readWrite.map((tool) => [tool.name, tool.args] as const),
    ...(["read_media_file", "directory_tree", "get_file_info"] as const).map((name) =>
      [name, (path: string) => ({ path })] as const
    ),
  ];

  test("every hostile path is refused through the protocol, by read_file, write_file, read_media_file, directory_tree and get_file_info", async () => {
    for (const row of HOSTILE_PATHS) {
      for (const [name, args] of onePath) {
        const { isError, body } = await session.call(name, args(row.path));
        expect({ row: row.name, name, isError, error: errorOf(body) }).toEqual({
          row: row.name,
          name,
          isError: true,
          error: pathArgumentError(row.path, row.code, row.hint),
        });
      }
    }
    expect(fs.readFileSync(path.join(fixture.outside, "secret.txt"), "utf8")).toBe(OUTSIDE_SECRET);
  });

  test("links are confined through the protocol as the symlink table says", async () => {
    for (const tool of readWrite) {
      for (const row of SYMLINK_CASES) {
        const result = await session.call(tool.name, tool.args(row.path));
        expect({ row: row.name, code: result.isError ? errorOf(result.body).code : null }).toEqual({
          row: row.name,
          code: tool.onLink(row).code,
        });
      }
    }
    // The metadata tool follows links as read_file does (files and folders alike).
    for (const row of SYMLINK_CASES) {
      const info = await session.call("get_file_info", { path: row.path });
      expect({ row: row.name, code: info.isError ? errorOf(info.body).code : null }).toEqual({
        row: row.name,
        code: row.read,
      });
    }
    expect(fs.readdirSync(fixture.outside)).toEqual(["secret.txt"]);
    expect(fs.readFileSync(path.join(fixture.outside, "secret.txt"), "utf8")).toBe(OUTSIDE_SECRET);
    expect(leftovers(fixture.root)).toEqual([]);
  });

  test("a 100 MiB sparse file is refused with FILE_TOO_LARGE without being loaded", async () => {
    const handle = fs.openSync(fixture.abs("huge.bin"), "w");
    fs.ftruncateSync(handle, 100 * 1024 * 1024);
    fs.closeSync(handle);
    const { isError, body } = await session.call("read_file", { path: "huge.bin" });
    expect(isError).toBe(true);
    expect(errorOf(body).code).toBe("FILE_TOO_LARGE");
    fs.rmSync(fixture.abs("huge.bin"));
  });

  test("a 12 MiB write argument gives CONTENT_TOO_LARGE, writes nothing, and the session stays alive", async () => {
    const content = "x".repeat(12 * 1024 * 1024);
    expect(content.length).toBeGreaterThan(MCP_MAX_MESSAGE_BYTES);
    const { isError, body } = await session.call("write_file", { path: "big.txt", content });
    expect(isError).toBe(true);
    expect(errorOf(body)).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "CONTENT_TOO_LARGE",
      hint: `a call may have at most ${
        MCP_MAX_MESSAGE_BYTES.toLocaleString("en-US")
      } bytes: send large content in parts, over several calls`,
    });
    expect(fs.existsSync(fixture.abs("big.txt"))).toBe(false);
    // Under the message limit, the tool's own limit answers the same way.
    const mid = await session.call("write_file", { path: "big.txt", content: "y".repeat(WRITE_FILE_MAX_BYTES + 1) });
    expect(errorOf(mid.body)).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "CONTENT_TOO_LARGE",
      hint: expect.stringContaining("write the file in parts"),
    });
    const after = await session.call("read_file", { path: "README.md" });
    expect(after.isError).toBe(false);
  });

  test("a burst of 1,000 concurrent calls is answered in full and the session stays alive", async () => {
    const calls = Array.from(
      { length: 1_000 },
      (_, i) =>
        i % 10 === 0
          ? session.call("read_file", { path: "../escape" })
          : session.call("read_file", { path: "README.md" }),
    );
    const results = await Promise.all(calls);
    expect(results.filter((result) => !result.isError)).toHaveLength(900);
    expect(results.every((result) => result.isError || result.body.content === "# hello\n")).toBe(true);
    expect(
      results.filter((result) => result.isError).every((result) =>
        errorOf(result.body).code === "TOOL_ARGUMENTS_INVALID"
      ),
    )
      .toBe(true);
    const after = await session.call("read_file", { path: "src/a.ts" });
    expect(after.isError).toBe(false);
  });

  test("client roots never widen access beyond --root", async () => {
    const wide = await connect(serverRuntime, ["--root", fixture.root], {
      capabilities: { roots: { listChanged: true } },
    });
    try {
      wide.client.setRequestHandler(ListRootsRequestSchema, () => ({
        roots: [{ uri: "file:///", name: "everything" }, { uri: `file://${fixture.outside}`, name: "outside" }],
      }));
      await wide.client.sendRootsListChanged();
      for (const target of ["../outside/secret.txt", path.join(fixture.outside, "secret.txt"), "file-out"]) {
        const { isError, body } = await wide.call("read_file", { path: target });
        expect(isError).toBe(true);
        expect(JSON.stringify(body)).not.toContain(OUTSIDE_SECRET);
      }
    } finally {
      await wide.close();
    }
  });

  test("no reply holds an absolute host path or a stack trace", () => {
    expect(session.replies.length).toBeGreaterThan(1_000);
    for (const reply of session.replies) {
      expect(reply).not.toContain(fixture.parent);
      expect(reply).not.toMatch(/\n\s+at /);
    }
  });
});

describe("paddock mcp options", () => {
  const on = SERVER_RUNTIMES[0];
  let fixture: DiskFixture;
  beforeAll(async () => {
    fixture = await diskFixture(["a.txt=a"]);
  });
  afterAll(() => fixture?.cleanup());

  test("--read-only hides every tool that changes something, and calling one is TOOL_NOT_FOUND", async () => {
    const session = await connect(on, ["--root", fixture.root, "--read-only"]);
    try {
      const { tools } = await session.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("read_file");
      expect(tools.map((tool) => tool.name)).not.toContain("write_file");
      expect(tools.map((tool) => tool.name)).not.toContain("node_process");
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
      const { isError, body } = await session.call("write_file", { path: "a.txt", content: "changed" });
      expect(isError).toBe(true);
      expect(errorOf(body).code).toBe("TOOL_NOT_FOUND");
      expect(fs.readFileSync(fixture.abs("a.txt"), "utf8")).toBe("a");
    } finally {
      await session.close();
    }
  });

  test("--node-process off hides node_process and keeps the file tools", async () => {
    const session = await connect(on, ["--root", fixture.root, "--node-process", "off"]);
    try {
      const names = (await session.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("write_file");
      expect(names).not.toContain("node_process");
    } finally {
      await session.close();
    }
  });

  test("there is no shell tool by default, nor in read-only mode even with --shell", async () => {
    for (const args of [[], ["--read-only", "--shell", "ask"]]) {
      const session = await connect(on, ["--root", fixture.root, ...args]);
      try {
        expect((await session.client.listTools()).tools.map((tool) => tool.name)).not.toContain("shell");
      } finally {
        await session.close();
      }
    }
  });

  test("--shell allow:PATTERN runs matching commands without asking and refuses the rest", async () => {
    const session = await connect(on, [
      "--root",
      fixture.root,
      "--shell",
      "allow:echo",
      "--shell",
      "allow:cat a.txt",
      "--unsandboxed",
    ]);
    try {
      const { tools } = await session.client.listTools();
      expect(tools.find((tool) => tool.name === "shell")?.description).toContain("'echo', 'cat a.txt'");
      const echo = await session.call("shell", { command: "echo hi" });
      expect(echo).toMatchObject({ isError: false, body: { exitCode: 0, stdout: "hi\n" } });
      const cat = await session.call("shell", { command: "cat a.txt" });
      expect(cat.body.stdout).toBe("a");
      const other = await session.call("shell", { command: "rm a.txt" });
      expect(other.isError).toBe(true);
      expect(errorOf(other.body).code).toBe("SHELL_COMMAND_NOT_ALLOWED");
      const chained = await session.call("shell", { command: "echo hi; rm a.txt" });
      expect(errorOf(chained.body).code).toBe("SHELL_COMMAND_NOT_ALLOWED");
      expect(fs.readFileSync(fixture.abs("a.txt"), "utf8")).toBe("a");
    } finally {
      await session.close();
    }
  });

  test("--shell ask refuses with APPROVAL_UNAVAILABLE when the client cannot elicit", async () => {
    const session = await connect(on, ["--root", fixture.root, "--shell", "ask", "--unsandboxed"]);
    try {
      const { isError, body } = await session.call("shell", { command: "echo hi > made.txt" });
      expect(isError).toBe(true);
      expect(errorOf(body).code).toBe("APPROVAL_UNAVAILABLE");
      expect(fs.existsSync(fixture.abs("made.txt"))).toBe(false);
    } finally {
      await session.close();
    }
  });

  test("--shell ask puts each command to the person through elicitation: approved runs, declined does not", async () => {
    const session = await connect(on, ["--root", fixture.root, "--shell", "ask", "--unsandboxed"], {
      capabilities: { elicitation: { form: {} } },
    });
    const asked: string[] = [];
    session.client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      const approve = request.params.message.includes("approved.txt");
      return { action: "accept", content: { approve } };
    });
    try {
      const approved = await session.call("shell", { command: "echo yes > approved.txt" });
      expect(approved.isError).toBe(false);
      expect(fs.readFileSync(fixture.abs("approved.txt"), "utf8")).toBe("yes\n");
      const declined = await session.call("shell", { command: "echo no > declined.txt" });
      expect(declined.isError).toBe(true);
      expect(errorOf(declined.body).code).toBe("TOOL_CALL_DENIED");
      expect(fs.existsSync(fixture.abs("declined.txt"))).toBe(false);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toContain("echo yes > approved.txt");
    } finally {
      await session.close();
    }
  });

  test("stdout carries only protocol messages, a line that is not JSON gets a parse error, and the server exits 0 when stdin closes", async () => {
    const { command, args } = paddockCommand(on, ["mcp", "--root", fixture.root]);
    const child = spawn(command, args, { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Uint8Array) => (stdout += new TextDecoder().decode(chunk)));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const send = (message: unknown) => child.stdin.write(JSON.stringify(message) + "\n");
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    child.stdin.write("this is not json\n");
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "read_file", arguments: { path: "a.txt" } } });
    // Wait for the answer to the call, then close stdin.
    await expect.poll(() => stdout.includes('"id":2'), { timeout: 15_000 }).toBe(true);
    child.stdin.end();
    expect(await exited).toBe(0);
    const messages = stdout.trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages.every((message) => message.jsonrpc === "2.0")).toBe(true);
    expect(messages.find((message) => message.id === null)).toMatchObject({ error: { code: -32700 } });
    expect(messages.find((message) => message.id === 2)).toMatchObject({
      result: { isError: false, content: [{ type: "text", text: '{"path":"a.txt","content":"a","bytes":1}' }] },
    });
  });
});

describe("approval through MCP elicitation", () => {
  let fixture: DiskFixture;
  beforeAll(async () => {
    fixture = await diskFixture([]);
  });
  afterAll(() => fixture?.cleanup());

  /** A tool that needs approval and records each run. */
  function guardedTool(runs: string[]) {
    return {
      ...defineTool({
        name: "launch",
        description: "Needs approval",
        readOnly: false,
        schema: z.object({ target: z.string() }).strict(),
        prepare: (args) => args,
        run: (input) => {
          runs.push(input.target);
          return Promise.resolve({ launched: input.target });
        },
      }),
      needsApproval: true,
    };
  }

  async function connectInMemory(runs: string[], capabilities: Record<string, unknown>) {
    const { server } = await createPaddockMcpServer({ root: fixture.workspace, tools: [guardedTool(runs)] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "t", version: "1" }, { capabilities });
    await client.connect(clientSide);
    return client;
  }

  const errorCode = (result: Record<string, unknown>) =>
    (JSON.parse((result.content as { text: string }[])[0].text) as { error?: { code: string } }).error?.code;

  test("a client without elicitation is refused with APPROVAL_UNAVAILABLE and nothing runs", async () => {
    const runs: string[] = [];
    const client = await connectInMemory(runs, {});
    const result = await client.callTool({ name: "launch", arguments: { target: "moon" } });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe("APPROVAL_UNAVAILABLE");
    expect(runs).toEqual([]);
    await client.close();
  });

  test("the person approves through elicitation and the call runs; declining gives TOOL_CALL_DENIED", async () => {
    const runs: string[] = [];
    const client = await connectInMemory(runs, { elicitation: { form: {} } });
    const asked: string[] = [];
    let answer = true;
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { approve: answer } };
    });
    const approved = await client.callTool({ name: "launch", arguments: { target: "moon" } });
    expect(approved.isError).toBe(false);
    answer = false;
    const declined = await client.callTool({ name: "launch", arguments: { target: "mars" } });
    expect(declined.isError).toBe(true);
    expect(errorCode(declined)).toBe("TOOL_CALL_DENIED");
    expect(runs).toEqual(["moon"]);
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain("moon");
    await client.close();
  });

  test("invalid arguments are reported before anyone is asked", async () => {
    const runs: string[] = [];
    const client = await connectInMemory(runs, { elicitation: { form: {} } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, () => {
      asked++;
      return { action: "accept", content: { approve: true } };
    });
    const result = await client.callTool({ name: "launch", arguments: { target: 1 } });
    expect(errorCode(result)).toBe("TOOL_ARGUMENTS_INVALID");
    expect(asked).toBe(0);
    await client.close();
  });
});

describe("backpressure", () => {
  test("pauses the input while too many calls wait, resumes it as they drain, and answers every call", async () => {
    const fixture = await diskFixture([]);
    try {
      const { tool: slow, release } = gatedTool("slow");
      const events: string[] = [];
      const { server } = await createPaddockMcpServer({
        root: fixture.workspace,
        tools: [slow],
        maxConcurrentCalls: 2,
        maxQueuedCalls: 4,
        flowControl: { pause: () => events.push("pause"), resume: () => events.push("resume") },
      });
      const client = await inMemoryClient(server);
      const calls = Array.from({ length: 20 }, (_, n) => client.callTool({ name: "slow", arguments: { n } }));
      await expect.poll(() => events.length).toBeGreaterThan(0);
      expect(events).toEqual(["pause"]);
      release();
      const results = await Promise.all(calls);
      expect(results.map((result) => result.structuredContent)).toEqual(Array.from({ length: 20 }, (_, n) => ({ n })));
      expect(events).toEqual(["pause", "resume"]);
      await client.close();
    } finally {
      fixture.cleanup();
    }
  });
});
