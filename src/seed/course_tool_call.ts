import type { ToolCall } from "../registry/execute_tool_call.ts";

/**
 * A tool call as the seed course writes it: `executeToolCall` takes it as it
 * is (`type` is ignored).
 *
 * @example
 * ```ts
 * import { type CourseToolCall, executeToolCall, type ToolRegistry } from "@paddock/tools";
 * declare const registry: ToolRegistry;
 * const call: CourseToolCall = { type: "toolCall", id: "1", name: "write_file", arguments: { path: "a.txt", content: "" } };
 * await executeToolCall(registry, call, new AbortController().signal);
 * ```
 */
export interface CourseToolCall extends ToolCall {
  /** The call's kind. */
  type: "toolCall";
  /** The arguments, an object. */
  arguments: Record<string, unknown>;
}
