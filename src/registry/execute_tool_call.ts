import { type ErrorCode, isAbortError, WorkspaceError } from "../core/errors.ts";
import type { ToolRegistry } from "./tool_registry.ts";

/** A call from the model. */
export interface ToolCall {
  /** The call's id, echoed in the result. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments: an object, or its JSON text (as some model APIs send it). */
  arguments: unknown;
}

/** The outcome of a call, ready to hand back to the model. */
export interface ToolCallResult {
  toolCallId: string;
  toolName: string;
  /** Whether `content` holds `{"error": …}`. */
  isError: boolean;
  /** JSON text: the tool's output, or `{"error": {"code", "message", "hint"?}}`. */
  content: string;
}

/** The JSON body of an error result. */
export interface ToolErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    hint?: string;
    /** Structured data about the failure (e.g. `SHELL_TIMEOUT`'s partial output); never on argument errors. */
    details?: Record<string, unknown>;
  };
}

/**
 * The error body for `error`: argument errors become `TOOL_ARGUMENTS_INVALID`
 * with the precise code as message; other {@link WorkspaceError}s keep their
 * code, message, hint and details; anything else is `INTERNAL_ERROR` without details
 * (no stack trace, no host path).
 */
export function toErrorBody(error: unknown): ToolErrorBody {
  if (error instanceof WorkspaceError) {
    if (error.isArgumentError) {
      const body: ToolErrorBody = { error: { code: "TOOL_ARGUMENTS_INVALID", message: error.code } };
      // Only schema problems carry a hint: which property is wrong.
      if (error.code === "INVALID_ARGUMENTS" && error.hint !== undefined) body.error.hint = error.hint;
      return body;
    }
    const body: ToolErrorBody = { error: { code: error.code, message: error.message } };
    if (error.hint !== undefined) body.error.hint = error.hint;
    if (error.details !== undefined) body.error.details = error.details;
    return body;
  }
  return { error: { code: "INTERNAL_ERROR", message: "The tool failed unexpectedly" } };
}

/** Builds an error result. */
export function errorResult(call: Pick<ToolCall, "id" | "name">, error: unknown): ToolCallResult {
  return { toolCallId: call.id, toolName: call.name, isError: true, content: JSON.stringify(toErrorBody(error)) };
}

function parseCallArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new WorkspaceError("INVALID_JSON", "Invalid arguments: not valid JSON");
  }
}

/**
 * Runs one tool call. Never throws for a bad call: unknown tools, invalid
 * arguments and failures all come back as results with `isError: true`, and
 * the arguments are fully validated before anything happens. Cancellation is
 * not a result: when `signal` aborts, the promise rejects with an AbortError
 * once the tool has cleaned up.
 *
 * @param registry The tools.
 * @param call The model's call.
 * @param signal Cancels the call.
 * @returns The result, whose `content` is JSON text.
 *
 * @example Executing a call
 * ```ts
 * import { createCodingTools, executeToolCall, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * const result = await executeToolCall(registry, { id: "1", name: "read_file", arguments: { path: "a.txt" } });
 * JSON.parse(result.content); // { path: "a.txt", content: "…", bytes: 3 } or { error: { code, message } }
 * ```
 */
export async function executeToolCall(
  registry: ToolRegistry,
  call: ToolCall,
  signal?: AbortSignal,
): Promise<ToolCallResult> {
  const tool = typeof call?.name === "string" ? registry.get(call.name) : undefined;
  const id = typeof call?.id === "string" ? call.id : "";
  const name = typeof call?.name === "string" ? call.name : "";
  if (tool === undefined) {
    const error = new WorkspaceError("TOOL_NOT_FOUND", `Unknown tool '${name}'`, {
      hint: `available tools: ${registry.list().map((t) => t.name).join(", ")}`,
    });
    return errorResult({ id, name }, error);
  }
  let input: unknown;
  try {
    input = tool.validate(parseCallArguments(call.arguments));
  } catch (error) {
    return errorResult({ id, name }, error);
  }
  try {
    const output = await tool.run(input, { signal });
    return { toolCallId: id, toolName: name, isError: false, content: JSON.stringify(output) };
  } catch (error) {
    if (isAbortError(error)) throw error;
    return errorResult({ id, name }, error);
  }
}
