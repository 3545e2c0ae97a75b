import type { ToolDefinitionJson } from "../registry/tool_registry.ts";
import type { AgentMessage } from "./agent_message.ts";

/** What the agent loop asks the model. */
export interface ModelRequest {
  /** The system prompt. */
  instructions: string;
  /** The conversation so far, oldest first. */
  messages: readonly AgentMessage[];
  /** The tools the model may call. */
  tools: readonly ToolDefinitionJson[];
  /** Cancels the request. */
  signal?: AbortSignal;
}

/** A tool call as the model returns it. */
export interface ModelToolCall {
  /** The call's id; the loop makes one up when it is missing. */
  id?: string;
  /** The tool's name. */
  name: string;
  /** The arguments: an object, or its JSON text. */
  arguments: unknown;
}

/** What the model answered: final text, tool calls, or both. */
export interface ModelResponse {
  /** Text for the user. */
  text?: string;
  /** Calls to run, in order; none ends the run. */
  toolCalls?: readonly ModelToolCall[];
}

/**
 * A language model, seen from the agent loop: one method that takes the
 * instructions, the messages and the tool definitions, and returns text
 * and/or tool calls. Wrap any API in it (OpenAI, Anthropic, a local model);
 * `mockModel` from `@paddock/tools/testing` is a scripted one for tests.
 *
 * @example A provider over a chat API
 * ```ts
 * import type { AgentMessage, ModelProvider, ModelToolCall, ToolDefinitionJson } from "@paddock/tools";
 * declare function myChatApi(request: {
 *   system: string;
 *   messages: readonly AgentMessage[];
 *   tools: readonly ToolDefinitionJson[];
 *   signal?: AbortSignal;
 * }): Promise<{ text: string; calls: ModelToolCall[] }>;
 * const provider: ModelProvider = {
 *   async generate({ instructions, messages, tools, signal }) {
 *     const reply = await myChatApi({ system: instructions, messages, tools, signal });
 *     return { text: reply.text, toolCalls: reply.calls };
 *   },
 * };
 * ```
 */
export interface ModelProvider {
  /** Asks the model for its next turn. */
  generate(request: ModelRequest): Promise<ModelResponse>;
}
