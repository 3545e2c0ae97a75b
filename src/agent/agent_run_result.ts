/**
 * How an agent run ended: an answer, a pause for approval, or the step limit.
 *
 * @module
 */
import type { ApprovalRequest } from "../registry/execute_tool_call.ts";
import type { AgentMessage } from "./agent_message.ts";
import type { AgentRunState } from "./agent_run_state.ts";

/** How a run ended. */
export type AgentRunResult =
  /** The model answered without calling tools. */
  | { finishReason: "stop"; text: string; messages: AgentMessage[]; steps: number }
  /** A call needs approval: nothing of it (or of the calls after it) has run. */
  | {
    finishReason: "awaiting-approval";
    pendingApprovals: ApprovalRequest[];
    state: AgentRunState;
    messages: AgentMessage[];
    steps: number;
  }
  /** The step limit was reached; `messages` can be passed as `history` to go on. */
  | { finishReason: "max-steps"; messages: AgentMessage[]; steps: number };
