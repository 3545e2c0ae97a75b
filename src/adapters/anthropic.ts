/**
 * The Anthropic adapter (`@paddock/tools/anthropic`): Messages API tool
 * definitions, `tool_use` blocks in, `tool_result` blocks out (failures with
 * `is_error: true`). The types are plain JSON shapes with no import of
 * `@anthropic-ai/sdk`; the suite checks them against the SDK's own types
 * (`Tool`, `MessageParam`, `ContentBlock`) and runs a round trip through its
 * client.
 *
 * @example A ModelProvider over the Anthropic API
 * ```ts
 * import Anthropic from "@anthropic-ai/sdk";
 * import type { ModelProvider } from "@paddock/tools";
 * import { fromAnthropicMessage, toAnthropicMessages, toAnthropicTools } from "@paddock/tools/anthropic";
 * const anthropic = new Anthropic();
 * const provider: ModelProvider = {
 *   async generate({ instructions, messages, tools, signal }) {
 *     const reply = await anthropic.messages.create(
 *       {
 *         model: "claude-sonnet-4-5",
 *         max_tokens: 4096,
 *         system: instructions,
 *         messages: toAnthropicMessages(messages),
 *         tools: toAnthropicTools(tools),
 *       },
 *       { signal },
 *     );
 *     return fromAnthropicMessage(reply.content);
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

/** The JSON Schema of a Messages API tool: always an object schema. */
export interface AnthropicInputSchema {
  /** Always `"object"`. */
  type: "object";
  /** The rest of the JSON Schema (`properties`, `required`, …). */
  [key: string]: unknown;
}

/** A Messages API tool definition. */
export interface AnthropicTool {
  /** The tool's name. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** JSON Schema of the arguments. */
  input_schema: AnthropicInputSchema;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  /** The block type. */
  type: "tool_use";
  /** The call's id, echoed by the result. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments (an object). */
  input: unknown;
}

/** A `tool_result` content block, sent back in a user message. */
export interface AnthropicToolResultBlock {
  /** The block type. */
  type: "tool_result";
  /** The id of the `tool_use` block this answers. */
  tool_use_id: string;
  /** The result's JSON text; an error is `{"error": {"code", "message", "hint"?}}`. */
  content: string;
  /** Whether the call failed. */
  is_error: boolean;
}

/**
 * The `tools` parameter of a Messages API request.
 *
 * @param tools The tools (a list or a registry).
 * @returns `[{ name, description, input_schema }]`.
 *
 * @example Calling the Anthropic API with Paddock's tools
 * ```ts
 * import Anthropic from "@anthropic-ai/sdk";
 * import { createCodingTools, executeToolCall, ToolRegistry } from "@paddock/tools";
 * import { fromAnthropicToolUse, toAnthropicToolResult, toAnthropicTools } from "@paddock/tools/anthropic";
 * const anthropic = new Anthropic();
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * const messages: Anthropic.MessageParam[] = [{ role: "user", content: "Fix the failing test" }];
 * const reply = await anthropic.messages.create({
 *   model: "claude-sonnet-4-5",
 *   max_tokens: 4096,
 *   messages,
 *   tools: toAnthropicTools(registry),
 * });
 * const results: Anthropic.ToolResultBlockParam[] = [];
 * for (const block of reply.content) {
 *   if (block.type === "tool_use") results.push(toAnthropicToolResult(await executeToolCall(registry, fromAnthropicToolUse(block))));
 * }
 * messages.push({ role: "assistant", content: reply.content }, { role: "user", content: results });
 * ```
 */
export function toAnthropicTools(tools: ToolSource): AnthropicTool[] {
  return definitionsOf(tools).map(({ name, description, inputSchema }) => ({
    name,
    description,
    input_schema: objectSchema(inputSchema),
  }));
}

/** `schema` with `type: "object"` stated, as the API requires (Paddock's schemas already say it). */
function objectSchema(schema: JsonSchema): AnthropicInputSchema {
  return { ...schema, type: "object" };
}

/**
 * A `tool_use` block as a Paddock {@link ToolCall}.
 *
 * @param block The block from the assistant message.
 * @returns The call.
 *
 * @example Running a tool_use block
 * ```ts
 * import { executeToolCall, type ToolRegistry } from "@paddock/tools";
 * import { fromAnthropicToolUse } from "@paddock/tools/anthropic";
 * declare const registry: ToolRegistry;
 * const call = fromAnthropicToolUse({ type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "README.md" } });
 * const result = await executeToolCall(registry, call);
 * ```
 */
export function fromAnthropicToolUse(block: AnthropicToolUseBlock): ToolCall {
  return { id: block.id, name: block.name, arguments: block.input };
}

/**
 * A tool call's result as the `tool_result` block that answers it, with
 * `is_error` set for failures.
 *
 * @param result The result from `executeToolCall`.
 * @returns The block.
 *
 * @example Answering a tool_use block
 * ```ts
 * import { executeToolCall, type ToolRegistry } from "@paddock/tools";
 * import { toAnthropicToolResult } from "@paddock/tools/anthropic";
 * declare const registry: ToolRegistry;
 * const result = await executeToolCall(registry, { id: "toolu_01", name: "read_file", arguments: { path: "missing.txt" } });
 * const reply = { role: "user", content: [toAnthropicToolResult(result)] }; // is_error: true, content '{"error":{"code":"NOT_FOUND",…}}'
 * ```
 */
export function toAnthropicToolResult(result: ToolCallResult): AnthropicToolResultBlock {
  return { type: "tool_result", tool_use_id: result.toolCallId, content: result.content, is_error: result.isError };
}

/** A text content block. */
export interface AnthropicTextBlock {
  /** The block type. */
  type: "text";
  /** The text. */
  text: string;
}

/** A Messages API message, as far as the agent loop writes them. */
export type AnthropicMessage =
  | { role: "user"; content: string | AnthropicToolResultBlock[] }
  | { role: "assistant"; content: (AnthropicTextBlock | AnthropicToolUseBlock)[] };

/** A call's arguments as an object (Anthropic sends and expects objects). */
function argumentsObject(args: unknown): unknown {
  if (typeof args !== "string") return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return {};
  }
}

/**
 * The agent loop's messages as Messages API `messages` (the instructions go
 * in `system`). Consecutive tool results become one user message of
 * `tool_result` blocks, as the API requires.
 *
 * @param messages The conversation.
 * @returns The request's `messages`.
 *
 * @example A conversation as a request's messages
 * ```ts
 * import { toAnthropicMessages } from "@paddock/tools/anthropic";
 * const messages = toAnthropicMessages([
 *   { role: "user", content: "What does README.md say?" },
 *   { role: "assistant", toolCalls: [{ id: "toolu_01", name: "read_file", arguments: '{"path":"README.md"}' }] },
 * ]); // the assistant turn: [{ type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "README.md" } }]
 * ```
 */
export function toAnthropicMessages(messages: readonly AgentMessage[]): AnthropicMessage[] {
  const out: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      out.push({ role: "user", content: message.content });
    } else if (message.role === "tool") {
      const last = out.at(-1);
      const block = toAnthropicToolResult(message);
      if (last?.role === "user" && Array.isArray(last.content)) last.content.push(block);
      else out.push({ role: "user", content: [block] });
    } else {
      const content: (AnthropicTextBlock | AnthropicToolUseBlock)[] = [];
      if (message.content !== undefined && message.content !== "") {
        content.push({ type: "text", text: message.content });
      }
      for (const call of message.toolCalls ?? []) {
        content.push({ type: "tool_use", id: call.id, name: call.name, input: argumentsObject(call.arguments) });
      }
      out.push({ role: "assistant", content });
    }
  }
  return out;
}

/**
 * A Messages API reply's `content` as the agent loop's {@link ModelResponse}:
 * text blocks joined, `tool_use` blocks as calls; other blocks are ignored.
 *
 * @param content The reply's content blocks.
 * @returns Its text and tool calls.
 *
 * @example Reading the model's turn
 * ```ts
 * import { fromAnthropicMessage } from "@paddock/tools/anthropic";
 * const content = [
 *   { type: "text", text: "Let me look." },
 *   { type: "tool_use", id: "toolu_01", name: "grep", input: { pattern: "TODO" } },
 * ];
 * fromAnthropicMessage(content); // { text: "Let me look.", toolCalls: [{ id: "toolu_01", name: "grep", arguments: { pattern: "TODO" } }] }
 * ```
 */
export function fromAnthropicMessage(content: readonly { type: string }[]): ModelResponse {
  const response: ModelResponse = {};
  const text = content.flatMap((block) => block.type === "text" ? [(block as AnthropicTextBlock).text] : []).join("");
  const calls = content.flatMap((block) =>
    block.type === "tool_use" ? [fromAnthropicToolUse(block as AnthropicToolUseBlock)] : []
  );
  if (text !== "") response.text = text;
  if (calls.length > 0) response.toolCalls = calls;
  return response;
}
