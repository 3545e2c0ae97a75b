/**
 * Adapters to the Anthropic Messages API: tool definitions, `tool_use`
 * blocks in, `tool_result` blocks out. Plain JSON; no dependency on the SDK.
 *
 * @module
 */
import type { JsonSchema } from "../tools/tool.ts";
import type { ToolCall, ToolCallResult } from "../registry/execute_tool_call.ts";
import { definitionsOf, type ToolSource } from "./_tool_source.ts";

/** A Messages API tool definition. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
}

/** A `tool_result` content block, sent back in a user message. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
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
 * import { createCodingTools, executeToolCall, fromAnthropicToolUse, toAnthropicToolResult, toAnthropicTools, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * const reply = await anthropic.messages.create({ model, max_tokens: 4096, messages, tools: toAnthropicTools(registry) });
 * const results = [];
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
    input_schema: inputSchema,
  }));
}

/**
 * A `tool_use` block as a Paddock {@link ToolCall}.
 *
 * @param block The block from the assistant message.
 * @returns The call.
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
 */
export function toAnthropicToolResult(result: ToolCallResult): AnthropicToolResultBlock {
  return { type: "tool_result", tool_use_id: result.toolCallId, content: result.content, is_error: result.isError };
}
