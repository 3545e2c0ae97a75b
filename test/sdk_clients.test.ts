// A round trip through the real `openai` and `@anthropic-ai/sdk` clients, with a
// faked `fetch`: Paddock's tools are advertised as the API expects, the model's
// calls run in the workspace, and the results (errors flagged as errors) go
// back in the next request.
import * as fs from "node:fs";
import * as path from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, describe, expect, test } from "vitest";
import { AgentExecutor, createCodingTools, type ModelProvider, ToolRegistry } from "../mod.ts";
import { fromAnthropicMessage, toAnthropicMessages, toAnthropicTools } from "../src/adapters/anthropic.ts";
import { fromOpenAIMessage, toOpenAIMessages, toOpenAITools } from "../src/adapters/openai.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

/** A `fetch` that answers each request with the next of `replies` (as JSON) and records the request bodies. */
function fakeFetch(replies: unknown[]): { fetch: typeof fetch; bodies: Record<string, unknown>[]; urls: string[] } {
  const bodies: Record<string, unknown>[] = [];
  const urls: string[] = [];
  const fake = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    urls.push(String(input instanceof Request ? input.url : input));
    bodies.push(JSON.parse(String(init?.body)));
    const reply = replies[bodies.length - 1];
    return Promise.resolve(
      new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } }),
    );
  };
  return { fetch: fake as typeof fetch, bodies, urls };
}

describe("the OpenAI adapter through the openai client", () => {
  const completion = (message: Record<string, unknown>, finish: string) => ({
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 0,
    model: "gpt-test",
    choices: [{
      index: 0,
      message: { role: "assistant", refusal: null, ...message },
      finish_reason: finish,
      logprobs: null,
    }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });

  test("a ModelProvider over chat.completions.create writes a file and reports a refused call", async () => {
    fixture = await diskFixture([]);
    const { fetch, bodies, urls } = fakeFetch([
      completion({
        content: null,
        tool_calls: [
          {
            id: "call_1",
            type: "function",
            function: { name: "write_file", arguments: '{"path":"a.txt","content":"hi"}' },
          },
          {
            id: "call_2",
            type: "function",
            function: { name: "write_file", arguments: '{"path":"/etc/x","content":""}' },
          },
        ],
      }, "tool_calls"),
      completion({ content: "Wrote a.txt." }, "stop"),
    ]);
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: "http://model.invalid/v1", fetch, maxRetries: 0 });
    const provider: ModelProvider = {
      async generate({ instructions, messages, tools, signal }) {
        const reply = await openai.chat.completions.create(
          { model: "gpt-test", messages: toOpenAIMessages(instructions, messages), tools: toOpenAITools(tools) },
          { signal },
        );
        return fromOpenAIMessage(reply.choices[0].message);
      },
    };
    const run = await new AgentExecutor().execute({
      agent: { instructions: "Be brief." },
      input: "write a.txt",
      provider,
      toolRegistry: new ToolRegistry(createCodingTools(fixture.workspace)),
    });
    expect(run).toMatchObject({ finishReason: "stop", text: "Wrote a.txt." });
    expect(urls[0]).toBe("http://model.invalid/v1/chat/completions");
    expect(fs.readFileSync(path.join(fixture.root, "a.txt"), "utf8")).toBe("hi");
    const tools = bodies[0].tools as { type: string; function: { name: string; parameters: { type: string } } }[];
    expect(tools.find((tool) => tool.function.name === "write_file")).toMatchObject({
      type: "function",
      function: { parameters: { type: "object", additionalProperties: false } },
    });
    const toolMessages = (bodies[1].messages as { role: string; tool_call_id?: string; content: string }[])
      .filter((message) => message.role === "tool");
    expect(toolMessages.map((message) => [message.tool_call_id, JSON.parse(message.content)])).toEqual([
      ["call_1", { path: "a.txt", bytes: 2 }],
      ["call_2", {
        error: {
          code: "TOOL_ARGUMENTS_INVALID",
          message: "INVALID_RELATIVE_PATH",
          hint: expect.stringContaining("relative"),
        },
      }],
    ]);
  });
});

describe("the Anthropic adapter through the @anthropic-ai/sdk client", () => {
  const message = (content: unknown[], stop: string) => ({
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  });

  test("a ModelProvider over messages.create writes a file, and a failed call comes back with is_error", async () => {
    fixture = await diskFixture(["a.txt=old"]);
    const { fetch, bodies, urls } = fakeFetch([
      message([
        { type: "text", text: "Writing." },
        { type: "tool_use", id: "toolu_1", name: "write_file", input: { path: "b.txt", content: "new" } },
        { type: "tool_use", id: "toolu_2", name: "read_file", input: { path: "missing.txt" } },
      ], "tool_use"),
      message([{ type: "text", text: "Done." }], "end_turn"),
    ]);
    const anthropic = new Anthropic({ apiKey: "test", baseURL: "http://model.invalid", fetch, maxRetries: 0 });
    const provider: ModelProvider = {
      async generate({ instructions, messages, tools, signal }) {
        const reply = await anthropic.messages.create(
          {
            model: "claude-test",
            max_tokens: 1024,
            system: instructions,
            messages: toAnthropicMessages(messages),
            tools: toAnthropicTools(tools),
          },
          { signal },
        );
        return fromAnthropicMessage(reply.content);
      },
    };
    const run = await new AgentExecutor().execute({
      agent: { instructions: "Be brief." },
      input: "write b.txt",
      provider,
      toolRegistry: new ToolRegistry(createCodingTools(fixture.workspace)),
    });
    expect(run).toMatchObject({ finishReason: "stop", text: "Done." });
    expect(urls[0]).toBe("http://model.invalid/v1/messages");
    expect(fs.readFileSync(path.join(fixture.root, "b.txt"), "utf8")).toBe("new");
    const tools = bodies[0].tools as { name: string; input_schema: { type: string } }[];
    expect(tools.find((tool) => tool.name === "read_file")?.input_schema.type).toBe("object");
    const last = (bodies[1].messages as { role: string; content: unknown }[]).at(-1);
    expect(last?.role).toBe("user");
    const blocks = last?.content as { type: string; tool_use_id: string; is_error: boolean; content: string }[];
    expect(blocks.map((block) => [block.type, block.tool_use_id, block.is_error])).toEqual([
      ["tool_result", "toolu_1", false],
      ["tool_result", "toolu_2", true],
    ]);
    expect(JSON.parse(blocks[1].content).error.code).toBe("NOT_FOUND");
  });
});
