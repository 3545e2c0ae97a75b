/**
 * The options of an agent run: the model, tools and approvals, and what
 * starts or resumes the run.
 *
 * @module
 */
import type { ToolRegistry } from "../registry/tool_registry.ts";
import type { AgentDefinition } from "./agent_definition.ts";
import type { AgentMessage } from "./agent_message.ts";
import type { AgentRunState } from "./agent_run_state.ts";
import type { ApprovalDecision } from "./approval_decision.ts";
import type { ApprovalStore } from "./approval_store.ts";
import type { ModelProvider } from "./model_provider.ts";

/** Model, tools and approvals of a run. */
export interface AgentRunContext {
  /** The agent. */
  agent: AgentDefinition;
  /** The model. */
  provider: ModelProvider;
  /** The tools. */
  toolRegistry: ToolRegistry;
  /** Remembered decisions. @default none: every call that needs approval pauses */
  approvalStore?: ApprovalStore;
  /** Cancels the run: it rejects with an AbortError. */
  signal?: AbortSignal;
}

/** Options of `AgentExecutor.execute`. */
export interface AgentExecuteOptions extends AgentRunContext {
  /** The user's message. */
  input: string;
  /** Earlier messages of the conversation. @default [] */
  history?: readonly AgentMessage[];
}

/** Options of `AgentExecutor.resumeAfterApproval`. */
export interface AgentResumeOptions extends AgentRunContext {
  /** The paused run's state (as returned, or parsed back from JSON). */
  state: AgentRunState;
  /** One decision per pending approval. */
  decisions: readonly ApprovalDecision[];
}
