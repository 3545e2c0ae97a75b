/** A decision a person asked to remember. */
export interface RememberedApproval {
  /** Whether such calls run (`true`) or are refused (`false`). */
  approved: boolean;
  /** Why, as told to the model when refused. */
  reason?: string;
  /** `call`: the same tool with the same arguments; `tool`: any call to the tool. */
  scope: "call" | "tool";
}

/** A decision to remember, for one tool (and, with scope `call`, one set of arguments). */
export interface ApprovalRule extends RememberedApproval {
  /** The tool's name. */
  toolName: string;
  /** The exact arguments (scope `call` only). */
  arguments?: unknown;
}

/**
 * Remembers approval decisions, so a person is not asked twice. The agent
 * executor looks up every call that needs approval before pausing, and
 * stores a decision given with `remember`. A lookup prefers a decision about
 * the exact call (same tool, same arguments) over one about the whole tool.
 *
 * Implement it over a database to keep decisions across restarts;
 * {@link InMemoryApprovalStore} keeps them for the life of the process.
 */
export interface ApprovalStore {
  /** The remembered decision for a call, if any. */
  lookup(call: { toolName: string; arguments: unknown }): Promise<RememberedApproval | undefined>;
  /** Remembers a decision (a later one replaces an earlier one of the same scope and key). */
  remember(rule: ApprovalRule): Promise<void>;
}
