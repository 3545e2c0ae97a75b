/**
 * What an agent is: its instructions, hooks and step limit.
 *
 * @module
 */
import type { BeforeToolCallHooks } from "../registry/before_tool_call.ts";

/** What an agent is, apart from its model and tools. */
export interface AgentDefinition {
  /** The system prompt. */
  instructions: string;
  /** Hooks run before every tool call (allow, deny, rewrite). @default none */
  beforeToolCall?: BeforeToolCallHooks;
  /** Model calls per run at most. @default 20 ({@link AGENT_MAX_STEPS}) */
  maxSteps?: number;
}
