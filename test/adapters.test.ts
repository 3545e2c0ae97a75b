import * as fs from "node:fs";
import * as path from "node:path";
import { generateText, stepCountIs } from "ai";
import { MockLanguageModelV2 } from "ai/test";
import { afterEach, describe, expect, test } from "vitest";
import {
  AgentExecutor,
  createCodingTools,
  createReadTool,
  createWriteTool,
  executeToolCall,
  type ModelProvider,
  ToolRegistry,
} from "../mod.ts";
import { toAISDKTools } from "../src/adapters/ai_sdk.ts";
import {
  type AnthropicMessage,
  fromAnthropicMessage,
  fromAnthropicToolUse,
  toAnthropicMessages,
  toAnthropicToolResult,
  toAnthropicTools,
} from "../src/adapters/anthropic.ts";
import {
  fromOpenAIMessage,
  fromOpenAIToolCall,
  type OpenAIChatMessage,
  toOpenAIMessages,
  toOpenAIToolMessage,
  toOpenAITools,
} from "../src/adapters/openai.ts";
import { type DiskFixture, diskFixture, leftovers } from "./helpers/fixture.ts";
import { recordTool } from "./helpers/record_tool.ts";

/** The hint of a path whose '..' leaves the root (parent_segment_hint.ts). */
const ABOVE_ROOT_HINT =
  "'..' here would leave the workspace, which no tool can reach: paths start at the workspace root and may not hold '..'; name a file inside it";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

describe("toOpenAITools()", () => {
  test("maps every tool to a Chat Completions function tool, from a list or a registry", async () => {
    fixture = await diskFixture([]);
    const tools = createCodingTools(fixture.workspace);
    const expected = tools.map((tool) => ({
      type: "function",
      function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
    }));
    expect(toOpenAITools(tools)).toEqual(expected);
    expect(toOpenAITools(new ToolRegistry(tools))).toEqual(expected);
    expect(toOpenAITools([createWriteTool(fixture.workspace)])[0]).toEqual({
      type: "function",
      function: {
        name: "write_file",
        description: createWriteTool(fixture.workspace).description,
        parameters: {
          type: "object",
          properties: {
            path: { type: "string", description: expect.any(String) },
            content: { type: "string", description: expect.any(String) },
            encoding: {
              type: "string",
              enum: expect.arrayContaining(["utf-8", "windows-1252"]),
              description: expect.any(String),
            },
          },
          required: ["path", "content"],
          additionalProperties: false,
        },
      },
    });
  });

  test("a tool call with JSON-text arguments runs, and its result becomes the tool message", async () => {
    fixture = await diskFixture([]);
    const registry = new ToolRegistry([createWriteTool(fixture.workspace)]);
    const call = fromOpenAIToolCall({
      id: "call_abc",
      type: "function",
      function: { name: "write_file", arguments: '{"path":"a.txt","content":"hi"}' },
    });
    expect(call).toEqual({ id: "call_abc", name: "write_file", arguments: '{"path":"a.txt","content":"hi"}' });
    expect(toOpenAIToolMessage(await executeToolCall(registry, call))).toEqual({
      role: "tool",
      tool_call_id: "call_abc",
      content: '{"path":"a.txt","bytes":2}',
    });
    expect(fs.readFileSync(path.join(fixture.root, "a.txt"), "utf8")).toBe("hi");
  });

  test("an error is the tool message with the error JSON as content", async () => {
    fixture = await diskFixture([]);
    const registry = new ToolRegistry([createWriteTool(fixture.workspace)]);
    const result = await executeToolCall(
      registry,
      fromOpenAIToolCall({ id: "c", function: { name: "write_file", arguments: '{"path":"../x","content":""}' } }),
    );
    expect(toOpenAIToolMessage(result)).toEqual({
      role: "tool",
      tool_call_id: "c",
      content: JSON.stringify({
        error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_RELATIVE_PATH", hint: ABOVE_ROOT_HINT },
      }),
    });
    const badJson = await executeToolCall(
      registry,
      fromOpenAIToolCall({ id: "d", function: { name: "write_file", arguments: "{oops" } }),
    );
    expect(JSON.parse(toOpenAIToolMessage(badJson).content)).toEqual({
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_JSON", hint: expect.stringContaining("JSON object") },
    });
  });
});

describe("toAnthropicTools()", () => {
  test("maps every tool to a Messages API tool with input_schema", async () => {
    fixture = await diskFixture([]);
    const tools = createCodingTools(fixture.workspace);
    expect(toAnthropicTools(tools)).toEqual(
      tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })),
    );
    expect(toAnthropicTools(new ToolRegistry(tools))).toEqual(toAnthropicTools(tools));
  });

  test("a tool_use block runs, and results become tool_result blocks with is_error", async () => {
    fixture = await diskFixture(["a.txt=hello"]);
    const registry = new ToolRegistry([createReadTool(fixture.workspace)]);
    const ok = await executeToolCall(
      registry,
      fromAnthropicToolUse({ type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.txt" } }),
    );
    const missing = await executeToolCall(
      registry,
      fromAnthropicToolUse({ type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "nope.txt" } }),
    );
    expect(toAnthropicToolResult(ok)).toEqual({
      type: "tool_result",
      tool_use_id: "toolu_1",
      content: ok.content,
      is_error: false,
    });
    expect(JSON.parse(ok.content)).toMatchObject({ content: "hello" });
    const block = toAnthropicToolResult(missing);
    expect(block).toMatchObject({ type: "tool_result", tool_use_id: "toolu_2", is_error: true });
    expect(JSON.parse(block.content).error.code).toBe("NOT_FOUND");
  });
});

describe("a ModelProvider over a chat API, with the message converters", () => {
  test("OpenAI: the loop's messages become Chat Completions messages and replies become calls", async () => {
    const { tool, log } = recordTool();
    const seen: OpenAIChatMessage[][] = [];
    const replies = [
      {
        content: null,
        tool_calls: [{
          id: "call_x",
          type: "function" as const,
          function: { name: "record", arguments: '{"value":"a"}' },
        }],
      },
      { content: "Recorded." },
    ];
    const provider: ModelProvider = {
      generate: ({ instructions, messages, tools }) => {
        seen.push(toOpenAIMessages(instructions, messages));
        expect(toOpenAITools(tools).map((definition) => definition.function.name)).toEqual(["record"]);
        return Promise.resolve(fromOpenAIMessage(replies[seen.length - 1]));
      },
    };
    const run = await new AgentExecutor().execute({
      agent: { instructions: "Be brief." },
      input: "record a",
      provider,
      toolRegistry: new ToolRegistry([tool]),
    });
    expect(run).toMatchObject({ finishReason: "stop", text: "Recorded." });
    expect(log).toEqual(["a"]);
    expect(seen[1]).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "record a" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_x", type: "function", function: { name: "record", arguments: '{"value":"a"}' } }],
      },
      { role: "tool", tool_call_id: "call_x", content: '{"recorded":"a"}' },
    ]);
    expect(fromOpenAIMessage({ content: "", tool_calls: null })).toEqual({});
  });

  test("Anthropic: tool results of one turn go back in one user message of tool_result blocks", async () => {
    const { tool } = recordTool();
    const seen: AnthropicMessage[][] = [];
    const replies = [
      [
        { type: "text", text: "Recording." },
        { type: "tool_use", id: "toolu_1", name: "record", input: { value: "a" } },
        { type: "tool_use", id: "toolu_2", name: "record", input: { value: "" } },
      ],
      [{ type: "text", text: "Done" }, { type: "text", text: "." }],
    ];
    const provider: ModelProvider = {
      generate: ({ messages }) => {
        seen.push(toAnthropicMessages(messages));
        return Promise.resolve(fromAnthropicMessage(replies[seen.length - 1]));
      },
    };
    const run = await new AgentExecutor().execute({
      agent: { instructions: "" },
      input: "record a",
      provider,
      toolRegistry: new ToolRegistry([tool]),
    });
    expect(run).toMatchObject({ finishReason: "stop", text: "Done." });
    expect(seen[1]).toEqual([
      { role: "user", content: "record a" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Recording." },
          { type: "tool_use", id: "toolu_1", name: "record", input: { value: "a" } },
          { type: "tool_use", id: "toolu_2", name: "record", input: { value: "" } },
        ],
      },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "toolu_1", content: '{"recorded":"a"}', is_error: false },
          {
            type: "tool_result",
            tool_use_id: "toolu_2",
            content: expect.stringContaining('"code":"TOOL_ARGUMENTS_INVALID"'),
            is_error: true,
          },
        ],
      },
    ]);
  });
});

describe("toAISDKTools() with the real AI SDK", () => {
  const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  const callStep = (toolCallId: string, toolName: string, input: unknown) => ({
    content: [{ type: "tool-call" as const, toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: "tool-calls" as const,
    usage,
    warnings: [],
  });
  const textStep = (text: string) => ({
    content: [{ type: "text" as const, text }],
    finishReason: "stop" as const,
    usage,
    warnings: [],
  });
  /** The tool-result parts of the prompt of the model's `index`-th call. */
  const toolResultsSeen = (model: MockLanguageModelV2, index: number) =>
    model.doGenerateCalls[index].prompt.flatMap((message) =>
      message.role === "tool" ? message.content.map((part) => ({ id: part.toolCallId, output: part.output })) : []
    );

  test("generateText calls write_file through the SDK and the file appears in the workspace", async () => {
    fixture = await diskFixture([]);
    const model = new MockLanguageModelV2({
      doGenerate: [callStep("tc1", "write_file", { path: "notes/hello.txt", content: "hi\n" }), textStep("Wrote it.")],
    });
    const result = await generateText({
      model,
      tools: toAISDKTools(createCodingTools(fixture.workspace)),
      stopWhen: stepCountIs(5),
      prompt: "Write hello",
    });
    expect(result.text).toBe("Wrote it.");
    expect(fs.readFileSync(path.join(fixture.root, "notes/hello.txt"), "utf8")).toBe("hi\n");
    expect(result.steps[0].toolResults.map((part) => part.output)).toEqual([{ path: "notes/hello.txt", bytes: 3 }]);
    expect(toolResultsSeen(model, 1)).toEqual([
      { id: "tc1", output: { type: "json", value: { path: "notes/hello.txt", bytes: 3 } } },
    ]);
    // The SDK advertised the tools with Paddock's own JSON Schemas.
    const advertised = model.doGenerateCalls[0].tools ?? [];
    expect(advertised.map((tool) => tool.name)).toEqual(createCodingTools(fixture.workspace).map((tool) => tool.name));
    expect(advertised.find((tool) => tool.name === "write_file")).toMatchObject({
      type: "function",
      inputSchema: createWriteTool(fixture.workspace).inputSchema,
    });
    expect(leftovers(fixture.root)).toEqual([]);
  });

  test("a refused call reaches the model as an error-json result, and nothing is written outside", async () => {
    fixture = await diskFixture([]);
    const model = new MockLanguageModelV2({
      doGenerate: [callStep("tc1", "write_file", { path: "../outside/pwned.txt", content: "x" }), textStep("Sorry.")],
    });
    const result = await generateText({
      model,
      tools: toAISDKTools(createCodingTools(fixture.workspace)),
      stopWhen: stepCountIs(5),
      prompt: "Escape",
    });
    const refused = {
      error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_RELATIVE_PATH", hint: expect.any(String) },
    };
    expect(result.steps[0].toolResults.map((part) => part.output)).toEqual([refused]);
    expect(toolResultsSeen(model, 1)).toEqual([{ id: "tc1", output: { type: "error-json", value: refused } }]);
    expect(fixture.listAll()).toEqual(["outside/", "outside/secret.txt", "workspace/"]);
  });

  test("hooks and approvals of the call layer apply to calls made through the SDK", async () => {
    const gated = recordTool({ name: "gated", needsApproval: true });
    const model = new MockLanguageModelV2({
      doGenerate: [callStep("tc1", "gated", { value: "a" }), callStep("tc2", "gated", { value: "b" }), textStep("ok")],
    });
    const asked: unknown[] = [];
    await generateText({
      model,
      tools: toAISDKTools([gated.tool], {
        approve: ({ arguments: args }) => (asked.push(args), (args as { value: string }).value === "a"),
      }),
      stopWhen: stepCountIs(5),
      prompt: "go",
    });
    expect(asked).toEqual([{ value: "a" }, { value: "b" }]);
    expect(gated.log).toEqual(["a"]);
    expect(toolResultsSeen(model, 2).map((part) => part.output.type)).toEqual(["json", "error-json"]);
  });
});

describe("the AI SDK stays optional", () => {
  const repo = path.resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");
  /** Every bare (package) specifier imported by `entry` and the relative files it reaches. */
  const packagesReachedFrom = (entry: string): Set<string> => {
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = fs.readFileSync(file, "utf8");
      for (const match of code.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"/gm)) {
        const specifier = match[1];
        if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
        else packages.add(specifier);
      }
    };
    visit(path.join(repo, entry));
    return packages;
  };

  test.each([
    "mod.ts",
    "host.ts",
    "node.ts",
    "testing.ts",
    "src/adapters/openai.ts",
    "src/adapters/anthropic.ts",
    "src/adapters/ai_sdk.ts",
  ])(
    "%s never imports an SDK package, directly or through its files",
    (entry) => {
      const sdks = [...packagesReachedFrom(entry)].filter((name) =>
        /^(ai|ai\/.*|openai|openai\/.*|@anthropic-ai\/.*|@modelcontextprotocol\/.*)$/.test(name)
      );
      expect(sdks).toEqual([]);
    },
  );

  test("the adapters are entry points of both manifests, and ai is an optional peer of the tested majors", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"));
    const deno = JSON.parse(fs.readFileSync(path.join(repo, "deno.json"), "utf8"));
    expect(deno.exports["./ai-sdk"]).toBe("./src/adapters/ai_sdk.ts");
    expect(deno.exports["./openai"]).toBe("./src/adapters/openai.ts");
    expect(deno.exports["./anthropic"]).toBe("./src/adapters/anthropic.ts");
    expect(pkg.peerDependencies.ai).toBe("^5.0.0 || ^6.0.0 || ^7.0.0");
    expect(pkg.peerDependenciesMeta.ai).toEqual({ optional: true });
  });
});
