import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  type ApprovalRequest,
  type BeforeToolCallContext,
  createShellTool,
  createWriteTool,
  denyShellByDefault,
  executeToolCall,
  ToolRegistry,
  WorkspaceError,
} from "../mod.ts";
import { MemoryWorkspace } from "../testing.ts";
import { type DiskFixture, diskFixture, leftovers } from "./helpers/fixture.ts";
import { recordTool } from "./helpers/record_tool.ts";

const call = (args: unknown, name = "record") => ({ id: "c1", name, arguments: args });
const body = (content: string) => JSON.parse(content);

describe("needsApproval", () => {
  test("a tool without needsApproval runs as before, with the three-argument signature", async () => {
    const { tool, log } = recordTool();
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }));
    expect(result).toEqual({ toolCallId: "c1", toolName: "record", isError: false, content: '{"recorded":"a"}' });
    expect(log).toEqual(["a"]);
  });

  test("needsApproval: false runs without asking", async () => {
    const { tool, log } = recordTool({ needsApproval: false });
    const asked: ApprovalRequest[] = [];
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }), undefined, {
      approve: (request) => (asked.push(request), false),
    });
    expect(result.isError).toBe(false);
    expect(asked).toEqual([]);
    expect(log).toEqual(["a"]);
  });

  test("needsApproval: true without an approve callback is TOOL_APPROVAL_REQUIRED and nothing runs", async () => {
    const { tool, log } = recordTool({ needsApproval: true });
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }));
    expect(result.isError).toBe(true);
    expect(body(result.content)).toEqual({
      error: {
        code: "TOOL_APPROVAL_REQUIRED",
        message: "Cannot call 'record': the call needs a person's approval",
        hint: "this call was not run; ask the user to approve it",
      },
    });
    expect(log).toEqual([]);
  });

  test("needsApproval: true asks approve with the parsed arguments and runs when it says yes", async () => {
    const { tool, log } = recordTool({ needsApproval: true });
    const asked: ApprovalRequest[] = [];
    const result = await executeToolCall(new ToolRegistry([tool]), call('{"value":"a"}'), undefined, {
      approve: (request) => (asked.push(request), Promise.resolve(true)),
    });
    expect(result.isError).toBe(false);
    expect(asked).toEqual([{ toolCallId: "c1", toolName: "record", arguments: { value: "a" } }]);
    expect(log).toEqual(["a"]);
  });

  test("needsApproval: true and approve saying no is TOOL_CALL_DENIED and nothing runs", async () => {
    const { tool, log } = recordTool({ needsApproval: true });
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }), undefined, {
      approve: () => false,
    });
    expect(body(result.content).error).toMatchObject({
      code: "TOOL_CALL_DENIED",
      message: "Cannot call 'record': a person denied the call",
    });
    expect(log).toEqual([]);
  });

  test("a needsApproval function decides per call, from the validated input", async () => {
    const seen: unknown[] = [];
    const { tool, log } = recordTool({
      needsApproval: (input) => (seen.push(input), input.value.startsWith("rm")),
    });
    const registry = new ToolRegistry([tool]);
    const safe = await executeToolCall(registry, call({ value: "ls" }));
    const risky = await executeToolCall(registry, call({ value: "rm -rf" }));
    expect(safe.isError).toBe(false);
    expect(body(risky.content).error.code).toBe("TOOL_APPROVAL_REQUIRED");
    expect(seen).toEqual([{ value: "ls" }, { value: "rm -rf" }]);
    expect(log).toEqual(["ls"]);
  });

  test("invalid arguments are reported before approval is asked", async () => {
    const { tool } = recordTool({ needsApproval: true });
    let asked = 0;
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "" }), undefined, {
      approve: () => (asked++, true),
    });
    expect(body(result.content).error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(asked).toBe(0);
  });

  test("a needsApproval function that throws fails the call without running it", async () => {
    const { tool, log } = recordTool({
      needsApproval: () => {
        throw new Error("boom /home/secret/path");
      },
    });
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }));
    expect(body(result.content)).toEqual({
      error: {
        code: "INTERNAL_ERROR",
        message: "The tool failed unexpectedly",
        hint: expect.stringContaining("a bug"),
      },
    });
    expect(log).toEqual([]);
  });
});

describe("beforeToolCall", () => {
  test("allow, or returning nothing, lets the call run", async () => {
    const { tool, log } = recordTool();
    const registry = new ToolRegistry([tool]);
    const allowed = await executeToolCall(registry, call({ value: "a" }), undefined, {
      beforeToolCall: () => ({ action: "allow" }),
    });
    const silent = await executeToolCall(registry, call({ value: "b" }), undefined, { beforeToolCall: () => {} });
    expect([allowed.isError, silent.isError]).toEqual([false, false]);
    expect(log).toEqual(["a", "b"]);
  });

  test("a hook sees the call, the tool and the validated input", async () => {
    const { tool } = recordTool();
    const seen: BeforeToolCallContext[] = [];
    await executeToolCall(new ToolRegistry([tool]), call('{"value":"a"}'), undefined, {
      beforeToolCall: (context) => void seen.push(context),
    });
    expect(seen).toHaveLength(1);
    expect(seen[0].call).toEqual({ id: "c1", name: "record", arguments: { value: "a" } });
    expect(seen[0].tool).toBe(tool);
    expect(seen[0].input).toEqual({ value: "a" });
  });

  test("deny refuses the call with the hook's reason and hint, and nothing runs", async () => {
    const { tool, log } = recordTool();
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }), undefined, {
      beforeToolCall: () => ({ action: "deny", reason: "recording is paused", hint: "try tomorrow" }),
    });
    expect(result.isError).toBe(true);
    expect(body(result.content)).toEqual({
      error: { code: "TOOL_CALL_DENIED", message: "Cannot call 'record': recording is paused", hint: "try tomorrow" },
    });
    expect(log).toEqual([]);
  });

  test("deny wins over a later allow, and the hooks after it do not run", async () => {
    const { tool, log } = recordTool();
    let later = 0;
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }), undefined, {
      beforeToolCall: [() => ({ action: "deny", reason: "no" }), () => (later++, { action: "allow" })],
    });
    expect(body(result.content).error.code).toBe("TOOL_CALL_DENIED");
    expect(later).toBe(0);
    expect(log).toEqual([]);
  });

  test("rewrite runs the call with the new arguments, and later hooks see them", async () => {
    const { tool, log } = recordTool();
    const seenLater: unknown[] = [];
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "a" }), undefined, {
      beforeToolCall: [
        () => ({ action: "rewrite", arguments: { value: "rewritten" } }),
        ({ call, input }) => void seenLater.push(call.arguments, input),
      ],
    });
    expect(body(result.content)).toEqual({ recorded: "rewritten" });
    expect(seenLater).toEqual([{ value: "rewritten" }, { value: "rewritten" }]);
    expect(log).toEqual(["rewritten"]);
  });

  test("rewritten arguments are validated again: invalid ones fail the call and nothing runs", async () => {
    const { tool, log } = recordTool();
    const registry = new ToolRegistry([tool]);
    const tooLong = await executeToolCall(registry, call({ value: "a" }), undefined, {
      beforeToolCall: () => ({ action: "rewrite", arguments: { value: "far too long a value" } }),
    });
    const extra = await executeToolCall(registry, call({ value: "a" }), undefined, {
      beforeToolCall: () => ({ action: "rewrite", arguments: { value: "a", sneaky: true } }),
    });
    const badJson = await executeToolCall(registry, call({ value: "a" }), undefined, {
      beforeToolCall: () => ({ action: "rewrite", arguments: "{not json" }),
    });
    expect(body(tooLong.content).error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(body(extra.content).error).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "INVALID_ARGUMENTS",
      hint: "unknown property 'sneaky'",
    });
    expect(body(badJson.content).error).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "INVALID_JSON",
      hint: expect.stringContaining("send one JSON object"),
    });
    expect(log).toEqual([]);
  });

  test("approval is decided on the rewritten input and shown with the rewritten arguments", async () => {
    const { tool, log } = recordTool({ needsApproval: (input) => input.value === "risky" });
    const asked: ApprovalRequest[] = [];
    const result = await executeToolCall(new ToolRegistry([tool]), call({ value: "safe" }), undefined, {
      beforeToolCall: () => ({ action: "rewrite", arguments: { value: "risky" } }),
      approve: (request) => (asked.push(request), false),
    });
    expect(asked).toEqual([{ toolCallId: "c1", toolName: "record", arguments: { value: "risky" } }]);
    expect(body(result.content).error.code).toBe("TOOL_CALL_DENIED");
    expect(log).toEqual([]);
  });

  test("a hook that throws fails the call: a WorkspaceError keeps its code, anything else is INTERNAL_ERROR", async () => {
    const { tool, log } = recordTool();
    const registry = new ToolRegistry([tool]);
    const coded = await executeToolCall(registry, call({ value: "a" }), undefined, {
      beforeToolCall: () => {
        throw new WorkspaceError("TOOL_CALL_DENIED", "Cannot call 'record': the policy service is down");
      },
    });
    const crashed = await executeToolCall(registry, call({ value: "a" }), undefined, {
      beforeToolCall: () => Promise.reject(new Error("at /srv/policy.js:12")),
    });
    expect(body(coded.content).error).toEqual({
      code: "TOOL_CALL_DENIED",
      message: "Cannot call 'record': the policy service is down",
      hint: "do not retry the same call; ask the user how to proceed",
    });
    expect(body(crashed.content).error).toEqual({
      code: "INTERNAL_ERROR",
      message: "The tool failed unexpectedly",
      hint: expect.stringContaining("a bug"),
    });
    expect(log).toEqual([]);
  });

  test("hooks do not run for an unknown tool or invalid arguments", async () => {
    const { tool } = recordTool();
    let ran = 0;
    const options = { beforeToolCall: () => void ran++ };
    const registry = new ToolRegistry([tool]);
    const unknown = await executeToolCall(registry, call({ value: "a" }, "nope"), undefined, options);
    const invalid = await executeToolCall(registry, call({ value: 1 }), undefined, options);
    expect(body(unknown.content).error.code).toBe("TOOL_NOT_FOUND");
    expect(body(invalid.content).error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(ran).toBe(0);
  });
});

describe("denyShellByDefault()", () => {
  const shellCall = (command: string) => call({ value: command }, "shell");

  test("refuses every call to the shell tool with TOOL_CALL_DENIED and nothing runs", async () => {
    const shell = recordTool({ name: "shell" });
    const result = await executeToolCall(new ToolRegistry([shell.tool]), shellCall("ls"), undefined, {
      beforeToolCall: denyShellByDefault(),
    });
    expect(body(result.content)).toEqual({
      error: {
        code: "TOOL_CALL_DENIED",
        message: "Cannot call 'shell': shell commands are turned off in this workspace",
        hint: "use the file tools (read_file, write_file, edit_file) instead, or ask the user to run the command",
      },
    });
    expect(shell.log).toEqual([]);
  });

  test("leaves other tools alone", async () => {
    const other = recordTool();
    const result = await executeToolCall(new ToolRegistry([other.tool]), call({ value: "a" }), undefined, {
      beforeToolCall: denyShellByDefault(),
    });
    expect(result.isError).toBe(false);
    expect(other.log).toEqual(["a"]);
  });

  test("lets through what `except` accepts, and covers renamed shell tools through toolNames", async () => {
    const bash = recordTool({ name: "bash" });
    const hook = denyShellByDefault({
      toolNames: ["bash"],
      reason: "no shell here",
      except: ({ input }) => (input as { value: string }).value === "npm test",
    });
    const registry = new ToolRegistry([bash.tool]);
    const tests = await executeToolCall(registry, call({ value: "npm test" }, "bash"), undefined, {
      beforeToolCall: hook,
    });
    const curl = await executeToolCall(registry, call({ value: "curl x" }, "bash"), undefined, {
      beforeToolCall: hook,
    });
    expect(tests.isError).toBe(false);
    expect(body(curl.content).error.message).toBe("Cannot call 'bash': no shell here");
    expect(bash.log).toEqual(["npm test"]);
  });
});

describe("the approval gate on a real workspace", () => {
  let fixture: DiskFixture | undefined;
  afterEach(() => {
    fixture?.cleanup();
    fixture = undefined;
  });

  test("write_file denied by a hook or by a person leaves the workspace untouched", async () => {
    fixture = await diskFixture(["keep.txt=old"]);
    const write = createWriteTool(fixture.workspace);
    const registry = new ToolRegistry([{ ...write, needsApproval: true }]);
    const byHook = await executeToolCall(
      registry,
      { id: "1", name: "write_file", arguments: { path: "keep.txt", content: "new" } },
      undefined,
      { beforeToolCall: () => ({ action: "deny", reason: "read-only session" }), approve: () => true },
    );
    const byPerson = await executeToolCall(
      registry,
      { id: "2", name: "write_file", arguments: { path: "made.txt", content: "new" } },
      undefined,
      { approve: () => false },
    );
    expect(body(byHook.content).error.code).toBe("TOOL_CALL_DENIED");
    expect(body(byPerson.content).error.code).toBe("TOOL_CALL_DENIED");
    expect(fs.readFileSync(path.join(fixture.root, "keep.txt"), "utf8")).toBe("old");
    expect(fs.existsSync(path.join(fixture.root, "made.txt"))).toBe(false);
    expect(leftovers(fixture.root)).toEqual([]);
  });

  test("a rewrite into an escaping path is refused by validation, and nothing is written outside", async () => {
    fixture = await diskFixture([]);
    const registry = new ToolRegistry([createWriteTool(fixture.workspace)]);
    const result = await executeToolCall(
      registry,
      { id: "1", name: "write_file", arguments: { path: "ok.txt", content: "x" } },
      undefined,
      { beforeToolCall: () => ({ action: "rewrite", arguments: { path: "../outside/pwned.txt", content: "x" } }) },
    );
    expect(body(result.content).error).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "INVALID_RELATIVE_PATH",
      hint: expect.stringContaining("would leave the workspace"),
    });
    expect(fixture.listAll()).toEqual(["outside/", "outside/secret.txt", "workspace/"]);
  });
});

describe("the shell tool behind the gate (over a MemoryWorkspace)", () => {
  const workspace = () => new MemoryWorkspace({ exec: { "npm test": "1 passed\n", "ls": "a\n" } });
  const shellCall = (command: string) => ({ id: command, name: "shell", arguments: { command } });

  test("by default a command needs approval: without approve nothing runs, with it the command runs once", async () => {
    const ws = workspace();
    const registry = new ToolRegistry([createShellTool(ws)]);
    const refused = await executeToolCall(registry, shellCall("npm test"));
    expect(body(refused.content).error.code).toBe("TOOL_APPROVAL_REQUIRED");
    expect(ws.commands.map((c) => c.command)).toEqual([]);
    const asked: ApprovalRequest[] = [];
    const approved = await executeToolCall(registry, shellCall("npm test"), undefined, {
      approve: (request) => (asked.push(request), true),
    });
    expect(body(approved.content)).toMatchObject({ exitCode: 0, stdout: "1 passed\n" });
    expect(asked).toEqual([{ toolCallId: "npm test", toolName: "shell", arguments: { command: "npm test" } }]);
    expect(ws.commands.map((c) => c.command)).toEqual(["npm test"]);
  });

  test("denyShellByDefault refuses before approval is asked; `except` lets one command through to the gate", async () => {
    const ws = workspace();
    const registry = new ToolRegistry([createShellTool(ws, { needsApproval: (command) => command !== "npm test" })]);
    let asked = 0;
    const options = {
      beforeToolCall: denyShellByDefault({
        except: ({ input }) => (input as { command: string }).command === "npm test",
      }),
      approve: () => (asked++, true),
    };
    const ls = await executeToolCall(registry, shellCall("ls"), undefined, options);
    const tests = await executeToolCall(registry, shellCall("npm test"), undefined, options);
    expect(body(ls.content).error.code).toBe("TOOL_CALL_DENIED");
    expect(tests.isError).toBe(false);
    expect(asked).toBe(0);
    expect(ws.commands.map((c) => c.command)).toEqual(["npm test"]);
  });

  test("the shell's own deny list refuses before hooks and approval (SHELL_COMMAND_DENIED), nothing runs", async () => {
    const ws = workspace();
    const registry = new ToolRegistry([createShellTool(ws, { deny: ["rm"] })]);
    let hooks = 0;
    let asked = 0;
    const result = await executeToolCall(registry, shellCall("ls; rm -rf ."), undefined, {
      beforeToolCall: () => void hooks++,
      approve: () => (asked++, true),
    });
    expect(body(result.content).error.code).toBe("SHELL_COMMAND_DENIED");
    expect([hooks, asked]).toEqual([0, 0]);
    expect(ws.commands.map((c) => c.command)).toEqual([]);
  });
});
