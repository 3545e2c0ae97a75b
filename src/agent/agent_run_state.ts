/**
 * The state of a paused agent run, plain JSON.
 *
 * @module
 */
import type { ToolCall, ToolCallResult } from "../registry/execute_tool_call.ts";
import type { AgentMessage } from "./agent_message.ts";

/** Where one tool call of a paused turn stands. Plain JSON. */
export type PausedToolCall =
  /** Settled before the pause (ran, failed validation, or refused). */
  | { status: "done"; result: ToolCallResult }
  /** Waits for a person's decision. */
  | { status: "awaiting-approval"; call: ToolCall }
  /** Needs no decision, but runs only after the calls before it. */
  | { status: "queued"; call: ToolCall };

/**
 * Everything needed to resume a paused run: plain JSON, so it can be stored
 * (`JSON.stringify`) and resumed by another executor, in another process.
 */
export interface AgentRunState {
  /** Format version of this object. */
  version: 1;
  /** The conversation up to and including the model turn whose calls are paused. */
  messages: AgentMessage[];
  /** Model calls made so far in this run. */
  steps: number;
  /** The paused turn's calls, in the model's order. */
  toolCalls: PausedToolCall[];
}
