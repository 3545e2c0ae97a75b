/**
 * A person's answer to a call that waits for approval.
 *
 * @module
 */
/** A person's answer to one {@link ApprovalRequest}. */
export interface ApprovalDecision {
  /** The call decided on. */
  toolCallId: string;
  /** Whether it runs. */
  approved: boolean;
  /** Why it was refused, as told to the model. @default "a person denied the call" */
  reason?: string;
  /** Remember the decision in the approval store for the same call (`call`) or the whole tool (`tool`). @default not remembered */
  remember?: "call" | "tool";
}
