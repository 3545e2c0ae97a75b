import type { ToolCall, ToolCallResult } from "../registry/execute_tool_call.ts";

/** A message from the user. */
export interface UserMessage {
  /** The message role. */
  role: "user";
  /** What the user wrote. */
  content: string;
}

/** A model turn: text, tool calls, or both. */
export interface AssistantMessage {
  /** The message role. */
  role: "assistant";
  /** The model's text, if any. */
  content?: string;
  /** The calls the model made, in order. Arguments are plain JSON. */
  toolCalls?: ToolCall[];
}

/** The result of one tool call, in the order the calls were made. */
export interface ToolResultMessage extends ToolCallResult {
  /** The message role. */
  role: "tool";
}

/**
 * One entry of a conversation. Plain JSON: a transcript can be stored and
 * handed back later.
 */
export type AgentMessage = UserMessage | AssistantMessage | ToolResultMessage;
