import { canonicalJson } from "./_canonical_json.ts";
import type { ApprovalRule, ApprovalStore, RememberedApproval } from "./approval_store.ts";

/**
 * An {@link ApprovalStore} in memory: decisions last as long as the object.
 *
 * @example Approving every `read_file` call up front
 * ```ts
 * import { InMemoryApprovalStore } from "@paddock/tools";
 * const approvals = new InMemoryApprovalStore();
 * await approvals.remember({ toolName: "read_file", scope: "tool", approved: true });
 * ```
 */
export class InMemoryApprovalStore implements ApprovalStore {
  private readonly byCall = new Map<string, RememberedApproval>();
  private readonly byTool = new Map<string, RememberedApproval>();

  /** The remembered decision for a call: the exact call first, then the whole tool. */
  lookup(call: { toolName: string; arguments: unknown }): Promise<RememberedApproval | undefined> {
    const exact = this.byCall.get(callKey(call.toolName, call.arguments));
    return Promise.resolve(exact ?? this.byTool.get(call.toolName));
  }

  /** Remembers a decision. */
  remember(rule: ApprovalRule): Promise<void> {
    const decision: RememberedApproval = { approved: rule.approved, scope: rule.scope };
    if (rule.reason !== undefined) decision.reason = rule.reason;
    if (rule.scope === "tool") this.byTool.set(rule.toolName, decision);
    else this.byCall.set(callKey(rule.toolName, rule.arguments), decision);
    return Promise.resolve();
  }

  /** Forgets every decision. */
  clear(): void {
    this.byCall.clear();
    this.byTool.clear();
  }
}

function callKey(toolName: string, args: unknown): string {
  return `${toolName}\u0000${canonicalJson(args ?? {})}`;
}
