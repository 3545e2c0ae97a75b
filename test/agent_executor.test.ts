import { describe, expect, test } from "vitest";
import {
  AgentExecutor,
  type AgentMessage,
  type AgentRunResult,
  type AgentRunState,
  ApprovalRequiredError,
  createAgent,
  denyShellByDefault,
  InMemoryApprovalStore,
  type ModelProvider,
  ToolRegistry,
  WorkspaceError,
} from "../mod.ts";
import { AGENT_MAX_STEPS } from "../src/core/limits.ts";
import { mockModel } from "../testing.ts";
import { recordTool } from "./helpers/record_tool.ts";

const agent = { instructions: "You record things." };
const toolMessages = (messages: readonly AgentMessage[]) =>
  messages.flatMap((message) =>
    message.role === "tool"
      ? [{ id: message.toolCallId, isError: message.isError, body: JSON.parse(message.content) }]
      : []
  );

function expectPaused(run: AgentRunResult): Extract<AgentRunResult, { finishReason: "awaiting-approval" }> {
  expect(run.finishReason).toBe("awaiting-approval");
  if (run.finishReason !== "awaiting-approval") throw new Error("not paused");
  return run;
}

describe("AgentExecutor.execute()", () => {
  test("runs the loop: the model calls a tool, sees its result, then answers", async () => {
    const { tool, log } = recordTool();
    const model = mockModel([{ toolCalls: [{ name: "record", args: { value: "a" } }] }, "Recorded a."]);
    const run = await new AgentExecutor().execute({
      agent,
      input: "record a",
      provider: model,
      toolRegistry: new ToolRegistry([tool]),
    });
    expect(run).toEqual({
      finishReason: "stop",
      text: "Recorded a.",
      steps: 2,
      messages: [
        { role: "user", content: "record a" },
        { role: "assistant", toolCalls: [{ id: "call_1_1", name: "record", arguments: { value: "a" } }] },
        { role: "tool", toolCallId: "call_1_1", toolName: "record", isError: false, content: '{"recorded":"a"}' },
        { role: "assistant", content: "Recorded a." },
      ],
    });
    expect(log).toEqual(["a"]);
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0].instructions).toBe("You record things.");
    expect(model.requests[0].tools.map((definition) => definition.name)).toEqual(["record"]);
    expect(model.requests[1].messages).toEqual(run.messages.slice(0, 3));
  });

  test("runs the calls of one turn one after the other, and returns the results in the same order", async () => {
    // The first call is the slowest: run concurrently, it would finish last.
    const { tool, trace } = recordTool({ delayMs: (value) => ({ one: 30, two: 10, three: 0 })[value] ?? 0 });
    const model = mockModel([
      {
        toolCalls: [
          { name: "record", args: { value: "one" } },
          { name: "record", args: { value: "two" } },
          { name: "record", args: { value: "three" } },
        ],
      },
      "done",
    ]);
    const run = await new AgentExecutor().execute({
      agent,
      input: "go",
      provider: model,
      toolRegistry: new ToolRegistry([tool]),
    });
    expect(trace).toEqual(["start:one", "end:one", "start:two", "end:two", "start:three", "end:three"]);
    expect(toolMessages(run.messages).map((message) => message.body.recorded)).toEqual(["one", "two", "three"]);
  });

  test("bad calls become error results the model sees, and the loop goes on", async () => {
    const { tool, log } = recordTool();
    const model = mockModel([
      {
        toolCalls: [
          { name: "nope", args: {} },
          { name: "record", args: { value: 42 } },
          { name: "record", args: { value: "ok" } },
        ],
      },
      "sorry",
    ]);
    const run = await new AgentExecutor().execute({
      agent,
      input: "go",
      provider: model,
      toolRegistry: new ToolRegistry([tool]),
    });
    expect(toolMessages(model.requests[1].messages).map((message) => message.body.error?.code ?? "ok")).toEqual([
      "TOOL_NOT_FOUND",
      "TOOL_ARGUMENTS_INVALID",
      "ok",
    ]);
    expect(run.finishReason).toBe("stop");
    expect(log).toEqual(["ok"]);
  });

  test("beforeToolCall hooks of the agent apply to every call (deny shell by default)", async () => {
    const shell = recordTool({ name: "shell" });
    const model = mockModel([{ toolCalls: [{ name: "shell", args: { value: "ls" } }] }, "ok"]);
    await new AgentExecutor().execute({
      agent: { ...agent, beforeToolCall: denyShellByDefault() },
      input: "go",
      provider: model,
      toolRegistry: new ToolRegistry([shell.tool]),
    });
    expect(toolMessages(model.requests[1].messages)[0].body.error.code).toBe("TOOL_CALL_DENIED");
    expect(shell.log).toEqual([]);
  });

  test(`stops with finishReason "max-steps" after ${AGENT_MAX_STEPS} model calls by default, or agent.maxSteps`, async () => {
    const { tool } = recordTool();
    const forever: ModelProvider = {
      generate: () => Promise.resolve({ toolCalls: [{ name: "record", arguments: { value: "again" } }] }),
    };
    const registry = new ToolRegistry([tool]);
    const byDefault = await new AgentExecutor().execute({
      agent,
      input: "go",
      provider: forever,
      toolRegistry: registry,
    });
    const limited = await new AgentExecutor().execute({
      agent: { ...agent, maxSteps: 3 },
      input: "go",
      provider: forever,
      toolRegistry: registry,
    });
    expect(byDefault.finishReason).toBe("max-steps");
    expect(byDefault.steps).toBe(AGENT_MAX_STEPS);
    expect(limited.finishReason).toBe("max-steps");
    expect(limited.steps).toBe(3);
    // The last turn's results are in the transcript, ready to go on with as history.
    expect(limited.messages.at(-1)?.role).toBe("tool");
  });

  test("an aborted signal rejects with an AbortError before the model is asked", async () => {
    const model = mockModel(["never"]);
    const controller = new AbortController();
    controller.abort();
    await expect(
      new AgentExecutor().execute({
        agent,
        input: "go",
        provider: model,
        toolRegistry: new ToolRegistry([]),
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(model.requests).toEqual([]);
  });
});

describe("pausing for approval", () => {
  function setup() {
    const plain = recordTool();
    const gated = recordTool({ name: "gated", needsApproval: true });
    const registry = new ToolRegistry([plain.tool, gated.tool]);
    const script = () =>
      mockModel([
        {
          toolCalls: [
            { name: "record", args: { value: "before" } },
            { name: "gated", args: { value: "approve" } },
            { name: "gated", args: { value: "deny" } },
            { name: "record", args: { value: "after" } },
          ],
        },
        "all done",
      ]);
    return { plain, gated, registry, script };
  }

  test("stops before the call's side effect, with the pending calls; calls after it wait", async () => {
    const { plain, gated, registry, script } = setup();
    const run = expectPaused(
      await new AgentExecutor().execute({ agent, input: "go", provider: script(), toolRegistry: registry }),
    );
    expect(run.pendingApprovals).toEqual([
      { toolCallId: "call_1_2", toolName: "gated", arguments: { value: "approve" } },
      { toolCallId: "call_1_3", toolName: "gated", arguments: { value: "deny" } },
    ]);
    expect(plain.log).toEqual(["before"]);
    expect(gated.log).toEqual([]);
    expect(run.state.toolCalls.map((entry) => entry.status)).toEqual([
      "done",
      "awaiting-approval",
      "awaiting-approval",
      "queued",
    ]);
  });

  test("pause → JSON → resume in a fresh executor: the approved call runs once, the denied one never", async () => {
    const { plain, gated, registry, script } = setup();
    const model = script();
    const paused = expectPaused(
      await new AgentExecutor().execute({ agent, input: "go", provider: model, toolRegistry: registry }),
    );
    const stored = JSON.stringify(paused.state);
    const state = JSON.parse(stored) as AgentRunState;
    expect(state).toEqual(paused.state);

    const done = await new AgentExecutor().resumeAfterApproval({
      agent,
      state,
      decisions: [
        { toolCallId: "call_1_2", approved: true },
        { toolCallId: "call_1_3", approved: false, reason: "not today" },
      ],
      provider: model,
      toolRegistry: registry,
    });
    expect(done).toMatchObject({ finishReason: "stop", text: "all done", steps: 2 });
    expect(gated.log).toEqual(["approve"]);
    expect(plain.log).toEqual(["before", "after"]);
    // The model sees every result, in the order of its calls.
    expect(toolMessages(model.requests[1].messages)).toEqual([
      { id: "call_1_1", isError: false, body: { recorded: "before" } },
      { id: "call_1_2", isError: false, body: { recorded: "approve" } },
      {
        id: "call_1_3",
        isError: true,
        body: {
          error: {
            code: "TOOL_CALL_DENIED",
            message: "Cannot call 'gated': not today",
            hint: "do not retry the same call; ask the user how to proceed",
          },
        },
      },
      { id: "call_1_4", isError: false, body: { recorded: "after" } },
    ]);
  });

  test("the approved call runs with the arguments shown, validated again when the stored state was edited", async () => {
    const { gated, registry, script } = setup();
    const paused = expectPaused(
      await new AgentExecutor().execute({ agent, input: "go", provider: script(), toolRegistry: registry }),
    );
    const state = JSON.parse(JSON.stringify(paused.state)) as AgentRunState;
    const entry = state.toolCalls[1];
    if (entry.status !== "awaiting-approval") throw new Error("unexpected state");
    entry.call.arguments = { value: "way too long for the schema" };
    const model = mockModel(["ok"]);
    await new AgentExecutor().resumeAfterApproval({
      agent,
      state,
      decisions: [{ toolCallId: "call_1_2", approved: true }, { toolCallId: "call_1_3", approved: false }],
      provider: model,
      toolRegistry: registry,
    });
    expect(toolMessages(model.requests[0].messages)[1].body.error.code).toBe("TOOL_ARGUMENTS_INVALID");
    expect(gated.log).toEqual([]);
  });

  test("resuming without a decision for every pending call, or with a stranger's, throws and runs nothing", async () => {
    const { plain, gated, registry, script } = setup();
    const paused = expectPaused(
      await new AgentExecutor().execute({ agent, input: "go", provider: script(), toolRegistry: registry }),
    );
    const base = { agent, state: paused.state, provider: mockModel([]), toolRegistry: registry };
    await expect(
      new AgentExecutor().resumeAfterApproval({ ...base, decisions: [{ toolCallId: "call_1_2", approved: true }] }),
    ).rejects.toThrow("Cannot resume the run: no decision for tool call 'call_1_3'");
    await expect(
      new AgentExecutor().resumeAfterApproval({
        ...base,
        decisions: [
          { toolCallId: "call_1_2", approved: true },
          { toolCallId: "call_1_3", approved: true },
          { toolCallId: "call_1_1", approved: true },
        ],
      }),
    ).rejects.toThrow("Cannot resume the run: tool call 'call_1_1' is not awaiting approval");
    await expect(
      new AgentExecutor().resumeAfterApproval({
        ...base,
        state: { version: 2 } as unknown as AgentRunState,
        decisions: [],
      }),
    ).rejects.toThrow("Cannot resume the run: the state is not a paused agent run (version 1)");
    expect(gated.log).toEqual([]);
    expect(plain.log).toEqual(["before"]);
  });

  test("a remembered decision is used instead of pausing: same call approved, whole tool denied", async () => {
    const gated = recordTool({ name: "gated", needsApproval: true });
    const registry = new ToolRegistry([gated.tool]);
    const approvalStore = new InMemoryApprovalStore();
    const first = expectPaused(
      await new AgentExecutor().execute({
        agent,
        input: "go",
        provider: mockModel([{ toolCalls: [{ name: "gated", args: { value: "x" } }] }]),
        toolRegistry: registry,
        approvalStore,
      }),
    );
    await new AgentExecutor().resumeAfterApproval({
      agent,
      state: first.state,
      decisions: [{ toolCallId: "call_1_1", approved: true, remember: "call" }],
      provider: mockModel(["ok"]),
      toolRegistry: registry,
      approvalStore,
    });
    expect(gated.log).toEqual(["x"]);

    // The same call again runs without asking; another value still pauses.
    const again = await new AgentExecutor().execute({
      agent,
      input: "again",
      provider: mockModel([{ toolCalls: [{ name: "gated", args: { value: "x" } }] }, "ok"]),
      toolRegistry: registry,
      approvalStore,
    });
    expect(again.finishReason).toBe("stop");
    expect(gated.log).toEqual(["x", "x"]);
    const other = await new AgentExecutor().execute({
      agent,
      input: "other",
      provider: mockModel([{ toolCalls: [{ name: "gated", args: { value: "y" } }] }]),
      toolRegistry: registry,
      approvalStore,
    });
    expect(other.finishReason).toBe("awaiting-approval");

    // A tool-wide denial refuses without pausing; the exact approval still wins for its call.
    await approvalStore.remember({ toolName: "gated", scope: "tool", approved: false, reason: "gated is off" });
    const model = mockModel([
      { toolCalls: [{ name: "gated", args: { value: "z" } }, { name: "gated", args: { value: "x" } }] },
      "ok",
    ]);
    const denied = await new AgentExecutor().execute({
      agent,
      input: "z",
      provider: model,
      toolRegistry: registry,
      approvalStore,
    });
    expect(denied.finishReason).toBe("stop");
    expect(toolMessages(model.requests[1].messages).map((message) => message.body.error?.message ?? "ran")).toEqual([
      "Cannot call 'gated': gated is off",
      "ran",
    ]);
    expect(gated.log).toEqual(["x", "x", "x"]);
  });
});

describe("createAgent()", () => {
  test("send() returns the final text and the transcript, and keeps the conversation", async () => {
    const { tool, log } = recordTool();
    const model = mockModel([{ toolCalls: [{ name: "record", args: { value: "a" } }] }, "first", "second"]);
    const chat = createAgent({ instructions: "Be brief.", provider: model, tools: [tool] });
    const first = await chat.send("hello");
    expect(first.text).toBe("first");
    expect(first.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    const second = await chat.send("again");
    expect(second.text).toBe("second");
    expect(second.messages).toHaveLength(6);
    expect(chat.messages).toEqual(second.messages);
    expect(model.requests[2].messages.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(log).toEqual(["a"]);
  });

  test("send() throws ApprovalRequiredError when a call needs approval, and resume() finishes the run", async () => {
    const gated = recordTool({ name: "gated", needsApproval: true });
    const model = mockModel([{ toolCalls: [{ name: "gated", args: { value: "a" } }] }, "done"]);
    const chat = createAgent({ instructions: "", provider: model, tools: [gated.tool] });
    const error = await chat.send("go").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApprovalRequiredError);
    expect(error).toBeInstanceOf(WorkspaceError);
    const paused = error as ApprovalRequiredError;
    expect(paused.code).toBe("TOOL_APPROVAL_REQUIRED");
    expect(paused.message).toBe("Cannot finish the run: 'gated' needs a person's approval");
    expect(paused.pendingApprovals).toEqual([{ toolCallId: "call_1_1", toolName: "gated", arguments: { value: "a" } }]);
    expect(gated.log).toEqual([]);
    const reply = await chat.resume(JSON.parse(JSON.stringify(paused.state)), [
      { toolCallId: "call_1_1", approved: true },
    ]);
    expect(reply.text).toBe("done");
    expect(gated.log).toEqual(["a"]);
  });

  test("send() throws AGENT_MAX_STEPS when the model never answers", async () => {
    const { tool } = recordTool();
    const model = mockModel([
      { toolCalls: [{ name: "record", args: { value: "1" } }] },
      { toolCalls: [{ name: "record", args: { value: "2" } }] },
    ]);
    const chat = createAgent({ instructions: "", provider: model, tools: [tool], maxSteps: 2 });
    await expect(chat.send("go")).rejects.toMatchObject({
      code: "AGENT_MAX_STEPS",
      message: "Cannot finish the run: the model made 2 calls without a final answer",
    });
  });
});

describe("mockModel()", () => {
  test("running past the last step is a clear error", async () => {
    const model = mockModel(["only"]);
    const request = { instructions: "", messages: [], tools: [] };
    expect(await model.generate(request)).toEqual({ text: "only" });
    expect(model.remaining).toBe(0);
    await expect(model.generate(request)).rejects.toThrow("mockModel: called 2 times, but the script has only 1 step");
  });

  test("records copies of the requests, without the signal", async () => {
    const model = mockModel([{ text: "calling", toolCalls: [{ name: "t", args: { a: 1 }, id: "mine" }] }]);
    const messages: AgentMessage[] = [{ role: "user", content: "hi" }];
    const response = await model.generate({
      instructions: "sys",
      messages,
      tools: [],
      signal: new AbortController().signal,
    });
    messages.push({ role: "user", content: "later" });
    expect(response).toEqual({ text: "calling", toolCalls: [{ id: "mine", name: "t", arguments: { a: 1 } }] });
    expect(model.requests).toEqual([{ instructions: "sys", messages: [{ role: "user", content: "hi" }], tools: [] }]);
  });
});

describe("call ids and cancellation", () => {
  test("a missing or repeated call id is replaced, so results and decisions name one call each", async () => {
    const { tool } = recordTool();
    const provider: ModelProvider & { calls: number } = {
      calls: 0,
      generate() {
        this.calls++;
        return Promise.resolve(
          this.calls === 1
            ? {
              toolCalls: [
                { id: "same", name: "record", arguments: { value: "a" } },
                { id: "same", name: "record", arguments: { value: "b" } },
                { name: "record", arguments: { value: "c" } },
              ],
            }
            : { text: "ok" },
        );
      },
    };
    const run = await new AgentExecutor().execute({
      agent,
      input: "go",
      provider,
      toolRegistry: new ToolRegistry([tool]),
    });
    expect(toolMessages(run.messages).map((message) => message.id)).toEqual(["same", "call_1_2", "call_1_3"]);
  });

  test("aborting while a tool runs rejects the run with an AbortError", async () => {
    const controller = new AbortController();
    const { tool } = recordTool();
    const waiting = {
      ...tool,
      name: "wait",
      run: (_input: unknown, options?: { signal?: AbortSignal }) =>
        new Promise((_resolve, reject) => {
          options?.signal?.addEventListener("abort", () => reject(options.signal?.reason));
          controller.abort();
        }),
    };
    const model = mockModel([{ toolCalls: [{ name: "wait", args: { value: "x" } }] }, "never"]);
    await expect(
      new AgentExecutor().execute({
        agent,
        input: "go",
        provider: model,
        toolRegistry: new ToolRegistry([waiting]),
        signal: controller.signal,
      }),
    ).rejects.toMatchObject({ name: "AbortError" });
    expect(model.requests).toHaveLength(1);
  });
});
