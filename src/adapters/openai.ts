/**
 * The OpenAI adapter (`@paddock/tools/openai`): Chat Completions tool
 * definitions, tool calls in, tool results out. The types are plain JSON
 * shapes with no import of the `openai` package; the suite checks them
 * against openai 6's own types (`ChatCompletionTool`,
 * `ChatCompletionMessageParam`, `ChatCompletionMessage`) and runs a round trip
 * through its client.
 *
 * @example A ModelProvider over the OpenAI API
 * ```ts
 * import OpenAI from "openai";
 * import type { ModelProvider } from "@paddock/tools";
 * import { fromOpenAIMessage, toOpenAIMessages, toOpenAITools } from "@paddock/tools/openai";
 * const openai = new OpenAI();
 * const provider: ModelProvider = {
 *   async generate({ instructions, messages, tools, signal }) {
 *     const completion = await openai.chat.completions.create(
 *       { model: "gpt-4.1", messages: toOpenAIMessages(instructions, messages), tools: toOpenAITools(tools) },
 *       { signal },
 *     );
 *     return fromOpenAIMessage(completion.choices[0].message);
 *   },
 * };
 * ```
 *
 * @module
 */
import type { AgentMessage } from "../agent/agent_message.ts";
import type { ModelResponse } from "../agent/model_provider.ts";
import type { ToolCall, ToolCallResult } from "../registry/execute_tool_call.ts";
import type { JsonSchema } from "../tools/tool.ts";
import { definitionsOf, type ToolSource } from "./_tool_source.ts";

export type { ToolSource };

/** A Chat Completions function tool. */
export interface OpenAITool {
  /** The tool type. */
  type: "function";
  /** The function: name, description and JSON Schema of its parameters. */
  function: { name: string; description: string; parameters: JsonSchema };
}

/** A function tool call, as Paddock writes it into an assistant message. */
export interface OpenAIFunctionToolCall {
  /** The call's id, echoed by the tool message. */
  id: string;
  /** The tool-call type. */
  type: "function";
  /** The function called and its arguments as JSON text. */
  function: { name: string; arguments: string };
}

/**
 * A tool call as read from an assistant message: a function call (`type` may
 * be left out), or a custom tool call, whose free-form `input` becomes the
 * call's arguments text.
 */
export type OpenAIToolCall =
  | { id: string; type?: "function"; function: { name: string; arguments: string } }
  | { id: string; type: "custom"; custom: { name: string; input: string } };

/** A `role: "tool"` message answering one tool call. */
export interface OpenAIToolMessage {
  /** The message role. */
  role: "tool";
  /** The id of the call this answers. */
  tool_call_id: string;
  /** The result's JSON text; an error is `{"error": {"code", "message", "hint"?}}`. */
  content: string;
}

/**
 * The `tools` parameter of a Chat Completions request.
 *
 * @param tools The tools (a list or a registry).
 * @returns `[{ type: "function", function: { name, description, parameters } }]`.
 *
 * @example Calling the OpenAI API with Paddock's tools
 * ```ts
 * import OpenAI from "openai";
 * import { createCodingTools, executeToolCall, ToolRegistry } from "@paddock/tools";
 * import { fromOpenAIToolCall, toOpenAIMessages, toOpenAIToolMessage, toOpenAITools } from "@paddock/tools/openai";
 * const openai = new OpenAI();
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Fix the failing test" }];
 * const completion = await openai.chat.completions.create({ model: "gpt-4.1", messages, tools: toOpenAITools(registry) });
 * const reply = completion.choices[0].message;
 * messages.push(reply);
 * for (const call of reply.tool_calls ?? []) {
 *   messages.push(toOpenAIToolMessage(await executeToolCall(registry, fromOpenAIToolCall(call))));
 * }
 * ```
 */
export function toOpenAITools(tools: ToolSource): OpenAITool[] {
  return definitionsOf(tools).map(({ name, description, inputSchema }) => ({
    type: "function",
    function: { name, description, parameters: inputSchema },
  }));
}

/**
 * A Chat Completions tool call as a Paddock {@link ToolCall} (the arguments
 * stay JSON text; `executeToolCall` parses them and reports bad JSON).
 *
 * @param call The tool call from the assistant message.
 * @returns The call.
 *
 * @example Running a call from an assistant message
 * ```ts
 * import { executeToolCall, type ToolRegistry } from "@paddock/tools";
 * import { fromOpenAIToolCall } from "@paddock/tools/openai";
 * declare const registry: ToolRegistry;
 * const call = fromOpenAIToolCall({ id: "call_1", type: "function", function: { name: "read_file", arguments: '{"path":"README.md"}' } });
 * const result = await executeToolCall(registry, call); // the arguments text is parsed here
 * ```
 */
export function fromOpenAIToolCall(call: OpenAIToolCall): ToolCall {
  if (call.type === "custom") return { id: call.id, name: call.custom.name, arguments: call.custom.input };
  return { id: call.id, name: call.function.name, arguments: call.function.arguments };
}

/**
 * A tool call's result as the `role: "tool"` message that answers it. Chat
 * Completions has no error flag: an error is the `{"error": …}` JSON content.
 *
 * @param result The result from `executeToolCall`.
 * @returns The message.
 *
 * @example Answering a tool call
 * ```ts
 * import { executeToolCall, type ToolRegistry } from "@paddock/tools";
 * import { toOpenAIToolMessage } from "@paddock/tools/openai";
 * declare const registry: ToolRegistry;
 * const result = await executeToolCall(registry, { id: "call_1", name: "list_directory", arguments: { path: "src" } });
 * const message = toOpenAIToolMessage(result); // { role: "tool", tool_call_id: "call_1", content: "{…}" }
 * ```
 */
export function toOpenAIToolMessage(result: ToolCallResult): OpenAIToolMessage {
  return { role: "tool", tool_call_id: result.toolCallId, content: result.content };
}

/** A Chat Completions message, as far as the agent loop writes and reads them. */
export type OpenAIChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: OpenAIFunctionToolCall[] }
  | OpenAIToolMessage;

/** JSON text of a call's arguments (OpenAI sends and expects text). */
function argumentsText(args: unknown): string {
  return typeof args === "string" ? args : JSON.stringify(args ?? {});
}

/**
 * The agent loop's instructions and messages as Chat Completions `messages`,
 * for a {@link ModelProvider} over the OpenAI API.
 *
 * @param instructions The system prompt (left out when empty).
 * @param messages The conversation.
 * @returns The request's `messages`.
 *
 * @example A conversation as a request's messages
 * ```ts
 * import { toOpenAIMessages } from "@paddock/tools/openai";
 * const messages = toOpenAIMessages("You are a careful coding agent.", [
 *   { role: "user", content: "What does README.md say?" },
 *   { role: "assistant", toolCalls: [{ id: "call_1", name: "read_file", arguments: { path: "README.md" } }] },
 * ]); // system, user, then assistant with tool_calls [{ id: "call_1", type: "function", function: { name, arguments: '{"path":"README.md"}' } }]
 * ```
 */
export function toOpenAIMessages(instructions: string, messages: readonly AgentMessage[]): OpenAIChatMessage[] {
  const out: OpenAIChatMessage[] = instructions === "" ? [] : [{ role: "system", content: instructions }];
  for (const message of messages) {
    if (message.role === "user") out.push({ role: "user", content: message.content });
    else if (message.role === "tool") out.push(toOpenAIToolMessage(message));
    else {
      const turn: OpenAIChatMessage = { role: "assistant", content: message.content ?? null };
      if (message.toolCalls !== undefined && message.toolCalls.length > 0) {
        turn.tool_calls = message.toolCalls.map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: argumentsText(call.arguments) },
        }));
      }
      out.push(turn);
    }
  }
  return out;
}

/**
 * A Chat Completions assistant message (`choices[0].message`) as the agent
 * loop's {@link ModelResponse}.
 *
 * @param message The assistant message.
 * @returns Its text and tool calls.
 *
 * @example Reading the model's turn
 * ```ts
 * import { fromOpenAIMessage } from "@paddock/tools/openai";
 * const response = fromOpenAIMessage({
 *   content: null,
 *   tool_calls: [{ id: "call_1", type: "function", function: { name: "grep", arguments: '{"pattern":"TODO"}' } }],
 * }); // { toolCalls: [{ id: "call_1", name: "grep", arguments: '{"pattern":"TODO"}' }] }
 * ```
 */
export function fromOpenAIMessage(
  message: { content?: string | null; tool_calls?: readonly OpenAIToolCall[] | null },
): ModelResponse {
  const response: ModelResponse = {};
  if (typeof message.content === "string" && message.content !== "") response.text = message.content;
  if (message.tool_calls && message.tool_calls.length > 0) {
    response.toolCalls = message.tool_calls.map(fromOpenAIToolCall);
  }
  return response;
}
