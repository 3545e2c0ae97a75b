import type { AnyTool } from "../tools/tool.ts";

/** What a {@link BeforeToolCallHook} sees: a call whose arguments are already valid. */
export interface BeforeToolCallContext {
  /** The call, with its arguments parsed (and as left by earlier hooks). */
  readonly call: { readonly id: string; readonly name: string; readonly arguments: unknown };
  /** The tool about to run. */
  readonly tool: AnyTool;
  /** The tool's validated input (what `tool.validate(call.arguments)` returned). */
  readonly input: unknown;
}

/**
 * A hook's verdict:
 * - `allow`: no objection (the tool's own `needsApproval` still applies);
 * - `deny`: the call does not run; the model gets a `TOOL_CALL_DENIED` result with `reason`;
 * - `rewrite`: run with these arguments instead; they are validated again, and
 *   the hooks after this one see them.
 *
 * Returning nothing means `allow`.
 */
export type BeforeToolCallDecision =
  | { action: "allow" }
  | { action: "deny"; reason: string; hint?: string }
  | { action: "rewrite"; arguments: unknown };

/**
 * Runs before a tool call, after its arguments were validated and before the
 * approval gate and any side effect. Hooks run in order; the first `deny`
 * wins; a `rewrite` replaces the arguments for the hooks after it (put
 * rewriting hooks before denying ones). A hook that throws fails the call
 * (its {@link WorkspaceError} code, else `INTERNAL_ERROR`).
 *
 * @example Refusing writes to lock files
 * ```ts
 * import type { BeforeToolCallHook } from "@paddock/tools";
 * const noLockFiles: BeforeToolCallHook = ({ call }) => {
 *   const path = (call.arguments as { path?: unknown }).path;
 *   if (call.name === "write_file" && typeof path === "string" && path.endsWith(".lock")) {
 *     return { action: "deny", reason: "lock files are managed by the package manager" };
 *   }
 * };
 * ```
 */
export type BeforeToolCallHook = (
  context: BeforeToolCallContext,
) => BeforeToolCallDecision | undefined | void | Promise<BeforeToolCallDecision | undefined | void>;

/** One hook or several, run in order. */
export type BeforeToolCallHooks = BeforeToolCallHook | readonly BeforeToolCallHook[];

/** The hooks as a list. */
export function hookList(hooks: BeforeToolCallHooks | undefined): readonly BeforeToolCallHook[] {
  if (hooks === undefined) return [];
  return typeof hooks === "function" ? [hooks] : hooks;
}
