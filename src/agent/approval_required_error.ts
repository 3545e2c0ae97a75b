import { WorkspaceError } from "../core/errors.ts";
import type { ApprovalRequest } from "../registry/execute_tool_call.ts";
import type { AgentRunState } from "./agent_run_state.ts";

/**
 * Thrown by `agent.send` when a tool call needs a person's approval (code
 * `TOOL_APPROVAL_REQUIRED`). Nothing of the pending calls has run; pass
 * `state` and one decision per pending call to `agent.resume` to go on.
 */
export class ApprovalRequiredError extends WorkspaceError {
  /** The calls waiting for a decision. */
  readonly pendingApprovals: ApprovalRequest[];
  /** The paused run (plain JSON). */
  readonly state: AgentRunState;

  /**
   * Makes the error for a run paused on `pendingApprovals`.
   *
   * @param pendingApprovals The calls waiting for a decision.
   * @param state The paused run.
   */
  constructor(pendingApprovals: ApprovalRequest[], state: AgentRunState) {
    const names = pendingApprovals.map((request) => `'${request.toolName}'`).join(", ");
    const verb = pendingApprovals.length === 1 ? "needs" : "need";
    super("TOOL_APPROVAL_REQUIRED", `Cannot finish the run: ${names} ${verb} a person's approval`, {
      hint: "show error.pendingApprovals to a person, then call agent.resume(error.state, decisions)",
    });
    this.name = "ApprovalRequiredError";
    this.pendingApprovals = pendingApprovals;
    this.state = state;
  }
}
