// Background processes (issue 26, item 3): `shell` and `node_process` with
// `background: true`, and process_output / process_input / process_kill /
// process_list over one table per workspace. Timing-tolerant: every wait is a
// poll with a generous deadline (the machine is loaded).
import * as fs from "node:fs";
import { describe, expect, test } from "vitest";
import {
  createCodingTools,
  createProcessTools,
  type createShellTool,
  MemoryWorkspace,
  ToolRegistry,
  type Workspace,
} from "../mod.ts";
import { MAX_BACKGROUND_PROCESSES } from "../src/core/limits.ts";
import { createMcpRegistry } from "../src/mcp/mod.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { fixturesClosedAfterEach } from "./helpers/fixtures_after_each.ts";
import { SERVER_RUNTIMES } from "./helpers/paddock_command.ts";
import { isAlive, pidsRunning, sleep, waitFor } from "./helpers/process.ts";
import { onBun, runtime } from "./helpers/runtime.ts";
import { startStdioServer } from "./helpers/stdio_server.ts";
import { callFailure as failure, callOk as ok } from "./helpers/tool_call.ts";
import { BACKGROUND_HOSTILE_CALLS } from "./cases/background_inputs.ts";

// Bun has no permission model: node_process runs there only with permissions: "inherit".
const PERMISSIONS = onBun ? { permissions: "inherit" as const } : {};
const DEADLINE_MS = 20_000;

const fixtures = fixturesClosedAfterEach();

async function diskRegistry(
  shell: Parameters<typeof createShellTool>[1] = {},
): Promise<{ fixture: DiskFixture; registry: ToolRegistry; workspace: Workspace }> {
  const fixture = await diskFixture([]);
  fixtures.push(fixture);
  const tools = createCodingTools(fixture.workspace, {
    shell: { needsApproval: false, ...shell },
    nodeProcess: { ...PERMISSIONS },
  });
  return { fixture, registry: new ToolRegistry(tools), workspace: fixture.workspace };
}

// deno-lint-ignore no-explicit-any
type Body = any;

/** Reads process_output until `until` holds for the stdout gathered (or it exited); returns all of it. */
async function readUntil(
  registry: ToolRegistry,
  id: string,
  until: (stdout: string, last: Body) => boolean,
): Promise<{ stdout: string; stderr: string; last: Body }> {
  let stdout = "";
  let stderr = "";
  const start = Date.now();
  for (;;) {
    const last = await ok(registry, "process_output", { process_id: id, wait_ms: 500 });
    stdout += last.stdout;
    stderr += last.stderr;
    if (until(stdout, last) || last.status === "exited") return { stdout, stderr, last };
    if (Date.now() - start > DEADLINE_MS) throw new Error(`no such output within ${DEADLINE_MS} ms: ${stdout}`);
  }
}

async function startShell(registry: ToolRegistry, command: string): Promise<string> {
  const started = await ok(registry, "shell", { command, background: true });
  expect(started).toMatchObject({ status: "running", exitCode: null, stdout: "", stderr: "" });
  expect(started.process_id).toMatch(/^p\d+$/);
  return started.process_id;
}

describe(`background processes on the ${runtime} host`, () => {
  test("shell: returns at once, output is read incrementally, then the exit status; then the id is gone", async () => {
    const { registry } = await diskRegistry();
    const id = await startShell(registry, "echo one; sleep 1; echo two >&2; sleep 1; echo three; exit 3");
    const first = await readUntil(registry, id, (stdout) => stdout.includes("one"));
    expect(first.last.status).toBe("running");
    expect(first.stdout).toBe("one\n");
    const rest = await readUntil(registry, id, () => false);
    expect(rest.stdout).toBe("three\n");
    expect(first.stderr + rest.stderr).toBe("two\n");
    expect(rest.last).toMatchObject({ status: "exited", exitCode: 3, signal: null, killed: false, timedOut: false });
    expect((await failure(registry, "process_output", { process_id: id })).code).toBe("PROCESS_NOT_FOUND");
  });

  test("shell: a loop keeps printing; each read returns only what is new", async () => {
    const { registry } = await diskRegistry();
    const id = await startShell(registry, "i=0; while true; do i=$((i+1)); echo tick$i; sleep 0.1; done");
    const a = await readUntil(registry, id, (stdout) => stdout.includes("tick2\n"));
    const b = await readUntil(registry, id, (stdout) => /tick\d+\n/.test(stdout));
    const last = (text: string) => Number(text.trim().split("\n").at(-1)!.slice(4));
    const firstOfB = Number(b.stdout.split("\n")[0].slice(4));
    expect(firstOfB).toBe(last(a.stdout) + 1);
    const killed = await ok(registry, "process_kill", { process_id: id });
    expect(killed).toMatchObject({ status: "exited", killed: true, exitCode: null });
  });

  test("process_input writes to stdin: cat echoes it back", async () => {
    const { registry } = await diskRegistry();
    const id = await startShell(registry, "cat");
    expect(await ok(registry, "process_input", { process_id: id, text: "hello\n" })).toEqual({
      process_id: id,
      bytes: 6,
      unsentBytes: 0,
    });
    expect((await readUntil(registry, id, (stdout) => stdout.includes("hello\n"))).stdout).toBe("hello\n");
    await ok(registry, "process_input", { process_id: id, text: "wörld\n" });
    expect((await readUntil(registry, id, (stdout) => stdout.includes("\n"))).stdout).toBe("wörld\n");
    await ok(registry, "process_kill", { process_id: id });
  });

  test("node_process: a background script reads stdin and answers; its temp files go once it ended", async () => {
    const { registry, fixture } = await diskRegistry();
    const started = await ok(registry, "node_process", {
      source:
        "process.stdin.setEncoding('utf8'); process.stdin.on('data', (d) => { process.stdout.write('got:' + d); if (d.includes('bye')) process.exit(7); });",
      background: true,
    });
    expect(started).toMatchObject({ status: "running", timedOut: false });
    const id = started.process_id as string;
    await ok(registry, "process_input", { process_id: id, text: "hi\n" });
    expect((await readUntil(registry, id, (stdout) => stdout.includes("got:hi\n"))).stdout).toBe("got:hi\n");
    const listed = await ok(registry, "process_list", {});
    expect(listed.processes).toEqual([
      expect.objectContaining({ process_id: id, tool: "node_process", status: "running" }),
    ]);
    await ok(registry, "process_input", { process_id: id, text: "bye\n" });
    const end = await readUntil(registry, id, () => false);
    expect(end.stdout).toBe("got:bye\n");
    expect(end.last).toMatchObject({ status: "exited", exitCode: 7 });
    await waitFor(() => fs.readdirSync(fixture.root).length === 0, DEADLINE_MS);
  });

  test("process_kill ends the whole group: a grandchild started with & dies too", async () => {
    const { registry } = await diskRegistry();
    const id = await startShell(registry, "sleep 1000 & echo $!; echo $$; wait");
    const { stdout } = await readUntil(registry, id, (out) => out.split("\n").length >= 3);
    const [grandchild, leader] = stdout.trim().split("\n").map(Number);
    expect(isAlive(grandchild) && isAlive(leader)).toBe(true);
    const killed = await ok(registry, "process_kill", { process_id: id });
    expect(killed).toMatchObject({ status: "exited", killed: true });
    await waitFor(() => !isAlive(grandchild) && !isAlive(leader), DEADLINE_MS);
    // Dead means ESRCH from kill(pid, 0), or a zombie no init has reaped yet (isAlive tells the two apart).
    expect((await failure(registry, "process_kill", { process_id: id })).code).toBe("PROCESS_NOT_FOUND");
  });

  test("a flood of output stays bounded between reads, and the dropped bytes are stated", async () => {
    const { registry } = await diskRegistry({ maxOutputBytes: 1_000 });
    const id = await startShell(registry, "yes flood");
    await sleep(300);
    let read: Body;
    const start = Date.now();
    do {
      read = await ok(registry, "process_output", { process_id: id, wait_ms: 200 });
    } while (read.stdoutDroppedBytes === 0 && Date.now() - start < DEADLINE_MS);
    expect(read.stdoutTruncated).toBe(true);
    expect(read.stdoutDroppedBytes).toBeGreaterThan(0);
    expect(read.stdout).toContain(`[… ${read.stdoutDroppedBytes} bytes omitted …]`);
    const kept = new TextEncoder().encode(read.stdout.replace(/\n\[… \d+ bytes omitted …\]\n/, "")).length;
    expect(kept).toBeLessThanOrEqual(1_000);
    expect(read.stdout.startsWith("flood\n")).toBe(true);
    await ok(registry, "process_kill", { process_id: id });
  });

  test("closing the workspace kills a process that never ends, grandchildren included", async () => {
    const { registry, workspace } = await diskRegistry();
    const id = await startShell(registry, "sleep 1000 & echo $!; echo $$; sleep 1000");
    const { stdout } = await readUntil(registry, id, (out) => out.split("\n").length >= 3);
    const pids = stdout.trim().split("\n").map(Number);
    expect(pids.every(isAlive)).toBe(true);
    await workspace.close();
    await waitFor(() => !pids.some(isAlive), DEADLINE_MS);
    expect((await ok(registry, "process_list", {})).processes).toEqual([]);
  });

  test(`at most ${MAX_BACKGROUND_PROCESSES} at once: one more is TOO_MANY_BACKGROUND_PROCESSES, and nothing starts`, async () => {
    const { registry } = await diskRegistry();
    const ids: string[] = [];
    for (let i = 0; i < MAX_BACKGROUND_PROCESSES; i++) ids.push(await startShell(registry, "sleep 1000"));
    expect((await failure(registry, "shell", { command: "sleep 1000", background: true })).code).toBe(
      "TOO_MANY_BACKGROUND_PROCESSES",
    );
    expect((await failure(registry, "node_process", { source: "", background: true })).code).toBe(
      "TOO_MANY_BACKGROUND_PROCESSES",
    );
    expect((await ok(registry, "process_list", {})).processes).toHaveLength(MAX_BACKGROUND_PROCESSES);
    await ok(registry, "process_kill", { process_id: ids[0] });
    ids[0] = await startShell(registry, "sleep 1000");
  });

  test("the shell policy applies at start: a denied command is refused before anything runs", async () => {
    const { registry } = await diskRegistry({ deny: ["rm"], allow: ["sleep", "rm"] });
    expect((await failure(registry, "shell", { command: "rm -rf x", background: true })).code).toBe(
      "SHELL_COMMAND_DENIED",
    );
    expect((await failure(registry, "shell", { command: "echo hi", background: true })).code).toBe(
      "SHELL_COMMAND_NOT_ALLOWED",
    );
    expect((await ok(registry, "process_list", {})).processes).toEqual([]);
  });

  test("approval applies at start: without an approver the call is refused", async () => {
    const fixture = await diskFixture([]);
    fixtures.push(fixture);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace, { shell: {} }));
    expect((await failure(registry, "shell", { command: "sleep 1000", background: true })).code).toBe(
      "TOOL_APPROVAL_REQUIRED",
    );
    expect((await ok(registry, "process_list", {})).processes).toEqual([]);
  });

  test("timeout_ms given with background: true is the process's time limit", async () => {
    const { registry } = await diskRegistry();
    const started = await ok(registry, "shell", { command: "sleep 1000", background: true, timeout_ms: 300 });
    const end = await readUntil(registry, started.process_id, () => false);
    expect(end.last).toMatchObject({ status: "exited", timedOut: true, exitCode: null });
  });

  test("input to a process that ended is PROCESS_NOT_RUNNING", async () => {
    const { registry } = await diskRegistry();
    const id = await startShell(registry, "exit 0");
    await waitFor(() => true);
    const start = Date.now();
    let listed: Body;
    do {
      await sleep(50);
      listed = await ok(registry, "process_list", {});
    } while (listed.processes[0]?.status !== "exited" && Date.now() - start < DEADLINE_MS);
    expect((await failure(registry, "process_input", { process_id: id, text: "x" })).code).toBe(
      "PROCESS_NOT_RUNNING",
    );
  });

  test("the tools of one workspace share one table; another workspace sees none of it", async () => {
    const { registry, workspace } = await diskRegistry();
    const id = await startShell(registry, "sleep 1000");
    const same = new ToolRegistry(createProcessTools(workspace));
    expect((await ok(same, "process_list", {})).processes.map((p: Body) => p.process_id)).toEqual([id]);
    const other = await diskFixture([]);
    fixtures.push(other);
    const elsewhere = new ToolRegistry(createProcessTools(other.workspace));
    expect((await failure(elsewhere, "process_kill", { process_id: id })).code).toBe("PROCESS_NOT_FOUND");
    expect(isNaN(Date.parse((await ok(same, "process_list", {})).processes[0].started))).toBe(false);
  });
});

describe.each(["disk", "memory"] as const)("background processes: hostile input on the %s host", (host) => {
  const label = (args: unknown) => JSON.stringify(args).replace(/(.{60}).+(.{10})/, "$1…$2");
  test.each(BACKGROUND_HOSTILE_CALLS.map(([name, args, code]) => [name, label(args), code, args] as const))(
    "%s %s → %s",
    async (name, _label, code, args) => {
      let workspace: Workspace = new MemoryWorkspace();
      if (host === "disk") {
        const fixture = await diskFixture([]);
        fixtures.push(fixture);
        workspace = fixture.workspace;
      }
      const registry = new ToolRegistry(
        createCodingTools(workspace, { shell: { needsApproval: false }, nodeProcess: { ...PERMISSIONS } }),
      );
      const error = await failure(registry, name, args);
      expect(error.code).toBe(code);
      expect(JSON.stringify(error).length).toBeLessThan(2_000);
      if (name === "process_input" && code === "TOOL_ARGUMENTS_INVALID" && typeof (args as Body).text === "string") {
        expect(error.message).toContain("CONTENT_TOO_LARGE");
      }
      expect((await ok(registry, "process_list", {})).processes).toEqual([]);
    },
  );
});

describe("background processes on the memory host (scripted commands, run through exec)", () => {
  test("output comes when the scripted command ends; it takes no input; a kill aborts it", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const workspace = new MemoryWorkspace({
      exec: async (command) => {
        if (command === "slow") {
          await gate;
          return { stdout: "done\n", exitCode: 2 };
        }
        if (command === "forever") return await new Promise<never>(() => {});
        return undefined;
      },
    });
    const registry = new ToolRegistry(createCodingTools(workspace, { shell: { needsApproval: false } }));
    const id = await startShell(registry, "slow");
    expect(await ok(registry, "process_output", { process_id: id, wait_ms: 50 })).toMatchObject({
      status: "running",
      stdout: "",
    });
    expect((await failure(registry, "process_input", { process_id: id, text: "x" })).code).toBe(
      "PROCESS_INPUT_UNSUPPORTED",
    );
    release();
    const end = await readUntil(registry, id, () => false);
    expect(end.stdout).toBe("done\n");
    expect(end.last).toMatchObject({ status: "exited", exitCode: 2 });

    const forever = await startShell(registry, "forever");
    expect(await ok(registry, "process_kill", { process_id: forever })).toMatchObject({
      status: "exited",
      killed: true,
      signal: "SIGKILL",
    });
    const unscripted = await startShell(registry, "nope");
    expect((await readUntil(registry, unscripted, () => false)).last.exitCode).toBe(127);
  });

  test("closing the memory workspace ends its background commands", async () => {
    const workspace = new MemoryWorkspace({ exec: () => new Promise<never>(() => {}) });
    const registry = new ToolRegistry(createCodingTools(workspace, { shell: { needsApproval: false } }));
    await startShell(registry, "a");
    await startShell(registry, "b");
    expect((await ok(registry, "process_list", {})).processes).toHaveLength(2);
    await workspace.close();
    expect((await ok(registry, "process_list", {})).processes).toEqual([]);
  });
});

describe("background processes through MCP", () => {
  test("createMcpRegistry offers the process tools with node_process, and with a shell", async () => {
    const fixture = await diskFixture([]);
    fixtures.push(fixture);
    const names = createMcpRegistry(fixture.workspace).list().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(["process_output", "process_input", "process_kill", "process_list"]));
    const readOnly = createMcpRegistry(fixture.workspace, { readOnly: true }).list().map((tool) => tool.name);
    expect(readOnly.filter((name) => name.startsWith("process_"))).toEqual([]);
    const none = createMcpRegistry(fixture.workspace, { nodeProcess: false }).list().map((tool) => tool.name);
    expect(none.filter((name) => name.startsWith("process_"))).toEqual([]);
  });

  test.each(SERVER_RUNTIMES)(
    "paddock mcp under %s: the background processes die when the session ends",
    async (serverRuntime) => {
      const fixture = await diskFixture([]);
      fixtures.push(fixture);
      const seconds = String(5_000_000 + Math.floor(Math.random() * 1_000_000));
      const args = ["--root", fixture.root, "--shell", "allow:sleep", "--unsandboxed"];
      const { call, reply, stderr, child, exited } = await startStdioServer(serverRuntime, args);
      call("start", "shell", { command: `sleep ${seconds}`, background: true });
      const started = await reply("start");
      expect(started.result.isError, stderr() + JSON.stringify(started)).toBeFalsy();
      expect(started.result.structuredContent).toMatchObject({ status: "running" });
      await waitFor(() => pidsRunning(["sleep", seconds]).length > 0, DEADLINE_MS);
      call("list", "process_list", {});
      const listed = await reply("list");
      expect(listed.result.structuredContent.processes).toEqual([
        expect.objectContaining({ tool: "shell", command: `sleep ${seconds}`, status: "running" }),
      ]);
      child.stdin.end();
      expect(await exited).toBe(0);
      await waitFor(() => pidsRunning(["sleep", seconds]).length === 0, DEADLINE_MS);
    },
    120_000,
  );
});
