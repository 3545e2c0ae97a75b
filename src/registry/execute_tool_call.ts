import { ERROR_HINTS } from "../core/error_hints.ts";
import { type ErrorCode, isAbortError, WorkspaceError } from "../core/errors.ts";
import type { AnyTool, ToolExecuteOptions } from "../tools/tool.ts";
import { type BeforeToolCallHooks, hookList } from "./before_tool_call.ts";
import { jsonProblem } from "./json_problem.ts";
import type { ToolRegistry } from "./tool_registry.ts";

/** A call from the model. */
export interface ToolCall {
  /** The call's kind, as some agent frameworks tag it (the seed course's `type: "toolCall"`); ignored. @default undefined */
  type?: "toolCall";
  /** The call's id, echoed in the result. */
  id: string;
  /** The tool's name. */
  name: string;
  /** The arguments: an object, or its JSON text (as some model APIs send it). */
  arguments: unknown;
}

/** The outcome of a call, ready to hand back to the model. */
export interface ToolCallResult {
  /** The id of the call this answers. */
  toolCallId: string;
  /** The tool that was called. */
  toolName: string;
  /** Whether `content` holds `{"error": …}`. */
  isError: boolean;
  /** JSON text: the tool's output, or `{"error": {"code", "message", "hint"?}}`. */
  content: string;
}

/** The JSON body of an error result. */
export interface ToolErrorBody {
  /** What went wrong. */
  error: {
    code: ErrorCode;
    message: string;
    /** What the model can do next: the throw site's own hint, or the code's from `ERROR_HINTS`. */
    hint: string;
    /** Structured data about the failure (e.g. `SHELL_TIMEOUT`'s partial output); never on argument errors. */
    details?: Record<string, unknown>;
  };
}

/**
 * The error body for `error`: argument errors become `TOOL_ARGUMENTS_INVALID`
 * with the precise code as message; other {@link WorkspaceError}s keep their
 * code, message, hint and details; anything else is `INTERNAL_ERROR` without details
 * (no stack trace, no host path). Every body has a hint: the error's own, or
 * the one its code has in `ERROR_HINTS`.
 *
 * @example What the model sees for a failure
 * ```ts
 * import { toErrorBody, WorkspaceError } from "@paddock/tools";
 * toErrorBody(new WorkspaceError("NOT_FOUND", "Cannot read 'a.txt': it does not exist"));
 * // { error: { code: "NOT_FOUND", message: "Cannot read 'a.txt': it does not exist", hint: "check the name: …" } }
 * toErrorBody(new Error("ENOENT /home/me/project/a.txt")); // { error: { code: "INTERNAL_ERROR", message: "The tool failed unexpectedly", hint: "…" } }
 * ```
 */
export function toErrorBody(error: unknown): ToolErrorBody {
  if (error instanceof WorkspaceError) {
    // Every code has a hint (ERROR_HINTS); the throw site's own, when it knows more, wins.
    const hint = error.hint ?? ERROR_HINTS[error.code] ?? ERROR_HINTS.IO_ERROR;
    if (error.isArgumentError) {
      // The precise code as message; its hint says how to fix the arguments (which property, the limit, the path).
      return { error: { code: "TOOL_ARGUMENTS_INVALID", message: error.code, hint } };
    }
    const body: ToolErrorBody = { error: { code: error.code, message: error.message, hint } };
    if (error.details !== undefined) body.error.details = error.details;
    return body;
  }
  return {
    error: { code: "INTERNAL_ERROR", message: "The tool failed unexpectedly", hint: ERROR_HINTS.INTERNAL_ERROR },
  };
}

/**
 * Builds an error result.
 *
 * @example Answering a call your own code refused
 * ```ts
 * import { errorResult, type ToolCall, WorkspaceError } from "@paddock/tools";
 * declare const call: ToolCall;
 * const result = errorResult(call, new WorkspaceError("TOOL_CALL_DENIED", "lock files are managed by the package manager"));
 * // { toolCallId: call.id, toolName: call.name, isError: true, content: '{"error":{"code":"TOOL_CALL_DENIED",…}}' }
 * ```
 */
export function errorResult(call: Pick<ToolCall, "id" | "name">, error: unknown): ToolCallResult {
  return { toolCallId: call.id, toolName: call.name, isError: true, content: JSON.stringify(toErrorBody(error)) };
}

// Arguments sent as JSON text: empty text (what some models send for a tool that takes no
// arguments) is an empty object, which the tool's schema then judges; text that does not parse
// says what is wrong with it.
function parseCallArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  if (raw.trim() === "") return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new WorkspaceError("INVALID_JSON", "Invalid arguments: not valid JSON", {
      hint: `${jsonProblem(raw)}; send one JSON object, e.g. {"path": "a.txt"}`,
    });
  }
}

/** A call that needs a person's decision, as shown to them (plain JSON). */
export interface ApprovalRequest {
  /** The call's id. */
  toolCallId: string;
  /** The tool's name. */
  toolName: string;
  /** The arguments that will run if approved (parsed, after any rewrite by a hook). */
  arguments: unknown;
}

/** Options of {@link executeToolCall}. */
export interface ExecuteToolCallOptions {
  /** Hooks that may allow, deny or rewrite the call; see {@link BeforeToolCallHook}. @default none */
  beforeToolCall?: BeforeToolCallHooks;
  /**
   * Asked when the tool needs approval for this call; `true` runs it, `false`
   * makes it a `TOOL_CALL_DENIED` result. Without it such a call is not run
   * and comes back as `TOOL_APPROVAL_REQUIRED` (the agent executor instead
   * pauses the run; see `AgentExecutor`).
   * @default none
   */
  approve?: (request: ApprovalRequest) => boolean | Promise<boolean>;
  /** Passed to the tool: called while a long call runs (see `ToolExecuteOptions.onProgress`). @default none */
  onProgress?: ToolExecuteOptions["onProgress"];
}

/** Options of {@link prepareToolCall}. */
export interface PrepareToolCallOptions {
  /** Hooks to run; none on a resumed, already approved call. @default none */
  beforeToolCall?: BeforeToolCallHooks;
}

/**
 * A call checked and ready to run, or already settled as an error result.
 * Preparing has no side effect (beyond what hooks and `needsApproval` do).
 */
export type PreparedToolCall =
  | { ready: false; result: ToolCallResult }
  | {
    ready: true;
    tool: AnyTool;
    /** The call with parsed, final arguments (plain JSON, safe to store). */
    call: { id: string; name: string; arguments: unknown };
    /** The validated input. */
    input: unknown;
    /** Whether a person must approve the call before it runs. */
    needsApproval: boolean;
  };

/** The error result of a call a hook or a person refused. */
export function deniedResult(call: Pick<ToolCall, "id" | "name">, reason: string, hint?: string): ToolCallResult {
  const error = new WorkspaceError("TOOL_CALL_DENIED", `Cannot call '${call.name}': ${reason}`, {
    hint: hint ?? "do not retry the same call; ask the user how to proceed",
  });
  return errorResult(call, error);
}

/**
 * Checks a call without running it: the tool exists, the arguments parse and
 * validate, the `beforeToolCall` hooks allow it (a rewrite is validated
 * again), and whether it needs approval. Every failure is an error result.
 *
 * @param registry The tools.
 * @param call The model's call.
 * @param options The hooks.
 * @returns The prepared call, or its error result.
 */
export async function prepareToolCall(
  registry: ToolRegistry,
  call: ToolCall,
  options: PrepareToolCallOptions = {},
): Promise<PreparedToolCall> {
  const tool = typeof call?.name === "string" ? registry.get(call.name) : undefined;
  const id = typeof call?.id === "string" ? call.id : "";
  const name = typeof call?.name === "string" ? call.name : "";
  if (tool === undefined) {
    const error = new WorkspaceError("TOOL_NOT_FOUND", `Unknown tool '${name}'`, {
      hint: `available tools: ${registry.list().map((t) => t.name).join(", ")}`,
    });
    return { ready: false, result: errorResult({ id, name }, error) };
  }
  try {
    // 1. Parse and validate: nothing below sees invalid arguments.
    let args = parseCallArguments(call.arguments);
    let input = tool.validate(args);
    // 2. Hooks, in order; a rewrite is validated like the model's own arguments.
    for (const hook of hookList(options.beforeToolCall)) {
      const decision = await hook({ call: { id, name, arguments: args }, tool, input });
      if (decision === undefined || decision.action === "allow") continue;
      if (decision.action === "deny") {
        return { ready: false, result: deniedResult({ id, name }, decision.reason, decision.hint) };
      }
      args = parseCallArguments(decision.arguments);
      input = tool.validate(args);
    }
    // 3. The approval gate, decided on the final input.
    const needsApproval = typeof tool.needsApproval === "function"
      ? (await tool.needsApproval(input)) === true
      : tool.needsApproval === true;
    return { ready: true, tool, call: { id, name, arguments: args }, input, needsApproval };
  } catch (error) {
    if (isAbortError(error)) throw error;
    return { ready: false, result: errorResult({ id, name }, error) };
  }
}

/**
 * Runs a prepared call (approval, if it needed one, is the caller's business).
 * Failures are error results; an abort rejects with an AbortError.
 *
 * @param prepared A call from {@link prepareToolCall} with `ready: true`.
 * @param signal Cancels the call.
 * @param onProgress Passed to the tool.
 * @returns The result.
 */
export async function runPreparedToolCall(
  prepared: Extract<PreparedToolCall, { ready: true }>,
  signal?: AbortSignal,
  onProgress?: ToolExecuteOptions["onProgress"],
): Promise<ToolCallResult> {
  const { id, name } = prepared.call;
  try {
    const output = await prepared.tool.run(
      prepared.input,
      onProgress === undefined ? { signal } : { signal, onProgress },
    );
    return { toolCallId: id, toolName: name, isError: false, content: JSON.stringify(output) };
  } catch (error) {
    if (isAbortError(error)) throw error;
    return errorResult({ id, name }, error);
  }
}

/**
 * Runs one tool call. Never throws for a bad call: unknown tools, invalid
 * arguments, refused calls and failures all come back as results with
 * `isError: true`, and the arguments are fully validated before anything
 * happens. The steps: validate → `beforeToolCall` hooks (allow, deny, or
 * rewrite and validate again) → approval gate (`tool.needsApproval`, answered
 * by `options.approve`) → run. Cancellation is not a result: when `signal`
 * aborts, the promise rejects with an AbortError once the tool has cleaned up.
 *
 * @param registry The tools.
 * @param call The model's call.
 * @param signal Cancels the call.
 * @param options Hooks and the approval callback.
 * @returns The result, whose `content` is JSON text.
 *
 * @example Executing a call
 * ```ts
 * import { createCodingTools, executeToolCall, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * const result = await executeToolCall(registry, { id: "1", name: "read_file", arguments: { path: "a.txt" } });
 * JSON.parse(result.content); // { path: "a.txt", content: "…", bytes: 3 } or { error: { code, message } }
 * ```
 *
 * @example Asking a person before a call that needs approval
 * ```ts
 * import { denyShellByDefault, executeToolCall, type ToolCall, type ToolRegistry } from "@paddock/tools";
 * declare const registry: ToolRegistry;
 * declare const call: ToolCall;
 * declare function askUser(question: string): Promise<boolean>;
 * const result = await executeToolCall(registry, call, undefined, {
 *   beforeToolCall: denyShellByDefault(),
 *   approve: async ({ toolName, arguments: args }) => await askUser(`Run ${toolName} ${JSON.stringify(args)}?`),
 * });
 * ```
 */
export async function executeToolCall(
  registry: ToolRegistry,
  call: ToolCall,
  signal?: AbortSignal,
  options: ExecuteToolCallOptions = {},
): Promise<ToolCallResult> {
  const prepared = await prepareToolCall(registry, call, { beforeToolCall: options.beforeToolCall });
  if (!prepared.ready) return prepared.result;
  if (prepared.needsApproval) {
    const request: ApprovalRequest = {
      toolCallId: prepared.call.id,
      toolName: prepared.call.name,
      arguments: prepared.call.arguments,
    };
    if (options.approve === undefined) {
      const error = new WorkspaceError(
        "TOOL_APPROVAL_REQUIRED",
        `Cannot call '${request.toolName}': the call needs a person's approval`,
        { hint: "this call was not run; ask the user to approve it" },
      );
      return errorResult(prepared.call, error);
    }
    let approved: boolean;
    try {
      approved = (await options.approve(request)) === true;
    } catch (error) {
      if (isAbortError(error)) throw error;
      return errorResult(prepared.call, error);
    }
    if (!approved) return deniedResult(prepared.call, "a person denied the call");
  }
  return await runPreparedToolCall(prepared, signal, options.onProgress);
}
