// Seed 004 (a book chapter: read / write / bash and the four gates) has no import lines;
// its system is createWorkspaceTools(root). This table pins the behaviour the chapter
// states, on Paddock's confined core.
import {
  BASH_MAX_BUFFER_BYTES,
  BASH_TIMEOUT_MS,
  createWorkspaceTools,
  denyBashByDefault,
  executeToolCall,
  MAX_READ_CHARS,
  ToolRegistry,
  type WorkspaceTool,
} from "@paddock/tools";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { HOSTILE_PATHS } from "../cases/hostile_paths.ts";
import { SYMLINK_CASES, SYMLINK_TREE } from "../cases/symlink_fixtures.ts";
import { type DiskFixture, diskFixture, OUTSIDE_SECRET } from "../helpers/fixture.ts";
import { deleteEnv, setEnv } from "../helpers/process.ts";

let fx: DiskFixture | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
  deleteEnv("SHELL");
});
async function tools(
  tree: readonly string[] = [],
): Promise<{ read: WorkspaceTool; write: WorkspaceTool; bash: WorkspaceTool }> {
  fx = await diskFixture(tree);
  const [read, write, bash] = createWorkspaceTools(fx.root);
  return { read, write, bash };
}
const head = "h".repeat(8_000);
const tail = "t".repeat(8_000);

describe("createWorkspaceTools: read", () => {
  test.each([
    ["empty", "", ""],
    ["16,000 characters, whole", "x".repeat(16_000), "x".repeat(16_000)],
    ["16,001 characters: head, marker for 1, tail", `${head}m${tail}`, `${head}\n[truncated 1 characters]\n${tail}`],
    [
      "18,000 characters: 2,000 cut",
      `${head}${"m".repeat(2_000)}${tail}`,
      `${head}\n[truncated 2000 characters]\n${tail}`,
    ],
    ["100,000 lines", `${head}${"line\n".repeat(100_000)}${tail}`, `${head}\n[truncated 500000 characters]\n${tail}`],
  ])("%s", async (_name, content, expected) => {
    const { read } = await tools();
    fs.writeFileSync(fx!.abs("f.txt"), content);
    expect(await read.execute({ path: "f.txt" })).toEqual({ content: expected });
  });

  test("counts characters, not bytes (MAX_READ_CHARS = 16,000)", async () => {
    expect(MAX_READ_CHARS).toBe(16_000);
    const { read } = await tools();
    fs.writeFileSync(fx!.abs("wide.txt"), "é".repeat(16_000));
    expect((await read.execute({ path: "wide.txt" })).content).toBe("é".repeat(16_000));
  });
});

describe("createWorkspaceTools: write", () => {
  test("creates missing folders and writes the content; an empty content is a valid (empty) file", async () => {
    const { write, read } = await tools();
    expect(await write.execute({ path: "nested/deeper/a.txt", content: "hi\n" })).toEqual({
      content: "Wrote 3 bytes to nested/deeper/a.txt",
    });
    expect(fs.readFileSync(fx!.abs("nested/deeper/a.txt"), "utf8")).toBe("hi\n");
    expect(await write.execute({ path: "empty.txt", content: "" })).toEqual({ content: "Wrote 0 bytes to empty.txt" });
    expect(await read.execute({ path: "empty.txt" })).toEqual({ content: "" });
  });
});

describe("createWorkspaceTools: input errors (stringField)", () => {
  test.each([
    ["read", undefined, "invalid read input: path must be a string"],
    ["read", null, "invalid read input: path must be a string"],
    ["read", ["a.txt"], "invalid read input: path must be a string"],
    ["read", { path: 1 }, "invalid read input: path must be a string"],
    ["write", { path: "a.txt" }, "invalid write input: path and content must be strings"],
    ["write", { path: "a.txt", content: 1 }, "invalid write input: path and content must be strings"],
    ["write", "a.txt", "invalid write input: path and content must be strings"],
    ["bash", {}, "invalid bash input: command must be a string"],
    ["bash", { command: ["ls"] }, "invalid bash input: command must be a string"],
  ])("%s(%j) → %s", async (name, input, text) => {
    const all = await tools();
    const tool = all[name as keyof typeof all];
    expect(await tool.execute(input)).toEqual({ content: text, isError: true });
  });
});

describe("createWorkspaceTools: bash", () => {
  test("runs in the canonical workspace root and returns stdout then stderr", async () => {
    const { bash } = await tools();
    expect(await bash.execute({ command: "pwd -P; echo err >&2" })).toEqual({ content: `${fx!.root}\nerr\n` });
  });

  test.each([
    ["$SHELL when set", "/bin/bash", "/bin/bash"],
    ["/bin/sh when $SHELL is unset", undefined, "/bin/sh"],
  ])("runs %s", async (_name, shell, expected) => {
    if (shell === undefined) deleteEnv("SHELL");
    else setEnv("SHELL", shell);
    const { bash } = await tools();
    // $0 is the program the command line runs in.
    expect(await bash.execute({ command: 'echo "$0"' })).toEqual({ content: `${expected}\n` });
    expect(await bash.execute({ command: "exit 3" })).toEqual({
      content: `Command failed: ${expected} -c exit 3\n`,
      isError: true,
    });
  });

  test("a non-zero exit is a failure carrying stderr", async () => {
    setEnv("SHELL", "/bin/sh");
    const { bash } = await tools();
    expect(await bash.execute({ command: "echo out; echo boom >&2; exit 1" })).toEqual({
      content: "Command failed: /bin/sh -c echo out; echo boom >&2; exit 1\nboom\n",
      isError: true,
    });
  });

  test("the time limit is 10 s: a longer command is killed and reported", async () => {
    expect(BASH_TIMEOUT_MS).toBe(10_000);
    setEnv("SHELL", "/bin/sh");
    const { bash } = await tools();
    // The result says the 10 s limit ended it; had it waited for the `sleep 30`, the test's 20 s bound would fail it.
    const result = await bash.execute({ command: "sleep 30" });
    expect(result).toEqual({ content: "Command timed out after 10000 ms: /bin/sh -c sleep 30\n", isError: true });
  }, 20_000);

  test.each([
    ["stdout at the buffer size passes", `head -c ${64 * 1024} /dev/zero | tr '\\0' a`, {
      content: "a".repeat(65_536),
    }],
    ["stdout one byte over is a failure", `head -c ${64 * 1024 + 1} /dev/zero | tr '\\0' a`, {
      content: "stdout maxBuffer length exceeded",
      isError: true,
    }],
    ["stderr one byte over is a failure", `head -c ${64 * 1024 + 1} /dev/zero | tr '\\0' a >&2`, {
      content: "stderr maxBuffer length exceeded",
      isError: true,
    }],
    [
      "stdout and stderr together are cut to 64 KiB",
      `head -c 40000 /dev/zero | tr '\\0' a; head -c 40000 /dev/zero | tr '\\0' b >&2`,
      {
        content: "a".repeat(40_000) + "b".repeat(65_536 - 40_000),
      },
    ],
  ])("the buffer is 64 KiB: %s", async (_name, command, expected) => {
    expect(BASH_MAX_BUFFER_BYTES).toBe(65_536);
    const { bash } = await tools();
    expect(await bash.execute({ command })).toEqual(expected);
  });

  test("an abort kills the command and comes back as a failure, as the seed's execFile does", async () => {
    const { bash } = await tools();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    expect(await bash.execute({ command: "sleep 30" }, controller.signal)).toEqual({
      content: "The operation was aborted",
      isError: true,
    });
  });
});

describe("createWorkspaceTools: the path boundary", () => {
  test.each(HOSTILE_PATHS.map((row) => [row.name, row] as const))(
    "hostile path refused before any I/O: %s",
    async (_name, row) => {
      const { read, write } = await tools();
      const before = fx!.listAll();
      for (
        const result of [await read.execute({ path: row.path }), await write.execute({ path: row.path, content: "x" })]
      ) {
        expect(result.isError).toBe(true);
        expect(result.content).toMatch(
          row.code === "INVALID_RELATIVE_PATH" ? /^path escapes workspace: / : /longer than/,
        );
      }
      expect(fx!.listAll()).toEqual(before);
    },
  );

  test("the seed's own cases: /etc/passwd, a similar prefix, an escaping folder link", async () => {
    const { read, write } = await tools(["escape => @outside", "src/a.ts=export {};"]);
    const similar = `${fx!.root}-other/x`;
    for (const p of ["/etc/passwd", similar, "escape/secret.txt", "escape/new.txt"]) {
      expect((await read.execute({ path: p })).content).toMatch(/^path escapes workspace: /);
      expect((await write.execute({ path: p, content: "x" })).content).toMatch(/^path escapes workspace: /);
    }
    expect(await read.execute({ path: "src/a.ts" })).toEqual({ content: "export {};" });
    expect(fs.existsSync(path.join(fx!.outside, "new.txt"))).toBe(false);
  });

  test.each(SYMLINK_CASES.map((row) => [row.name, row] as const))("symlink fixture: %s", async (_name, row) => {
    const { read, write } = await tools(SYMLINK_TREE);
    const readResult = await read.execute({ path: row.path });
    const writeResult = await write.execute({ path: row.path, content: "changed" });
    if (row.read === null) expect(readResult).toEqual({ content: "inside" });
    else expect(readResult.isError).toBe(true);
    if (row.write === null) expect(writeResult.isError).toBeUndefined();
    else expect(writeResult.isError).toBe(true);
    if (row.read === "PATH_ESCAPES_WORKSPACE") expect(readResult.content).toMatch(/^path escapes workspace: /);
    expect(fs.readFileSync(path.join(fx!.outside, "secret.txt"), "utf8")).toBe(OUTSIDE_SECRET);
    expect(fs.readdirSync(fx!.outside)).toEqual(["secret.txt"]);
  });
});

describe("createWorkspaceTools: the call layer", () => {
  test("denyBashByDefault refuses bash with the seed's reason; read and write run", async () => {
    const all = await tools(["a.txt=hello"]);
    const registry = new ToolRegistry(Object.values(all));
    const options = { beforeToolCall: denyBashByDefault() };
    const bash = await executeToolCall(
      registry,
      { id: "1", name: "bash", arguments: { command: "touch ran" } },
      undefined,
      options,
    );
    expect(bash.isError).toBe(true);
    expect(JSON.parse(bash.content).error).toMatchObject({
      code: "TOOL_CALL_DENIED",
      message: "Cannot call 'bash': bash requires an explicit approval policy",
    });
    expect(fs.existsSync(fx!.abs("ran"))).toBe(false);
    const read = await executeToolCall(
      registry,
      { id: "2", name: "read", arguments: { path: "a.txt" } },
      undefined,
      options,
    );
    expect(read).toMatchObject({ isError: false, content: JSON.stringify({ content: "hello" }) });
    const bad = await executeToolCall(
      registry,
      { id: "3", name: "write", arguments: { path: "a.txt" } },
      undefined,
      options,
    );
    expect(JSON.parse(bad.content).error).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "INVALID_ARGUMENTS",
      hint: "invalid write input: path and content must be strings",
    });
  });

  test("each tool has the seed's spec: properties, required, additionalProperties: false", async () => {
    const { write } = await tools();
    expect(write.spec).toEqual({
      name: "write",
      description: expect.any(String),
      inputSchema: {
        type: "object",
        properties: { path: { type: "string" }, content: { type: "string" } },
        required: ["path", "content"],
        additionalProperties: false,
      },
    });
  });
});
