// Output that never floods and never loses the end (issue 41, item 3): a command's result keeps its start
// and its end with the lines left out counted, and process_output pages and searches the whole output kept
// (in memory, bounded) by the result's outputId, after the command ended too.
import { describe, expect, test } from "vitest";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { createCodingTools, ToolRegistry } from "../mod.ts";
import {
  KEPT_OUTPUT_MAX_BYTES,
  MAX_KEPT_OUTPUTS,
  OUTPUT_MAX_LINE_CHARS,
  PROCESS_OUTPUT_MAX_LINES,
} from "../src/core/limits.ts";
import { KeptStream } from "../src/core/process/kept_stream.ts";
import { encodeUtf8 } from "../src/core/text/utf8.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { fixturesClosedAfterEach } from "./helpers/fixtures_after_each.ts";
import { inMemoryClient } from "./helpers/in_memory_client.ts";
import { onBun, runtime } from "./helpers/runtime.ts";
import { callOk as ok, callTool } from "./helpers/tool_call.ts";

// deno-lint-ignore no-explicit-any
type Body = any;

const fixtures = fixturesClosedAfterEach();

async function registry(): Promise<ToolRegistry> {
  const fixture = await diskFixture([]);
  fixtures.push(fixture);
  return new ToolRegistry(
    createCodingTools(fixture.workspace, {
      shell: { needsApproval: false },
      nodeProcess: { timeoutMs: 20_000, ...(onBun ? { permissions: "inherit" as const } : {}) },
    }),
  );
}

const LINES = 200_000;

describe(`kept output on the ${runtime} host`, () => {
  test(
    "a command printing 200,000 lines returns its start and end with the lines left out; regex finds one from the middle",
    async () => {
      const tools = await registry();
      const result = await ok(tools, "shell", { command: `seq 1 ${LINES}` });
      expect(result.exitCode).toBe(0);
      expect(result.stdoutTruncated).toBe(true);
      expect(result.stdout.startsWith("1\n2\n3\n")).toBe(true);
      expect(result.stdout.endsWith(`${LINES - 1}\n${LINES}\n`)).toBe(true);
      expect(result.stdout).toMatch(/\n\[… \d+ bytes omitted …\]\n/);
      // The lines shown and the lines left out add up to the whole output.
      const shown = result.stdout.replace(/\n\[… \d+ bytes omitted …\]\n/, "\n").split("\n").filter(Boolean).length;
      expect(result.stdoutOmittedLines).toBeGreaterThan(LINES - 10_000);
      expect(Math.abs(shown + result.stdoutOmittedLines - LINES)).toBeLessThanOrEqual(1); // a line cut at each end
      expect(result.outputId).toMatch(/^p\d+$/);
      const found = await ok(tools, "process_output", { process_id: result.outputId, regex: "^123456$" });
      expect(found).toMatchObject({
        process_id: result.outputId,
        stream: "stdout",
        status: "exited",
        exitCode: 0,
        totalLines: LINES,
        firstKeptLine: 1,
        matches: [{ line: 123_456, text: "123456" }],
        truncated: false,
      });
      const page = await ok(tools, "process_output", { process_id: result.outputId, offset: 99_999, limit: 3 });
      expect(page).toMatchObject({
        lines: [{ line: 99_999, text: "99999" }, { line: 100_000, text: "100000" }, { line: 100_001, text: "100001" }],
        nextOffset: 100_002,
      });
      const last = await ok(tools, "process_output", { process_id: result.outputId, offset: LINES });
      expect(last).toMatchObject({ lines: [{ line: LINES, text: String(LINES) }], nextOffset: null });
    },
    120_000,
  );

  test("a non-zero exit and a timeout keep their output too", async () => {
    const tools = await registry();
    const failed = await ok(tools, "shell", { command: `seq 1 ${LINES}; echo oops >&2; exit 3` });
    expect(failed.exitCode).toBe(3);
    expect(await ok(tools, "process_output", { process_id: failed.outputId, regex: "^77777$" })).toMatchObject({
      matches: [{ line: 77_777, text: "77777" }],
      exitCode: 3,
    });
    expect(await ok(tools, "process_output", { process_id: failed.outputId, offset: 1, stream: "stderr" }))
      .toMatchObject({ stream: "stderr", lines: [{ line: 1, text: "oops" }], nextOffset: null });
    const timedOut = await callTool(tools, "shell", {
      command: `seq 1 ${LINES}; echo marker-line; sleep 30`,
      timeout_ms: 3_000,
    });
    expect(timedOut.body.error.code).toBe("SHELL_TIMEOUT");
    const id = timedOut.body.error.details.outputId;
    expect(await ok(tools, "process_output", { process_id: id, regex: "^marker-line$" })).toMatchObject({
      matches: [{ line: LINES + 1, text: "marker-line" }],
    });
  }, 120_000);

  test("node_process keeps its output, under its own id, its temp path hidden", async () => {
    const tools = await registry();
    const result = await ok(tools, "node_process", {
      source:
        "process.stdout.write(Array.from({ length: 50000 }, (_, i) => 'row ' + (i + 1)).join('\\n') + '\\n' + __filename + '\\n');",
    });
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stdoutOmittedLines).toBeGreaterThan(0);
    const found = await ok(tools, "process_output", { process_id: result.outputId, regex: "^row 25000$" });
    expect(found.matches).toEqual([{ line: 25_000, text: "row 25000" }]);
    const end = await ok(tools, "process_output", { process_id: result.outputId, offset: 50_001 });
    expect(end.lines).toEqual([{ line: 50_001, text: "<script>" }]);
  }, 120_000);

  test("a background process's whole output is paged and searched while it runs, the live read goes on", async () => {
    const tools = await registry();
    const started = await ok(tools, "shell", { command: "seq 1 5000; sleep 30", background: true });
    const id = started.process_id;
    for (let attempt = 0; attempt < 200; attempt++) {
      const page = await ok(tools, "process_output", { process_id: id, regex: "^5000$" });
      if (page.matches.length === 1) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await ok(tools, "process_output", { process_id: id, regex: "^4321$" })).toMatchObject({
      status: "running",
      matches: [{ line: 4321, text: "4321" }],
    });
    const live = await ok(tools, "process_output", { process_id: id });
    expect(live.stdout.startsWith("1\n2\n")).toBe(true);
    await ok(tools, "process_kill", { process_id: id });
  }, 120_000);

  test(
    "a malformed or hostile pattern is INVALID_PATTERN or matches in linear time; an unknown id is PROCESS_NOT_FOUND",
    async () => {
      const tools = await registry();
      const result = await ok(tools, "shell", {
        command: "printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\\n'",
      });
      const bad = await callTool(tools, "process_output", { process_id: result.outputId, regex: "(" });
      expect(bad.body.error.code).toBe("TOOL_ARGUMENTS_INVALID");
      expect(bad.body.error.message).toContain("INVALID_PATTERN");
      // A backtracking engine takes exponential time here; RE2 does not.
      const hostile = await ok(tools, "process_output", { process_id: result.outputId, regex: "^(a+)+$" });
      expect(hostile.matches).toEqual([]);
      const unknown = await callTool(tools, "process_output", { process_id: "p999", offset: 1 });
      expect(unknown.body.error.code).toBe("PROCESS_NOT_FOUND");
    },
    60_000,
  );

  test(`at most ${MAX_KEPT_OUTPUTS} outputs are kept per workspace: the oldest is forgotten`, async () => {
    const tools = await registry();
    const ids: string[] = [];
    for (let n = 0; n <= MAX_KEPT_OUTPUTS; n++) {
      ids.push((await ok(tools, "shell", { command: `echo run${n}` })).outputId);
    }
    const first = await callTool(tools, "process_output", { process_id: ids[0], offset: 1 });
    expect(first.body.error.code).toBe("PROCESS_NOT_FOUND");
    expect((await ok(tools, "process_output", { process_id: ids[1], offset: 1 })).lines).toEqual([
      { line: 1, text: "run1" },
    ]);
  }, 60_000);
});

describe("kept output through MCP", () => {
  test(
    "the shell result's outputId is searched by process_output; the client accepts both against their output schemas",
    async () => {
      const fixture = await diskFixture([]);
      fixtures.push(fixture);
      const { server } = await createPaddockMcpServer({
        root: fixture.workspace,
        shell: { mode: "allow", patterns: ["seq"] },
      });
      const client = await inMemoryClient(server);
      await client.listTools(); // the client validates each result against the tool's advertised outputSchema
      const ran = await client.callTool({ name: "shell", arguments: { command: `seq 1 ${LINES}` } });
      const result = ran.structuredContent as Body;
      expect(result).toMatchObject({ exitCode: 0, stdoutTruncated: true, outputId: expect.stringMatching(/^p\d+$/) });
      const found = await client.callTool({
        name: "process_output",
        arguments: { process_id: result.outputId, regex: "^150000$" },
      });
      expect(found.isError).toBeFalsy();
      expect((found.structuredContent as Body).matches).toEqual([{ line: 150_000, text: "150000" }]);
      await client.close();
    },
    120_000,
  );
});

describe("KeptStream", () => {
  test(`keeps at most ${KEPT_OUTPUT_MAX_BYTES} bytes, the latest; line numbers stay those of the whole stream`, () => {
    const stream = new KeptStream(1_000);
    for (let n = 1; n <= 1_000; n++) stream.push(encodeUtf8(`line ${n}\n`));
    expect(stream.totalLines).toBe(1_000);
    const page = stream.page(1, 2, OUTPUT_MAX_LINE_CHARS);
    expect(page.firstKeptLine).toBeGreaterThan(800);
    // The first kept line may be the rest of a cut one; the next is whole, numbered as printed.
    expect(page.lines[1]).toEqual({ line: page.firstKeptLine + 1, text: `line ${page.firstKeptLine + 1}` });
    expect(stream.search("^line 1000$", 10, OUTPUT_MAX_LINE_CHARS).matches).toEqual([{
      line: 1_000,
      text: "line 1000",
    }]);
    expect(stream.search("^line 5$", 10, OUTPUT_MAX_LINE_CHARS).matches).toEqual([]);
  });

  test(`a line over ${OUTPUT_MAX_LINE_CHARS} characters is clipped, with the count left out; a page is at most ${PROCESS_OUTPUT_MAX_LINES} lines`, () => {
    const stream = new KeptStream();
    stream.push(encodeUtf8("y".repeat(OUTPUT_MAX_LINE_CHARS + 500) + "\n" + "z\n".repeat(1_000)));
    const page = stream.page(1, PROCESS_OUTPUT_MAX_LINES, OUTPUT_MAX_LINE_CHARS);
    expect(page.lines[0].text).toBe("y".repeat(OUTPUT_MAX_LINE_CHARS) + "[… 500 more characters]");
    expect(page.lines.length).toBe(PROCESS_OUTPUT_MAX_LINES);
    expect(page.nextOffset).toBe(PROCESS_OUTPUT_MAX_LINES + 1);
  });
});
