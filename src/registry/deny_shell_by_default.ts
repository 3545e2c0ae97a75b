import type { BeforeToolCallContext, BeforeToolCallHook } from "./before_tool_call.ts";

/** Options of {@link denyShellByDefault}. */
export interface DenyShellByDefaultOptions {
  /** Names of the tools that run command lines. @default ["shell"] */
  toolNames?: readonly string[];
  /**
   * Calls to let through anyway (they still go through the tool's own
   * allow / deny lists and approval). @default none: every call is denied
   */
  except?: (context: BeforeToolCallContext) => boolean;
  /** The reason the model is told. @default "shell commands are turned off in this workspace" */
  reason?: string;
}

/**
 * The "deny shell by default" policy as a {@link BeforeToolCallHook}: every
 * call to the shell tool is refused with `TOOL_CALL_DENIED` (the model sees the
 * reason and can fall back to the file tools), except the calls `except` lets
 * through. Other tools are not affected.
 *
 * This is a policy, not isolation: a command that is let through runs with
 * the agent's own rights.
 *
 * @param options Tool names, exceptions and the reason given.
 * @returns The hook, for `beforeToolCall`.
 *
 * @example Turning the shell off, except for the test command
 * ```ts
 * import { denyShellByDefault, executeToolCall, type ToolCall, type ToolRegistry } from "@paddock/tools";
 * declare const registry: ToolRegistry;
 * declare const call: ToolCall;
 * const hook = denyShellByDefault({
 *   except: ({ call }) => (call.arguments as { command: string }).command === "npm test",
 * });
 * await executeToolCall(registry, call, undefined, { beforeToolCall: hook });
 * ```
 */
export function denyShellByDefault(options: DenyShellByDefaultOptions = {}): BeforeToolCallHook {
  const toolNames = new Set(options.toolNames ?? ["shell"]);
  const reason = options.reason ?? "shell commands are turned off in this workspace";
  return (context) => {
    if (!toolNames.has(context.call.name)) return { action: "allow" };
    if (options.except?.(context) === true) return { action: "allow" };
    return {
      action: "deny",
      reason,
      hint: "use the file tools (read_file, write_file, edit_file) instead, or ask the user to run the command",
    };
  };
}
