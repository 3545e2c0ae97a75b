import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  createCodingTools,
  createShellTool,
  executeToolCall,
  normalizeWorkspacePath,
  openWorkspace,
  type ShellInput,
  type ShellOutput,
  toErrorBody,
  ToolRegistry,
  Workspace,
  WorkspaceError,
  type WorkspaceSource,
} from "../mod.ts";
import type { Host, ShellExecOptions, ShellExecRequest, ShellExecResult, ShellProvider } from "../host.ts";
import { SHELL_MAX_COMMAND_BYTES, SHELL_MAX_TIMEOUT_MS, SHELL_TIMEOUT_MS } from "../src/core/limits.ts";
import { shellArgv } from "../src/core/process/host_shell_provider.ts";
import { MemoryWorkspace } from "../testing.ts";
import { type DiskFixture, diskFixture, hasProgram } from "./helpers/fixture.ts";
import { deleteEnv, isAlive, killQuietly, rejection, setEnv, waitFor } from "./helpers/process.ts";
import { skipNote } from "./helpers/runtime.ts";
import { unopened } from "./helpers/unopened.ts";

// The machine running the suite may be busy: generous limits for commands
// that should finish, short ones only where a timeout is the point.
const ROOMY = { needsApproval: false, defaultTimeoutMs: 15_000 };

let fixture: DiskFixture | undefined;
const strays: number[] = [];
afterEach(() => {
  for (const pid of strays.splice(0)) killQuietly(pid);
  fixture?.cleanup();
  fixture = undefined;
});

async function setup(tree: string[] = []): Promise<DiskFixture> {
  fixture = await diskFixture(tree);
  return fixture;
}

function readPid(root: string, name: string): number {
  const pid = Number(fs.readFileSync(path.join(root, name), "utf8").trim());
  expect(pid).toBeGreaterThan(1);
  return pid;
}

describe("shell: execution on the host", () => {
  test("reports the exit code, stdout and stderr as data", async () => {
    const { workspace } = await setup();
    const result = await createShellTool(workspace, ROOMY).execute({ command: "echo out; echo err >&2; exit 7" });
    expect(result).toEqual({
      exitCode: 7,
      signal: null,
      stdout: "out\n",
      stderr: "err\n",
      stdoutTruncated: false,
      stderrTruncated: false,
      outputId: expect.stringMatching(/^p\d+$/),
    });
  });

  test("a failing command is a successful tool call: the model sees the exit code", async () => {
    const { workspace } = await setup();
    const registry = new ToolRegistry([createShellTool(workspace, ROOMY)]);
    const result = await executeToolCall(registry, { id: "1", name: "shell", arguments: { command: "false" } });
    expect(result.isError).toBe(false);
    expect(JSON.parse(result.content)).toMatchObject({ exitCode: 1, stdout: "", stderr: "" });
  });

  test("runs in the workspace's canonical root, even when opened through a link", async () => {
    const { parent, root } = await setup(["marker.txt=here"]);
    fs.symlinkSync(root, path.join(parent, "via-link"));
    const workspace = await openWorkspace(path.join(parent, "via-link"));
    const result = await createShellTool(workspace, ROOMY).execute({ command: "pwd; pwd -P; cat marker.txt" });
    const canonical = fs.realpathSync(root);
    expect(result.stdout).toBe(`${canonical}\n${canonical}\nhere`);
  });

  test("closes stdin: a command reading it sees end of input at once", async () => {
    const { workspace } = await setup();
    const result = await createShellTool(workspace, ROOMY).execute({ command: 'cat; read line; echo "read=$?"' });
    expect(result.stdout).toBe("read=1\n");
    expect(result.exitCode).toBe(0);
  });

  test("does not pass a parent environment secret to the command", async () => {
    const { workspace } = await setup();
    setEnv("PADDOCK_SHELL_SECRET", "sk-live-shell-should-not-leak");
    try {
      const result = await createShellTool(workspace, ROOMY).execute({ command: "env" });
      expect(result.exitCode).toBe(0);
      expect(result.stdout).not.toContain("sk-live-shell-should-not-leak");
      expect(result.stdout).not.toContain("PADDOCK_SHELL_SECRET");
      // The minimal environment is there: PATH finds programs.
      expect(result.stdout).toMatch(/^PATH=/m);
    } finally {
      deleteEnv("PADDOCK_SHELL_SECRET");
    }
  });

  test("passes variables named in inheritEnv and given in env", async () => {
    const { root } = await setup();
    setEnv("PADDOCK_SHELL_SHARED", "shared-value");
    try {
      const workspace = await openWorkspace(root, { inheritEnv: ["PADDOCK_SHELL_SHARED"], env: { EXTRA: "given" } });
      const result = await createShellTool(workspace, ROOMY).execute({
        command: 'echo "$PADDOCK_SHELL_SHARED $EXTRA"',
      });
      expect(result.stdout).toBe("shared-value given\n");
    } finally {
      deleteEnv("PADDOCK_SHELL_SHARED");
    }
  });

  test("refuses to run when the root folder was replaced", async () => {
    const { workspace, root, parent } = await setup();
    fs.renameSync(root, path.join(parent, "moved"));
    fs.mkdirSync(root);
    const error = await rejection(createShellTool(workspace, ROOMY).execute({ command: "touch ran" }));
    expect((error as WorkspaceError).code).toBe("WORKSPACE_ROOT_CHANGED");
    expect(fs.readdirSync(root)).toEqual([]);
  });

  test.runIf(hasProgram("bash"))(
    `runs the shell given in options${skipNote(!hasProgram("bash"), "no bash on PATH")}`,
    async () => {
      const { workspace } = await setup();
      const result = await createShellTool(workspace, { ...ROOMY, shell: "bash" }).execute({
        command: "echo ${BASH_VERSION:+bash}",
      });
      expect(result.stdout).toBe("bash\n");
    },
  );

  test("reports a shell that cannot start as SPAWN_FAILED without a host path", async () => {
    const { workspace, parent } = await setup();
    const missing = path.join(parent, "no-such-shell");
    const error = await rejection(
      createShellTool(workspace, { ...ROOMY, shell: missing }).execute({ command: "true" }),
    );
    expect((error as WorkspaceError).code).toBe("SPAWN_FAILED");
    expect(toErrorBody(error).error.message).not.toContain(parent);
  });
});

describe("shell: time limits, abort and leftover processes", () => {
  test("a command past its time limit is SHELL_TIMEOUT carrying the partial output, and its group is dead", async () => {
    const { workspace, root } = await setup();
    const registry = new ToolRegistry([createShellTool(workspace, { ...ROOMY, killGraceMs: 200 })]);
    const result = await executeToolCall(registry, {
      id: "t",
      name: "shell",
      arguments: { command: "echo partial; echo oops >&2; sleep 30 & echo $! > child.pid; wait", timeout_ms: 1_500 },
    });
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(result.content);
    expect(error.code).toBe("SHELL_TIMEOUT");
    expect(error.message).toBe("Command ran longer than 1500 ms and was killed");
    expect(error.hint).toContain("timeout_ms");
    expect(error.details).toMatchObject({
      stdout: "partial\n",
      stderr: "oops\n",
      stdoutTruncated: false,
      stderrTruncated: false,
      exitCode: null,
      timeoutMs: 1_500,
    });
    const child = readPid(root, "child.pid");
    await waitFor(() => !isAlive(child));
  });

  test("SIGTERM comes first, so a command can clean up within the grace", async () => {
    const { workspace } = await setup();
    const error = await rejection(
      createShellTool(workspace, { ...ROOMY, killGraceMs: 5_000 }).execute({
        command: "trap 'echo cleaned; exit 3' TERM; echo started; sleep 30 & wait",
        timeout_ms: 1_500,
      }),
    );
    expect((error as WorkspaceError).code).toBe("SHELL_TIMEOUT");
    expect((error as WorkspaceError).details).toMatchObject({ stdout: "started\ncleaned\n", exitCode: 3 });
  });

  test("a command that ignores SIGTERM is killed with SIGKILL after the grace", async () => {
    const { workspace, root } = await setup();
    // Had SIGKILL not come after the grace, the `sleep 30` would hold the call past the test's 10 s bound.
    const error = await rejection(
      createShellTool(workspace, { ...ROOMY, killGraceMs: 200 }).execute({
        // The ignored SIGTERM is inherited by the sleep too.
        command: "trap '' TERM; echo stubborn; sleep 30 & echo $! > child.pid; wait",
        timeout_ms: 1_500,
      }),
    );
    expect((error as WorkspaceError).code).toBe("SHELL_TIMEOUT");
    expect((error as WorkspaceError).details).toMatchObject({ stdout: "stubborn\n", signal: "SIGKILL" });
    const child = readPid(root, "child.pid");
    await waitFor(() => !isAlive(child));
  }, 10_000);

  test("abort rejects with an AbortError once the whole process group is dead", async () => {
    const { workspace, root } = await setup();
    const controller = new AbortController();
    const registry = new ToolRegistry([createShellTool(workspace, { ...ROOMY, killGraceMs: 200 })]);
    const call = executeToolCall(registry, {
      id: "a",
      name: "shell",
      arguments: { command: "echo $$ > leader.pid; sleep 30 & echo $! > child.pid; wait" },
    }, controller.signal);
    await waitFor(() =>
      fs.existsSync(path.join(root, "child.pid")) && fs.statSync(path.join(root, "child.pid")).size > 0
    );
    controller.abort();
    const error = await rejection(call);
    expect((error as Error).name).toBe("AbortError");
    const leader = readPid(root, "leader.pid");
    const child = readPid(root, "child.pid");
    await waitFor(() => !isAlive(leader) && !isAlive(child));
  });

  test("an aborted signal runs nothing", async () => {
    const { workspace, root } = await setup();
    const error = await rejection(
      createShellTool(workspace, ROOMY).execute({ command: "touch ran" }, { signal: AbortSignal.abort() }),
    );
    expect((error as Error).name).toBe("AbortError");
    expect(fs.readdirSync(root)).toEqual([]);
  });

  test.each([
    ["a background job", "sleep 1000 & echo $! > daemon.pid; echo done"],
    ["a job in a subshell", "(sleep 1000 & echo $! > daemon.pid); echo done"],
    ["a nohup job", "nohup sleep 1000 > /dev/null 2>&1 & echo $! > daemon.pid; echo done"],
  ])("returns promptly when the command leaves %s behind, and kills it", async (_name, command) => {
    const { workspace, root } = await setup();
    const result = await createShellTool(workspace, ROOMY).execute({ command });
    // A call that waited for the daemon (`sleep 1000`) would hit the 15 s default timeout and fail with
    // SHELL_TIMEOUT, and the test's 10 s bound before that: success here means nothing waited for it.
    expect(result).toMatchObject({ exitCode: 0, stdout: "done\n" });
    const pid = readPid(root, "daemon.pid");
    strays.push(pid);
    await waitFor(() => !isAlive(pid));
  }, 10_000);

  test.runIf(hasProgram("setsid"))(
    `returns promptly when a process that left the group holds the pipes${
      skipNote(!hasProgram("setsid"), "no setsid on PATH (util-linux)")
    }`,
    async () => {
      const { workspace, root } = await setup();
      // A call that waited for the escaped `sleep 30` would outlast the test's 10 s bound.
      const result = await createShellTool(workspace, ROOMY).execute({
        command: "setsid sh -c 'echo $$ > escaped.pid; exec sleep 30' & " +
          "while [ ! -s escaped.pid ]; do sleep 0.05; done; echo done",
      });
      const pid = readPid(root, "escaped.pid");
      strays.push(pid); // it left our group: the test kills it
      expect(result).toMatchObject({ exitCode: 0, stdout: "done\n" });
    },
    10_000,
  );
});

describe("shell: output bounds", () => {
  test("a flood keeps the start and the end, says how much was cut, and flags the stream", async () => {
    const { workspace } = await setup();
    const tool = createShellTool(workspace, { ...ROOMY, maxOutputBytes: 1_000 });
    const result = await tool.execute({ command: "head -c 5000000 /dev/zero | tr '\\0' x; echo END; echo small >&2" });
    const total = 5_000_000 + "END\n".length;
    expect(result.stdout).toBe(
      "x".repeat(500) + `\n[… ${total - 1_000} bytes omitted …]\n` + "x".repeat(496) + "END\n",
    );
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderr).toBe("small\n");
    expect(result.stderrTruncated).toBe(false);
  });

  test("output exactly at the limit is kept whole", async () => {
    const { workspace } = await setup();
    const tool = createShellTool(workspace, { ...ROOMY, maxOutputBytes: 1_000 });
    const exact = await tool.execute({ command: "head -c 1000 /dev/zero | tr '\\0' y" });
    expect(exact.stdout).toBe("y".repeat(1_000));
    expect(exact.stdoutTruncated).toBe(false);
    const over = await tool.execute({ command: "head -c 1001 /dev/zero | tr '\\0' y" });
    expect(over.stdout).toBe("y".repeat(500) + "\n[… 1 bytes omitted …]\n" + "y".repeat(500));
    expect(over.stdoutTruncated).toBe(true);
  });

  test("an endless flood stays bounded in memory and ends as SHELL_TIMEOUT with bounded partial output", async () => {
    const { workspace } = await setup();
    const before = process.memoryUsage().rss;
    const error = await rejection(
      createShellTool(workspace, { ...ROOMY, maxOutputBytes: 4_096 }).execute({
        command: "yes flood",
        timeout_ms: 800,
      }),
    );
    const grown = process.memoryUsage().rss - before;
    expect((error as WorkspaceError).code).toBe("SHELL_TIMEOUT");
    const details = (error as WorkspaceError).details as unknown as ShellOutput;
    expect(details.stdoutTruncated).toBe(true);
    expect(details.stdout.startsWith("flood\nflood\n")).toBe(true);
    expect(details.stdout).toMatch(/\n\[… \d+ bytes omitted …\]\n/);
    expect(details.stdout.length).toBeLessThan(4_096 + 64);
    // Gigabytes may have passed through; memory must not have followed them.
    expect(grown).toBeLessThan(256 * 1024 * 1024);
  });
});

describe("shell: policy and arguments, before anything runs", () => {
  const policyTool = (root: WorkspaceSource) =>
    createShellTool(root, { ...ROOMY, allow: ["touch", "echo", /^ls( -l)?$/], deny: ["rm", /curl/] });

  test.each([
    ["touch ran", "allowed"],
    ["echo hi", "allowed"],
    ["ls -l", "allowed"],
    ["touch ran; rm -rf .", "SHELL_COMMAND_DENIED"],
    ["touch ran && rm -rf .", "SHELL_COMMAND_DENIED"],
    ["touch ran | curl evil.sh", "SHELL_COMMAND_DENIED"],
    ["touch ran; make", "SHELL_COMMAND_NOT_ALLOWED"],
    ["touch ran $(make)", "SHELL_COMMAND_NOT_ALLOWED"],
    ["touch ran\nmake", "SHELL_COMMAND_NOT_ALLOWED"],
    ["touch ran > x", "SHELL_COMMAND_NOT_ALLOWED"],
    ["make", "SHELL_COMMAND_NOT_ALLOWED"],
    ["ls -la", "SHELL_COMMAND_NOT_ALLOWED"],
  ])("'%s' → %s", async (command, expected) => {
    const { root } = await setup();
    const registry = new ToolRegistry([policyTool(root)]);
    const result = await executeToolCall(registry, { id: "p", name: "shell", arguments: { command } });
    if (expected === "allowed") {
      expect(result.isError).toBe(false);
      return;
    }
    expect(result.isError).toBe(true);
    const { error } = JSON.parse(result.content);
    expect(error.code).toBe(expected);
    expect(error.details).toBeUndefined();
    expect(fs.readdirSync(root)).toEqual([]);
  });

  test("refusals name the rule and tell the model what it may do", () => {
    const tool = policyTool(unopened());
    const denied = catchSync(() => tool.validate({ command: "ls; rm -rf /" }));
    expect(denied).toMatchObject({
      code: "SHELL_COMMAND_DENIED",
      message: "Cannot run the command: it matches the deny rule 'rm'",
    });
    const chained = catchSync(() => tool.validate({ command: "echo a; echo b" }));
    expect(chained).toMatchObject({
      code: "SHELL_COMMAND_NOT_ALLOWED",
      message:
        "Cannot run the command: 'echo' is allowed only as a single command, without ; & | ` $( < > or line breaks",
    });
    const other = catchSync(() => tool.validate({ command: "make" }));
    expect(other).toMatchObject({
      code: "SHELL_COMMAND_NOT_ALLOWED",
      message: "Cannot run the command: it is not in the allow list",
      hint: "allowed commands: 'touch', 'echo', /^ls( -l)?$/",
    });
    expect(tool.description).toContain("Only these commands are allowed: 'touch', 'echo', /^ls( -l)?$/");
  });

  test.each([
    ["an empty command", { command: "" }, "INVALID_ARGUMENTS"],
    ["a blank command", { command: " \t " }, "INVALID_ARGUMENTS"],
    ["a NUL in the command", { command: "echo a\0b" }, "INVALID_ARGUMENTS"],
    ["a missing command", {}, "INVALID_ARGUMENTS"],
    ["an unknown property", { command: "ls", cwd: "/" }, "INVALID_ARGUMENTS"],
    [
      "a command one byte over the limit",
      { command: "x".repeat(SHELL_MAX_COMMAND_BYTES + 1) },
      "COMMAND_LINE_TOO_LONG",
    ],
    ["timeout_ms above the maximum", { command: "ls", timeout_ms: SHELL_MAX_TIMEOUT_MS + 1 }, "INVALID_ARGUMENTS"],
    ["timeout_ms zero", { command: "ls", timeout_ms: 0 }, "INVALID_ARGUMENTS"],
    ["timeout_ms not an integer", { command: "ls", timeout_ms: 1.5 }, "INVALID_ARGUMENTS"],
  ])("refuses %s as TOOL_ARGUMENTS_INVALID", async (_name, args, code) => {
    const registry = new ToolRegistry([createShellTool(unopened())]);
    const result = await executeToolCall(registry, { id: "x", name: "shell", arguments: args });
    expect(JSON.parse(result.content).error).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: code });
  });

  test("accepts the limits exactly at the boundary and applies the default timeout", () => {
    const tool = createShellTool(unopened());
    expect(tool.validate({ command: "x".repeat(SHELL_MAX_COMMAND_BYTES) }).command).toHaveLength(
      SHELL_MAX_COMMAND_BYTES,
    );
    expect(tool.validate({ command: "ls", timeout_ms: SHELL_MAX_TIMEOUT_MS }).timeoutMs).toBe(SHELL_MAX_TIMEOUT_MS);
    expect(tool.validate({ command: "ls" }).timeoutMs).toBe(SHELL_TIMEOUT_MS);
    expect(createShellTool(unopened(), { defaultTimeoutMs: 1_234 }).validate({ command: "ls" }).timeoutMs).toBe(1_234);
    expect(() => createShellTool(unopened(), { maxTimeoutMs: 10, defaultTimeoutMs: 11 })).toThrow(RangeError);
  });

  test("advertises the time limits in its JSON Schema", () => {
    const schema = createShellTool(unopened(), { maxTimeoutMs: 60_000 }).inputSchema as {
      properties: { timeout_ms: { maximum: number } };
      required: string[];
      additionalProperties: boolean;
    };
    expect(schema.properties.timeout_ms.maximum).toBe(60_000);
    expect(schema.required).toEqual(["command"]);
    expect(schema.additionalProperties).toBe(false);
  });
});

describe("shell: approval", () => {
  const input = (command: string): ShellInput => ({ command, timeoutMs: 1_000 });

  test("needs approval by default", () => {
    expect(createShellTool(unopened()).needsApproval).toBe(true);
  });

  test("needsApproval: false needs none", () => {
    expect(createShellTool(unopened(), { needsApproval: false }).needsApproval).toBe(false);
  });

  test("a needsApproval function is asked with the command line", async () => {
    const seen: string[] = [];
    const tool = createShellTool(unopened(), {
      needsApproval: (command) => {
        seen.push(command);
        return !/^(git status|npm test)( |$)/.test(command);
      },
    });
    const ask = tool.needsApproval as (input: ShellInput) => boolean | Promise<boolean>;
    expect(await ask(input("git status -s"))).toBe(false);
    expect(await ask(input("npm test"))).toBe(false);
    expect(await ask(input("npm publish"))).toBe(true);
    expect(seen).toEqual(["git status -s", "npm test", "npm publish"]);
    const asyncTool = createShellTool(unopened(), { needsApproval: (command) => Promise.resolve(command !== "ls") });
    expect(await (asyncTool.needsApproval as (input: ShellInput) => Promise<boolean>)(input("ls"))).toBe(false);
  });

  test("a refused command never reaches the approval question: validation throws first", () => {
    let asked = 0;
    const tool = createShellTool(unopened(), { deny: ["rm"], needsApproval: () => (asked++, true) });
    expect(() => tool.validate({ command: "rm -rf /" })).toThrow(
      expect.objectContaining({ code: "SHELL_COMMAND_DENIED" }),
    );
    expect(asked).toBe(0);
  });
});

/** A provider that answers from a script and records each request. */
class ScriptedShell implements ShellProvider {
  readonly requests: ShellExecRequest[] = [];
  constructor(private readonly answer: (command: string) => Partial<ShellExecResult>) {}
  exec(command: string, options: ShellExecOptions = {}): Promise<ShellExecResult> {
    const request = { command, ...options };
    this.requests.push(request);
    return Promise.resolve({
      exitCode: 0,
      signal: null,
      stdout: "",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      timedOut: false,
      ...this.answer(request.command),
    });
  }
}

describe("shell: over a ShellProvider", () => {
  test("calls exec with the command, the time limit, the output bound and the signal, after the policy", async () => {
    const provider = new ScriptedShell((command) => ({ stdout: command === "npm test" ? "1 passed\n" : "" }));
    const tool = createShellTool(provider, { needsApproval: false, deny: ["rm"], maxOutputBytes: 2_048 });
    const controller = new AbortController();
    const result = await tool.execute({ command: "npm test", timeout_ms: 5_000 }, { signal: controller.signal });
    expect(result).toMatchObject({ exitCode: 0, stdout: "1 passed\n" });
    await rejection(tool.execute({ command: "rm -rf /" }));
    expect(provider.requests).toEqual([
      // The sink the whole output is kept through (a provider that cannot stream ignores it).
      {
        command: "npm test",
        timeoutMs: 5_000,
        maxOutputBytes: 2_048,
        signal: controller.signal,
        output: expect.any(Object),
      },
    ]);
  });

  test("a provider's timeout becomes SHELL_TIMEOUT with its partial output", async () => {
    const provider = new ScriptedShell(() => ({ timedOut: true, exitCode: null, signal: "SIGKILL", stdout: "half" }));
    const registry = new ToolRegistry([createShellTool(provider, { needsApproval: false })]);
    const result = await executeToolCall(registry, { id: "r", name: "shell", arguments: { command: "slow" } });
    const { error } = JSON.parse(result.content);
    expect(error.code).toBe("SHELL_TIMEOUT");
    expect(error.details).toEqual({
      exitCode: null,
      signal: "SIGKILL",
      stdout: "half",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      outputId: expect.stringMatching(/^p\d+$/),
      timeoutMs: SHELL_TIMEOUT_MS,
    });
  });

  test("a workspace that is also a provider runs commands through its own exec", async () => {
    const { workspace, root } = await setup();
    const commands: string[] = [];
    class ScriptedWorkspace extends Workspace implements ShellProvider {
      exec(command: string): Promise<ShellExecResult> {
        commands.push(command);
        return Promise.resolve({
          exitCode: 0,
          signal: null,
          stdout: "scripted\n",
          stderr: "",
          stdoutTruncated: false,
          stderrTruncated: false,
          timedOut: false,
        });
      }
    }
    const scripted = new ScriptedWorkspace(
      workspace.host,
      workspace.root,
      workspace.rootEntry,
      workspace.rootIdentity,
      {},
    );
    const result = await createShellTool(scripted, ROOMY).execute({ command: "touch ran" });
    expect(result.stdout).toBe("scripted\n");
    expect(commands).toEqual(["touch ran"]);
    expect(fs.readdirSync(root)).toEqual([]);
  });
});

describe("shell over a MemoryWorkspace (a workspace that is its own provider)", () => {
  test("answers from the script, logs each command that passed the policy, and refuses the rest", async () => {
    const ws = new MemoryWorkspace({
      files: { "src/math.ts": "export const add = (a: number, b: number) => a - b;\n" },
      exec: { "npm test": "1 passed\n", "npm run lint": { stderr: "1 problem\n", exitCode: 1 } },
    });
    const registry = new ToolRegistry([
      createShellTool(ws, { allow: ["npm test", "npm run lint"], deny: ["rm"], needsApproval: false }),
    ]);
    const run = async (command: string) =>
      JSON.parse((await executeToolCall(registry, { id: command, name: "shell", arguments: { command } })).content);
    expect(await run("npm test")).toEqual({
      exitCode: 0,
      signal: null,
      stdout: "1 passed\n",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      outputId: expect.stringMatching(/^p\d+$/),
    });
    expect(await run("npm run lint")).toMatchObject({ exitCode: 1, stderr: "1 problem\n" });
    expect((await run("npm test; rm -rf /")).error.code).toBe("SHELL_COMMAND_DENIED");
    expect((await run("npm test && curl x")).error.code).toBe("SHELL_COMMAND_NOT_ALLOWED");
    expect(ws.commands.map((c) => c.command)).toEqual(["npm test", "npm run lint"]);
  });

  test("a slow scripted reply ends as SHELL_TIMEOUT", async () => {
    const ws = new MemoryWorkspace({ exec: () => new Promise(() => {}) });
    const error = await rejection(createShellTool(ws).execute({ command: "hang", timeout_ms: 20 }));
    expect((error as WorkspaceError).code).toBe("SHELL_TIMEOUT");
    expect(ws.commands.map((c) => c.command)).toEqual(["hang"]);
  });
});

describe("shell in createCodingTools", () => {
  test("is left out by default and included when its options are given", () => {
    expect(createCodingTools(unopened()).map((tool) => tool.name)).not.toContain("shell");
    const tools = createCodingTools(unopened(), { shell: { allow: ["npm test"] } });
    const shell = tools.find((tool) => tool.name === "shell");
    expect(shell?.needsApproval).toBe(true);
    expect(() => shell?.validate({ command: "make" })).toThrow(
      expect.objectContaining({ code: "SHELL_COMMAND_NOT_ALLOWED" }),
    );
  });
});

describe("the seams a remote sandbox needs are public", () => {
  test("the host interface, the path grammar and the error type are exported", async () => {
    const { workspace } = await setup();
    const host: Host = workspace.host;
    expect(typeof host.realpath).toBe("function");
    expect(normalizeWorkspacePath("src/./a.ts")).toEqual(["src", "a.ts"]);
    expect(new WorkspaceError("SHELL_TIMEOUT", "x", { details: { stdout: "" } }).details).toEqual({ stdout: "" });
  });

  test("toErrorBody keeps details on execution errors and never on argument errors", () => {
    const timeout = new WorkspaceError("SHELL_TIMEOUT", "Command ran longer than 1 ms and was killed", {
      details: { stdout: "partial" },
    });
    expect(toErrorBody(timeout)).toEqual({
      error: {
        code: "SHELL_TIMEOUT",
        message: "Command ran longer than 1 ms and was killed",
        hint: expect.stringContaining("timeout_ms"),
        details: { stdout: "partial" },
      },
    });
    const argument = new WorkspaceError("COMMAND_LINE_TOO_LONG", "too long", { details: { secret: "x" } });
    expect(toErrorBody(argument)).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "COMMAND_LINE_TOO_LONG", hint: expect.any(String) },
    });
    expect(toErrorBody(new WorkspaceError("NOT_FOUND", "gone"))).toEqual({
      error: { code: "NOT_FOUND", message: "gone", hint: expect.stringContaining("list_directory") },
    });
  });
});

describe("shellArgv()", () => {
  test.each([
    ["/bin/sh", ["/bin/sh", "-c", "echo hi"]],
    ["bash", ["bash", "-c", "echo hi"]],
    ["cmd.exe", ["cmd.exe", "/d", "/s", "/c", "echo hi"]],
    ["C:\\Windows\\System32\\CMD.EXE", ["C:\\Windows\\System32\\CMD.EXE", "/d", "/s", "/c", "echo hi"]],
    ["cmd", ["cmd", "/d", "/s", "/c", "echo hi"]],
  ])("runs a command with %s", (shell, argv) => {
    expect(shellArgv(shell, "echo hi")).toEqual(argv);
  });
});

function catchSync(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}
