// One round trip through each supported `ai` major (5, 6 and 7, installed as
// `ai`, `ai6` and `ai7`), with that major's own mock model: outputs reach the
// model as `json`, Paddock's errors as `error-json`, and ai 6 and 7's
// `needsApproval` flow holds a call until a person approves it.
import * as fs from "node:fs";
import * as path from "node:path";
import * as ai5 from "ai";
import * as ai5test from "ai/test";
import * as ai6 from "ai6";
import * as ai6test from "ai6/test";
import * as ai7 from "ai7";
import * as ai7test from "ai7/test";
import { afterEach, describe, expect, test } from "vitest";
import { createCodingTools } from "../mod.ts";
import { toAISDKTools } from "../src/adapters/ai_sdk.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { recordTool } from "./helpers/record_tool.ts";
import { skipNote } from "./helpers/runtime.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

/** One scripted model turn: a tool call, or a final text. */
type Turn = { call: [toolCallId: string, toolName: string, input: unknown] } | { text: string };

/** What the tests read from a prompt the mock model received. */
interface PromptMessage {
  role: string;
  content: string | { type: string; toolCallId?: string; output?: unknown }[];
}

/** The parts of one major the tests use, behind one loose shape (each major's own types differ). */
interface Major {
  name: string;
  // deno-lint-ignore no-explicit-any
  generateText: (options: any) => Promise<any>;
  stepCountIs: (steps: number) => unknown;
  /** A mock model answering with `turns` in order; `prompts` are the prompts it was called with. */
  mockModel: (turns: Turn[]) => { model: unknown; prompts: () => PromptMessage[][] };
  /** Whether the SDK has tool approvals (`needsApproval`). */
  approvals: boolean;
}

const v2Usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const v3Usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A doGenerate result of the given spec version for `turn`. */
function generateResult(turn: Turn, spec: "v2" | "v3"): unknown {
  const content = "text" in turn
    ? [{ type: "text", text: turn.text }]
    : [{ type: "tool-call", toolCallId: turn.call[0], toolName: turn.call[1], input: JSON.stringify(turn.call[2]) }];
  const reason = "text" in turn ? "stop" : "tool-calls";
  return spec === "v2"
    ? { content, finishReason: reason, usage: v2Usage, warnings: [] }
    : { content, finishReason: { unified: reason, raw: reason }, usage: v3Usage, warnings: [] };
}

const majors: Major[] = [
  {
    name: "ai 5",
    generateText: ai5.generateText,
    stepCountIs: ai5.stepCountIs,
    mockModel: (turns) => {
      const model = new ai5test.MockLanguageModelV2({ doGenerate: turns.map((t) => generateResult(t, "v2")) as never });
      return { model, prompts: () => model.doGenerateCalls.map((call) => call.prompt as PromptMessage[]) };
    },
    approvals: false,
  },
  {
    name: "ai 6",
    generateText: ai6.generateText,
    stepCountIs: ai6.stepCountIs,
    mockModel: (turns) => {
      const model = new ai6test.MockLanguageModelV3({ doGenerate: turns.map((t) => generateResult(t, "v3")) as never });
      return { model, prompts: () => model.doGenerateCalls.map((call) => call.prompt as PromptMessage[]) };
    },
    approvals: true,
  },
  {
    name: "ai 7",
    generateText: ai7.generateText,
    stepCountIs: ai7.isStepCount,
    mockModel: (turns) => {
      const model = new ai7test.MockLanguageModelV4({ doGenerate: turns.map((t) => generateResult(t, "v3")) as never });
      return { model, prompts: () => model.doGenerateCalls.map((call) => call.prompt as PromptMessage[]) };
    },
    approvals: true,
  },
];

/** The tool results in a prompt: `{ id, output }` with the model-facing output. */
function toolResults(prompt: PromptMessage[]): { id: string | undefined; output: unknown }[] {
  return prompt.flatMap((message) =>
    message.role === "tool" && Array.isArray(message.content)
      ? message.content.filter((part) => part.type === "tool-result").map((part) => ({
        id: part.toolCallId,
        output: part.output,
      }))
      : []
  );
}

describe.each(majors)("toAISDKTools() with $name", (major) => {
  test("a write_file call runs, its output reaches the model as json, and a refused call as error-json", async () => {
    fixture = await diskFixture([]);
    const { model, prompts } = major.mockModel([
      { call: ["tc1", "write_file", { path: "notes/hello.txt", content: "hi\n" }] },
      { call: ["tc2", "write_file", { path: "../outside/pwned.txt", content: "x" }] },
      { text: "Done." },
    ]);
    const result = await major.generateText({
      model,
      tools: toAISDKTools(createCodingTools(fixture.workspace)),
      stopWhen: major.stepCountIs(5),
      prompt: "Write hello",
    });
    expect(result.text).toBe("Done.");
    expect(fs.readFileSync(path.join(fixture.root, "notes/hello.txt"), "utf8")).toBe("hi\n");
    const refused = {
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_RELATIVE_PATH", hint: expect.any(String) },
    };
    expect(toolResults(prompts()[2])).toEqual([
      { id: "tc1", output: { type: "json", value: { path: "notes/hello.txt", bytes: 3 } } },
      { id: "tc2", output: { type: "error-json", value: refused } },
    ]);
    expect(fixture.listAll()).toEqual([
      "outside/",
      "outside/secret.txt",
      "workspace/",
      "workspace/notes/",
      "workspace/notes/hello.txt",
    ]);
  });

  test("an approve callback decides calls of a tool that needs approval", async () => {
    const gated = recordTool({ name: "gated", needsApproval: true });
    const { model, prompts } = major.mockModel([
      { call: ["tc1", "gated", { value: "a" }] },
      { call: ["tc2", "gated", { value: "b" }] },
      { text: "ok" },
    ]);
    await major.generateText({
      model,
      tools: toAISDKTools([gated.tool], {
        approve: ({ arguments: args }) => (args as { value: string }).value === "a",
      }),
      stopWhen: major.stepCountIs(5),
      prompt: "go",
    });
    expect(gated.log).toEqual(["a"]);
    const outputs = toolResults(prompts()[2]).map((part) => part.output as { type: string; value: unknown });
    expect(outputs.map((output) => output.type)).toEqual(["json", "error-json"]);
    expect(outputs[1].value).toMatchObject({ error: { code: "TOOL_CALL_DENIED" } });
  });

  test.runIf(!major.approvals)(
    `without an approve callback a call that needs approval is not run${
      skipNote(major.approvals, `${major.name} holds such a call for approval instead`)
    }`,
    async () => {
      const gated = recordTool({ name: "gated", needsApproval: true });
      const { model, prompts } = major.mockModel([{ call: ["tc1", "gated", { value: "a" }] }, { text: "ok" }]);
      await major.generateText({
        model,
        tools: toAISDKTools([gated.tool]),
        stopWhen: major.stepCountIs(5),
        prompt: "go",
      });
      expect(gated.log).toEqual([]);
      expect(toolResults(prompts()[1])).toEqual([
        {
          id: "tc1",
          output: { type: "error-json", value: { error: expect.objectContaining({ code: "TOOL_APPROVAL_REQUIRED" }) } },
        },
      ]);
    },
  );

  test.runIf(major.approvals)(
    `without an approve callback the SDK holds the call until a person approves it${
      skipNote(!major.approvals, `${major.name} has no tool approvals`)
    }`,
    async () => {
      const gated = recordTool({ name: "gated", needsApproval: (input) => input.value !== "free" });
      const tools = toAISDKTools([gated.tool]);
      const { model, prompts } = major.mockModel([
        { call: ["tc1", "gated", { value: "a" }] },
        { text: "ok" },
      ]);
      const first = await major.generateText({ model, tools, stopWhen: major.stepCountIs(5), prompt: "go" });
      expect(gated.log).toEqual([]);
      const requests = first.content.filter((part: { type: string }) => part.type === "tool-approval-request");
      expect(requests).toHaveLength(1);
      expect(requests[0].toolCall).toMatchObject({ toolCallId: "tc1", toolName: "gated" });

      // A fresh tools object, as a server building them per request would have.
      await major.generateText({
        model,
        tools: toAISDKTools([gated.tool]),
        stopWhen: major.stepCountIs(5),
        messages: [
          { role: "user", content: "go" },
          ...first.response.messages,
          {
            role: "tool",
            content: [{ type: "tool-approval-response", approvalId: requests[0].approvalId, approved: true }],
          },
        ],
      });
      expect(gated.log).toEqual(["a"]);
      expect(toolResults(prompts()[1])).toEqual([{ id: "tc1", output: { type: "json", value: { recorded: "a" } } }]);
    },
  );

  test.runIf(major.approvals)(
    `a call the person denies is not run and the model is told${
      skipNote(!major.approvals, `${major.name} has no tool approvals`)
    }`,
    async () => {
      const gated = recordTool({ name: "gated", needsApproval: true });
      const { model, prompts } = major.mockModel([{ call: ["tc1", "gated", { value: "a" }] }, { text: "ok" }]);
      const first = await major.generateText({ model, tools: toAISDKTools([gated.tool]), prompt: "go" });
      const request = first.content.find((part: { type: string }) => part.type === "tool-approval-request");
      await major.generateText({
        model,
        tools: toAISDKTools([gated.tool]),
        messages: [
          { role: "user", content: "go" },
          ...first.response.messages,
          {
            role: "tool",
            content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: false }],
          },
        ],
      });
      expect(gated.log).toEqual([]);
      expect(toolResults(prompts()[1])).toEqual([{
        id: "tc1",
        output: expect.objectContaining({ type: "execution-denied" }),
      }]);
    },
  );
});
