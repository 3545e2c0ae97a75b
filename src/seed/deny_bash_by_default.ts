import type { BeforeToolCallContext, BeforeToolCallHook } from "../registry/before_tool_call.ts";

/** Options of {@link denyBashByDefault}. */
export interface DenyBashByDefaultOptions {
  /** Calls to let through anyway. @default none: every `bash` call is denied */
  except?: (context: BeforeToolCallContext) => boolean;
}

/**
 * Seed 004's production policy as a `beforeToolCall` hook: every call to
 * `bash` is refused with `TOOL_CALL_DENIED`, and the model is told
 * `bash requires an explicit approval policy`. `read` and `write` run.
 *
 * @param options The calls to let through.
 * @returns The hook.
 *
 * @example
 * ```ts
 * import { createWorkspaceTools, denyBashByDefault, executeToolCall, type ToolCall, ToolRegistry } from "@paddock/tools";
 * declare const call: ToolCall, signal: AbortSignal;
 * const registry = new ToolRegistry(createWorkspaceTools("./project"));
 * await executeToolCall(registry, call, signal, { beforeToolCall: denyBashByDefault() });
 * ```
 */
export function denyBashByDefault(options: DenyBashByDefaultOptions = {}): BeforeToolCallHook {
  return (context) => {
    if (context.call.name !== "bash" || options.except?.(context) === true) return { action: "allow" };
    return {
      action: "deny",
      reason: "bash requires an explicit approval policy",
      hint: "use read and write instead, or ask the user to allow bash",
    };
  };
}
