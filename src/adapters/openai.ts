/**
 * Adapters to the OpenAI Chat Completions API: tool definitions, tool calls
 * in, tool results out. Plain JSON; no dependency on the `openai` package.
 *
 * @module
 */
import type { JsonSchema } from "../tools/tool.ts";
import type { ToolCall, ToolCallResult } from "../registry/execute_tool_call.ts";
import { definitionsOf, type ToolSource } from "./_tool_source.ts";

/** A Chat Completions function tool. */
export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchema };
}

/** A tool call in an assistant message of Chat Completions. */
export interface OpenAIToolCall {
  id: string;
  type?: "function";
  function: { name: string; arguments: string };
}

/** A `role: "tool"` message answering one tool call. */
export interface OpenAIToolMessage {
  role: "tool";
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
 * import { createCodingTools, executeToolCall, fromOpenAIToolCall, toOpenAIToolMessage, toOpenAITools, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * const completion = await openai.chat.completions.create({ model, messages, tools: toOpenAITools(registry) });
 * for (const call of completion.choices[0].message.tool_calls ?? []) {
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
 */
export function fromOpenAIToolCall(call: OpenAIToolCall): ToolCall {
  return { id: call.id, name: call.function.name, arguments: call.function.arguments };
}

/**
 * A tool call's result as the `role: "tool"` message that answers it. Chat
 * Completions has no error flag: an error is the `{"error": …}` JSON content.
 *
 * @param result The result from `executeToolCall`.
 * @returns The message.
 */
export function toOpenAIToolMessage(result: ToolCallResult): OpenAIToolMessage {
  return { role: "tool", tool_call_id: result.toolCallId, content: result.content };
}
