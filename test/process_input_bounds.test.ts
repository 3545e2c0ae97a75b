// process_input to a process that never reads its stdin (issue 39, item 8): every call returns, with a
// stable code; the bytes queued for it stay under the limits; and through `paddock mcp` the server keeps
// answering (process_kill and process_list have slots of their own).
import { describe, expect, test } from "vitest";
import { createCodingTools, createProcessTools, ToolRegistry } from "../mod.ts";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import {
  MCP_MAX_CONCURRENT_CALLS,
  PROCESS_INPUT_CHUNK_BYTES,
  PROCESS_INPUT_MAX_BYTES,
  PROCESS_INPUT_MAX_QUEUED_BYTES,
} from "../src/core/limits.ts";
import { BackgroundProcesses } from "../src/core/process/background_processes.ts";
import type { BackgroundControl } from "../src/core/process/background_process.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { fixturesClosedAfterEach } from "./helpers/fixtures_after_each.ts";
import { gatedTool } from "./helpers/gated_tool.ts";
import { inMemoryClient } from "./helpers/in_memory_client.ts";
import { SERVER_RUNTIMES } from "./helpers/paddock_command.ts";
import { runtime } from "./helpers/runtime.ts";
import { startStdioServer } from "./helpers/stdio_server.ts";
import { callTool } from "./helpers/tool_call.ts";

// deno-lint-ignore no-explicit-any
type Body = any;

const fixtures = fixturesClosedAfterEach();

const TEXT = "x".repeat(PROCESS_INPUT_MAX_BYTES);

/** A process whose stdin takes nothing: every write stays pending until it is killed. Counts what it holds. */
function neverReading(): {
  control: BackgroundControl;
  held: () => number;
  maxHeld: () => number;
  writes: () => number;
} {
  let held = 0;
  let maxHeld = 0;
  let writes = 0;
  let end: (exit: { exitCode: null; signal: string }) => void = () => {};
  const ended = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => (end = resolve));
  const failers: (() => void)[] = [];
  return {
    control: {
      write: (data) => {
        writes++;
        held += data.length;
        maxHeld = Math.max(maxHeld, held);
        return new Promise<void>((_, reject) => failers.push(() => reject(new Error("EPIPE"))));
      },
      kill: () => {
        for (const fail of failers.splice(0)) fail();
        held = 0;
        end({ exitCode: null, signal: "SIGKILL" });
      },
      ended,
    },
    held: () => held,
    maxHeld: () => maxHeld,
    writes: () => writes,
  };
}

describe(`process_input to a process that does not read, on the ${runtime} host`, () => {
  test(
    "1,500 concurrent 64 KiB calls all return; the pipe is handed one piece, the calls hold at most the limit",
    async () => {
      const fixture = await diskFixture([]);
      fixtures.push(fixture);
      const table = new BackgroundProcesses();
      const fake = neverReading();
      const proc = await table.start(
        { tool: "shell", command: "never reads", maxOutputBytes: 1024 },
        () => Promise.resolve(fake.control),
      );
      const registry = new ToolRegistry(createProcessTools(fixture.workspace, { processes: table }));
      let maxQueued = 0;
      const sampler = setInterval(() => (maxQueued = Math.max(maxQueued, proc.queuedInputBytes)), 1);
      const calls = Array.from(
        { length: 1_500 },
        () => callTool(registry, "process_input", { process_id: proc.id, text: TEXT }),
      );
      maxQueued = Math.max(maxQueued, proc.queuedInputBytes);
      const results = await Promise.all(calls);
      clearInterval(sampler);
      // Every call has an answer: the first got its first piece handed over, every other one is refused.
      const ok = results.filter((result) => !result.isError);
      expect(ok.map((result) => result.body)).toEqual([
        { process_id: proc.id, bytes: PROCESS_INPUT_CHUNK_BYTES, unsentBytes: TEXT.length - PROCESS_INPUT_CHUNK_BYTES },
      ]);
      expect(new Set(results.filter((result) => result.isError).map((result) => result.body.error.code))).toEqual(
        new Set(["PROCESS_INPUT_BLOCKED"]),
      );
      expect(fake.writes()).toBe(1);
      expect(fake.maxHeld()).toBe(PROCESS_INPUT_CHUNK_BYTES);
      expect(maxQueued).toBeLessThanOrEqual(PROCESS_INPUT_MAX_QUEUED_BYTES);
      // Once the piece is stuck, a call is refused at once, nothing more handed over.
      const again = await callTool(registry, "process_input", { process_id: proc.id, text: "y\n" });
      expect(again.body.error.code).toBe("PROCESS_INPUT_BLOCKED");
      expect(fake.writes()).toBe(1);
      // process_kill still works, and the pending piece goes with it.
      const killed = await callTool(registry, "process_kill", { process_id: proc.id });
      expect(killed.isError).toBe(false);
      expect(proc.queuedInputBytes).toBe(0);
    },
    60_000,
  );

  test("20 concurrent 64 KiB calls to a real `sleep` all return, then process_kill ends it", async () => {
    const fixture = await diskFixture([]);
    fixtures.push(fixture);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace, { shell: { needsApproval: false } }));
    const started = await callTool(registry, "shell", { command: "sleep 600", background: true });
    expect(started.isError, JSON.stringify(started.body)).toBe(false);
    const id = started.body.process_id as string;
    const results = await Promise.all(
      Array.from({ length: 20 }, () => callTool(registry, "process_input", { process_id: id, text: TEXT })),
    );
    const accepted = results.filter((result) => !result.isError).reduce((sum, result) => sum + result.body.bytes, 0);
    const codes = new Set(results.filter((result) => result.isError).map((result) => result.body.error.code));
    expect(codes).toEqual(new Set(["PROCESS_INPUT_BLOCKED"]));
    // What the kernel's buffer took (its own bound: a socket pair's, a few hundred KiB here) and one piece more.
    expect(accepted).toBeGreaterThan(0);
    expect(accepted).toBeLessThan(20 * TEXT.length);
    const killed = await callTool(registry, "process_kill", { process_id: id });
    expect(killed.isError, JSON.stringify(killed.body)).toBe(false);
    expect(killed.body.status).toBe("exited");
  }, 60_000);

  test("a process that reads takes all of a 64 KiB text: bytes is the whole text, unsentBytes 0", async () => {
    const fixture = await diskFixture([]);
    fixtures.push(fixture);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace, { shell: { needsApproval: false } }));
    const started = await callTool(registry, "shell", { command: "wc -c", background: true });
    const id = started.body.process_id as string;
    const written = await callTool(registry, "process_input", { process_id: id, text: TEXT });
    expect(written.body).toEqual({ process_id: id, bytes: TEXT.length, unsentBytes: 0 });
  }, 60_000);
});

describe("paddock mcp: the call slots", () => {
  test(
    `process_list and process_kill answer while ${MCP_MAX_CONCURRENT_CALLS} calls hold every other slot`,
    async () => {
      const fixture = await diskFixture([]);
      fixtures.push(fixture);
      const { tool: held, release } = gatedTool("held");
      const { server } = await createPaddockMcpServer({ root: fixture.workspace, tools: [held] });
      const client = await inMemoryClient(server);
      const holding = Array.from(
        { length: MCP_MAX_CONCURRENT_CALLS + 2 },
        (_, n) => client.callTool({ name: "held", arguments: { n } }),
      );
      const listed = await client.callTool({ name: "process_list", arguments: {} });
      expect(listed.structuredContent).toEqual({ processes: [] });
      const kill = await client.callTool({ name: "process_kill", arguments: { process_id: "p404" } });
      expect((kill.structuredContent as Body).error.code).toBe("PROCESS_NOT_FOUND");
      release();
      expect((await Promise.all(holding)).length).toBe(MCP_MAX_CONCURRENT_CALLS + 2);
      await client.close();
    },
    60_000,
  );

  test.each(SERVER_RUNTIMES)(
    "paddock mcp under %s: 20 process_input calls to a `sleep` all return, and process_list and process_kill answer",
    async (serverRuntime) => {
      const fixture = await diskFixture([]);
      fixtures.push(fixture);
      const args = ["--root", fixture.root, "--shell", "allow:sleep", "--unsandboxed"];
      const { call, reply, stderr, child, exited } = await startStdioServer(serverRuntime, args);
      call("start", "shell", { command: "sleep 600", background: true });
      const started = await reply("start");
      expect(started.result.isError, stderr() + JSON.stringify(started)).toBeFalsy();
      const id = started.result.structuredContent.process_id;
      for (let n = 0; n < 20; n++) call(`in${n}`, "process_input", { process_id: id, text: TEXT });
      call("list", "process_list", {});
      call("kill", "process_kill", { process_id: id });
      expect((await reply("list")).result.structuredContent.processes).toEqual([
        expect.objectContaining({ process_id: id }),
      ]);
      expect((await reply("kill")).result.structuredContent).toMatchObject({ process_id: id, status: "exited" });
      for (let n = 0; n < 20; n++) {
        const body = (await reply(`in${n}`)).result.structuredContent;
        if (body.error !== undefined) {
          expect(["PROCESS_INPUT_BLOCKED", "PROCESS_NOT_RUNNING"]).toContain(body.error.code);
        } else expect(body).toMatchObject({ process_id: id });
      }
      child.stdin.end();
      expect(await exited).toBe(0);
    },
    120_000,
  );
});
