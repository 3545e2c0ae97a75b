import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  createNodeProcessTool,
  executeToolCall,
  type NodeProcessOutput,
  ToolRegistry,
  WorkspaceError,
} from "../mod.ts";
import {
  NODE_PROCESS_MAX_ARGUMENT_BYTES,
  NODE_PROCESS_MAX_ARGUMENTS,
  NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES,
  NODE_PROCESS_MAX_OUTPUT_BYTES,
  NODE_PROCESS_MAX_SOURCE_BYTES,
} from "../src/core/limits.ts";
import { type DiskFixture, diskFixture, leftovers } from "./helpers/fixture.ts";
import { onBun, onDeno, skipNote } from "./helpers/runtime.ts";
import { deleteEnv, isAlive, rejection, setEnv, sleep, waitFor } from "./helpers/process.ts";
import { unopened } from "./helpers/unopened.ts";

// The machine running the suite may be busy; only the timeout tests use the
// real 500 ms default, everything else gets room to start the runtime.
const ROOMY = { timeoutMs: 15_000 };

let fixture: DiskFixture | undefined;
afterEach(() => {
  if (fixture) {
    expect(leftovers(fixture.root)).toEqual([]);
    fixture.cleanup();
    fixture = undefined;
  }
});

async function setup(tree: string[] = []): Promise<DiskFixture> {
  fixture = await diskFixture(tree);
  return fixture;
}

function runtimeExecPath(): string {
  return onDeno ? (globalThis as unknown as { Deno: { execPath(): string } }).Deno.execPath() : process.execPath;
}

// Bun has no permission model: node_process runs there only with permissions: "inherit".
const PERMISSIONS = onBun ? { permissions: "inherit" as const } : {};

describe("node_process", () => {
  test("runs the seed script: exact argv, cwd (the canonical root), execPath and stderr under default permissions", async () => {
    const { workspace } = await setup();
    // Default permissions, roomy timeout: a loaded CI machine has taken over 500 ms to start Deno.
    const tool = createNodeProcessTool(workspace, { ...ROOMY, ...PERMISSIONS });
    const result = await tool.execute({
      source:
        "console.log(JSON.stringify({execPath: process.execPath, args: process.argv.slice(1), cwd: process.cwd()})); process.stderr.write('diagnostic')",
      arguments: ["alpha", "two words"],
    });
    expect(result.exitCode).toBe(0);
    expect(result.signal).toBeNull();
    expect(result.stderr).toBe("diagnostic");
    expect(result.timedOut).toBe(false);
    expect(result.stdoutTruncated).toBe(false);
    expect(result.stderrTruncated).toBe(false);
    const printed = JSON.parse(result.stdout);
    expect(printed.execPath).toBe(runtimeExecPath());
    expect(printed.args).toEqual(["alpha", "two words"]);
    expect(printed.cwd).toBe(workspace.root); // the seed's contract: the script runs in the canonical root
  });

  test("passes awkward arguments through exactly", async () => {
    const { workspace } = await setup();
    const tool = createNodeProcessTool(workspace, { ...ROOMY, ...PERMISSIONS });
    const args = [
      "",
      " ",
      "a b",
      '"quoted"',
      "it's",
      "back\\slash\\",
      "tab\there",
      "naïve 日本語 🎉",
      "--flag",
      "-e",
      "$HOME",
      "`x`",
      "a\nb",
    ];
    while (args.length < NODE_PROCESS_MAX_ARGUMENTS) args.push(`arg${args.length}`);
    const result = await tool.execute({
      source: "console.log(JSON.stringify(process.argv.slice(1)))",
      arguments: args,
    });
    expect(JSON.parse(result.stdout)).toEqual(args);
  });

  test("reports a non-zero exit as data", async () => {
    const { workspace } = await setup();
    const result = await createNodeProcessTool(workspace, { ...ROOMY, ...PERMISSIONS }).execute({
      source: "console.log('partial'); process.exit(3)",
    });
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: "partial\n", timedOut: false });
  });

  test("kills an endless loop at the time limit with NODE_PROCESS_TIMEOUT", async () => {
    const { workspace } = await setup();
    const tool = createNodeProcessTool(workspace, { timeoutMs: 500, ...PERMISSIONS });
    const error = await rejection(tool.execute({ source: "for (;;) {}" }));
    expect(error).toBeInstanceOf(WorkspaceError);
    expect((error as WorkspaceError).code).toBe("NODE_PROCESS_TIMEOUT");
  });

  test("reports the timeout as a recoverable result through executeToolCall", async () => {
    const { workspace } = await setup();
    const registry = new ToolRegistry([createNodeProcessTool(workspace, PERMISSIONS)]);
    const result = await executeToolCall(registry, {
      id: "t",
      name: "node_process",
      arguments: { source: "for(;;){}" },
    });
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content).error.code).toBe("NODE_PROCESS_TIMEOUT");
  });

  test("rejects with an AbortError when aborted before the run, creating nothing", async () => {
    const { workspace, root } = await setup();
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(
      createNodeProcessTool(workspace, PERMISSIONS).execute({ source: "require('fs').writeFileSync('x', '1')" }, {
        signal: controller.signal,
      }),
    );
    expect((error as Error).name).toBe("AbortError");
    expect(fs.readdirSync(root)).toEqual([]);
  });

  test("rejects with an AbortError when aborted during the run and kills the process", async () => {
    const { workspace, root } = await setup();
    const controller = new AbortController();
    const tool = createNodeProcessTool(workspace, { ...ROOMY, ...PERMISSIONS });
    const running = tool.execute(
      {
        source:
          "require('fs').writeFileSync('started', ''); setInterval(() => require('fs').appendFileSync('ticks', 'x'), 20)",
      },
      { signal: controller.signal },
    );
    await waitFor(() => fs.existsSync(path.join(root, "started")));
    controller.abort();
    const error = await rejection(running);
    expect((error as Error).name).toBe("AbortError");
    const ticks = fs.existsSync(path.join(root, "ticks"))
      ? fs.readFileSync(path.join(root, "ticks"), "utf8").length
      : 0;
    await sleep(200);
    const later = fs.existsSync(path.join(root, "ticks"))
      ? fs.readFileSync(path.join(root, "ticks"), "utf8").length
      : 0;
    expect(later).toBe(ticks);
  });

  test("bounds a script flooding stdout and ends promptly at the time limit", async () => {
    const { workspace } = await setup();
    const tool = createNodeProcessTool(workspace, { timeoutMs: 1_500, ...PERMISSIONS });
    const result = await tool.execute({
      source: "const s = 'x'.repeat(65536); let n = 0; while (n < 2000) { process.stdout.write(s); n++ }",
    }).catch((error: WorkspaceError) => error);
    if (result instanceof WorkspaceError) {
      expect(result.code).toBe("NODE_PROCESS_TIMEOUT");
    } else {
      const output = result as NodeProcessOutput;
      expect(output.stdoutTruncated).toBe(true);
      expect(output.stdout.length).toBe(NODE_PROCESS_MAX_OUTPUT_BYTES);
      expect(output.stderrTruncated).toBe(false);
    }
  });

  test("keeps exactly the output limit and cuts a straddling multi-byte character whole", async () => {
    const { workspace } = await setup();
    const tool = createNodeProcessTool(workspace, { ...ROOMY, ...PERMISSIONS });
    const limit = NODE_PROCESS_MAX_OUTPUT_BYTES;
    const exact = await tool.execute({ source: `process.stdout.write('a'.repeat(${limit}))` });
    expect(exact.stdout.length).toBe(limit);
    expect(exact.stdoutTruncated).toBe(false);
    const over = await tool.execute({ source: `process.stdout.write('a'.repeat(${limit + 1}))` });
    expect(over.stdout.length).toBe(limit);
    expect(over.stdoutTruncated).toBe(true);
    // 'é' is two bytes: it straddles the cut and is dropped whole.
    const straddle = await tool.execute({ source: `process.stderr.write('a'.repeat(${limit - 1}) + 'é' + 'b')` });
    expect(straddle.stderr).toBe("a".repeat(limit - 1));
    expect(straddle.stderrTruncated).toBe(true);
    expect(straddle.stdoutTruncated).toBe(false);
  });

  test("kills a grandchild that holds the pipes open", async () => {
    // Under default permissions the script cannot spawn; run unconfined to make a grandchild.
    const { workspace, root } = await setup();
    const tool = createNodeProcessTool(workspace, { ...ROOMY, permissions: "inherit" });
    // Had the call waited for the grandchild's `sleep 30`, the test's 10 s bound would end it.
    const result = await tool.execute({
      source: `const cp = require('child_process');
        const child = cp.spawn('sh', ['-c', 'echo $$ > grandchild.pid; exec sleep 30'], { stdio: ['ignore', 'inherit', 'inherit'] });
        child.unref();
        setTimeout(() => process.exit(0), 300);`,
    });
    expect(result.exitCode).toBe(0);
    const pid = Number(fs.readFileSync(path.join(root, "grandchild.pid"), "utf8"));
    await waitFor(() => !isAlive(pid));
    expect(isAlive(pid)).toBe(false);
  }, 10_000);

  test("removes its temp script after every run", async () => {
    const { workspace, root } = await setup(["keep.txt"]);
    const tool = createNodeProcessTool(workspace, { ...ROOMY, ...PERMISSIONS });
    await tool.execute({ source: "console.log(require('fs').readdirSync('.').length)" });
    await tool.execute({ source: "throw new Error('boom')" });
    expect(fs.readdirSync(root)).toEqual(["keep.txt"]);
  });

  test("does not pass a parent environment secret to the child", async () => {
    const { workspace } = await setup();
    setEnv("PADDOCK_TEST_SECRET", "sk-live-should-not-leak");
    try {
      const tool = createNodeProcessTool(workspace, { ...ROOMY, permissions: "inherit" });
      const result = await tool.execute({ source: "console.log(JSON.stringify(process.env))" });
      expect(result.stdout).not.toContain("sk-live-should-not-leak");
      expect(JSON.parse(result.stdout).PADDOCK_TEST_SECRET).toBeUndefined();
    } finally {
      deleteEnv("PADDOCK_TEST_SECRET");
    }
  });

  test("passes variables named in inheritEnv and given in env", async () => {
    const { root } = await setup();
    setEnv("PADDOCK_TEST_SHARED", "shared-value");
    try {
      const { openWorkspace } = await import("../mod.ts");
      const workspace = await openWorkspace(root, { inheritEnv: ["PADDOCK_TEST_SHARED"], env: { EXTRA: "given" } });
      const tool = createNodeProcessTool(workspace, { ...ROOMY, permissions: "inherit" });
      const result = await tool.execute({
        source: "console.log(process.env.PADDOCK_TEST_SHARED + ' ' + process.env.EXTRA)",
      });
      expect(result.stdout).toBe("shared-value given\n");
    } finally {
      deleteEnv("PADDOCK_TEST_SHARED");
    }
  });
});

describe.skipIf(onBun)(`node_process permissions: "workspace"${skipNote(onBun, "Bun has no permission model")}`, () => {
  test("a script cannot read a file outside the workspace", async () => {
    const { workspace, outside } = await setup();
    const result = await createNodeProcessTool(workspace, ROOMY).execute({
      source:
        "try { console.log(require('fs').readFileSync(process.argv[1], 'utf8')) } catch (e) { console.log('DENIED'); process.exit(7) }",
      arguments: [path.join(outside, "secret.txt")],
    });
    expect(result.stdout).toBe("DENIED\n");
    expect(result.exitCode).toBe(7);
  });

  test("a script cannot write outside the workspace", async () => {
    const { workspace, outside } = await setup();
    const target = path.join(outside, "planted.txt");
    const result = await createNodeProcessTool(workspace, ROOMY).execute({
      source: "try { require('fs').writeFileSync(process.argv[1], 'x') } catch { process.exit(7) }",
      arguments: [target],
    });
    expect(result.exitCode).toBe(7);
    expect(fs.existsSync(target)).toBe(false);
  });

  test("a script can read and write inside the workspace", async () => {
    const { workspace, root } = await setup(["in.txt=hello"]);
    const result = await createNodeProcessTool(workspace, ROOMY).execute({
      source: "const fs = require('fs'); fs.writeFileSync('out.txt', fs.readFileSync('in.txt', 'utf8') + '!')",
    });
    expect(result.exitCode).toBe(0);
    expect(fs.readFileSync(path.join(root, "out.txt"), "utf8")).toBe("hello!");
  });

  test("a script cannot spawn a child process", async () => {
    const { workspace, root } = await setup();
    const result = await createNodeProcessTool(workspace, ROOMY).execute({
      source:
        "try { require('child_process').execFileSync('sh', ['-c', 'touch spawned']); console.log('SPAWNED') } catch { console.log('DENIED') }",
    });
    expect(result.stdout).toBe("DENIED\n");
    expect(fs.existsSync(path.join(root, "spawned"))).toBe(false);
  });

  test.runIf(onDeno)(
    `under Deno a script has no env or net access${skipNote(!onDeno, "about Deno's permissions only")}`,
    async () => {
      const { workspace } = await setup();
      const result = await createNodeProcessTool(workspace, ROOMY).execute({
        source: `const out = [];
        try { out.push(Object.keys(process.env).length > 0 ? 'ENV' : 'EMPTY') } catch { out.push('NOENV') }
        require('net').connect(9, '127.0.0.1').on('error', (e) => { out.push(/NotCapable|PermissionDenied|Requires net/.test(String(e) + e.name) ? 'NONET' : 'NET:' + e.code); console.log(out.join(' ')) })
          .on('connect', () => { console.log(out.join(' ') + ' CONNECTED') });`,
      }).catch((error) => error);
      const text = result instanceof WorkspaceError
        ? ""
        : (result as NodeProcessOutput).stdout + (result as NodeProcessOutput).stderr;
      expect(text).toMatch(/NOENV|NotCapable|Requires env/);
      expect(text).not.toContain("CONNECTED");
    },
  );
});

describe("node_process argument limits", () => {
  const registry = () => new ToolRegistry([createNodeProcessTool(unopened())]);
  const reason = async (args: unknown) => {
    const result = await executeToolCall(registry(), { id: "x", name: "node_process", arguments: args });
    expect(result.isError).toBe(true);
    return JSON.parse(result.content).error;
  };
  const one = "a".repeat(NODE_PROCESS_MAX_ARGUMENT_BYTES);

  test.each([
    ["source one byte over", { source: "x".repeat(NODE_PROCESS_MAX_SOURCE_BYTES + 1) }, "SOURCE_TOO_LARGE"],
    [
      "source over in multi-byte characters",
      { source: "é".repeat(NODE_PROCESS_MAX_SOURCE_BYTES / 2 + 1) },
      "SOURCE_TOO_LARGE",
    ],
    [
      "one argument too many",
      { source: "", arguments: Array(NODE_PROCESS_MAX_ARGUMENTS + 1).fill("a") },
      "TOO_MANY_ARGUMENTS",
    ],
    ["one argument one byte over", { source: "", arguments: [one + "a"] }, "ARGUMENT_TOO_LARGE"],
    [
      "all arguments one byte over",
      { source: "", arguments: [one, one, one, one, "a"] },
      "ARGUMENTS_TOO_LARGE",
    ],
    ["a NUL in an argument", { source: "", arguments: ["a\0b"] }, "INVALID_ARGUMENTS"],
    ["arguments not an array", { source: "", arguments: "a b" }, "INVALID_ARGUMENTS"],
    ["an argument not a string", { source: "", arguments: [1] }, "INVALID_ARGUMENTS"],
  ])("refuses %s before running anything", async (_name, args, code) => {
    expect(await reason(args)).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: code });
  });

  test("accepts every limit exactly at the boundary", () => {
    const tool = createNodeProcessTool(unopened());
    expect(() => tool.validate({ source: "x".repeat(NODE_PROCESS_MAX_SOURCE_BYTES) })).not.toThrow();
    expect(() => tool.validate({ source: "", arguments: Array(NODE_PROCESS_MAX_ARGUMENTS).fill("a") })).not.toThrow();
    expect(() => tool.validate({ source: "", arguments: [one, one, one, one] })).not.toThrow();
    expect(NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES).toBe(4 * NODE_PROCESS_MAX_ARGUMENT_BYTES);
  });

  test("bounds the Windows command line after quoting, exactly at the limit", () => {
    // Each argument `""` quotes to `"\"\""` (6 units) …
    const tool = createNodeProcessTool(unopened(), {
      maxArgumentsTotalBytes: 100_000,
      maxArgumentBytes: 100_000,
      maxWindowsCommandLine: 1_000,
    });
    // One argument of n quotes is quoted as '"' + '\\"' * n + '"': 2n + 2 units.
    expect(() => tool.validate({ source: "", arguments: ['"'.repeat(499)] })).not.toThrow(); // 1000
    expect(() => tool.validate({ source: "", arguments: ['"'.repeat(500)] })).toThrow(
      expect.objectContaining({ code: "COMMAND_LINE_TOO_LONG" }),
    );
  });
});

describe.runIf(onBun)(`node_process under Bun (no permission model)${skipNote(!onBun, "about Bun only")}`, () => {
  test('refuses permissions: "workspace" with NODE_PROCESS_PERMISSIONS_UNAVAILABLE and runs nothing', async () => {
    const { workspace, root } = await setup();
    const error = await rejection(
      createNodeProcessTool(workspace).execute({ source: "require('fs').writeFileSync('ran', '')" }),
    );
    expect((error as WorkspaceError).code).toBe("NODE_PROCESS_PERMISSIONS_UNAVAILABLE");
    expect(fs.readdirSync(root)).toEqual([]);
  });
});
