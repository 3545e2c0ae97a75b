/**
 * The closed set of error codes Paddock reports. Callers and models match on
 * `code`; messages are for people and may change.
 *
 * Codes in {@link ARGUMENT_ERROR_CODES} describe bad input found before any
 * side effect; a tool call result reports them as code `TOOL_ARGUMENTS_INVALID`
 * with the precise code as `message`.
 */
export type ErrorCode =
  // Bad input, found before any side effect.
  | "INVALID_ARGUMENTS"
  | "INVALID_JSON"
  | "INVALID_RELATIVE_PATH"
  | "PATH_TOO_LONG"
  | "CONTENT_TOO_LARGE"
  | "SOURCE_TOO_LARGE"
  | "TOO_MANY_ARGUMENTS"
  | "ARGUMENT_TOO_LARGE"
  | "ARGUMENTS_TOO_LARGE"
  | "COMMAND_LINE_TOO_LONG"
  | "INVALID_PATTERN"
  // Registry.
  | "TOOL_ARGUMENTS_INVALID"
  | "TOOL_NOT_FOUND"
  | "TOOL_CALL_DENIED"
  | "TOOL_APPROVAL_REQUIRED"
  | "APPROVAL_UNAVAILABLE"
  // MCP server: a path names a --root the client's roots leave out.
  | "ROOT_NOT_SERVED"
  // Agent loop.
  | "AGENT_MAX_STEPS"
  // Workspace and filesystem.
  | "WORKSPACE_ROOT_CHANGED"
  | "WORKSPACE_ROOT_INVALID"
  | "PATH_ESCAPES_WORKSPACE"
  | "PATH_CHANGED"
  | "PATH_TOO_DEEP"
  | "SYMLINK_LOOP"
  | "DANGLING_SYMLINK"
  | "NOT_FOUND"
  | "NOT_A_FILE"
  | "NOT_A_DIRECTORY"
  | "ALREADY_EXISTS"
  | "DIRECTORY_NOT_EMPTY"
  | "PERMISSION_DENIED"
  | "FILE_TOO_LARGE"
  | "INVALID_UTF8"
  // Text files (decode_text.ts, encode_text.ts): a binary file, bytes whose encoding cannot be told, a character
  // the file's encoding cannot hold.
  | "BINARY_FILE"
  | "ENCODING_UNKNOWN"
  | "UNREPRESENTABLE_CHARACTER"
  // read_media_file: the bytes are no image or audio format it knows.
  | "UNSUPPORTED_MEDIA_TYPE"
  | "IO_ERROR"
  // File editing and moving (edit_file, delete_path, move_path).
  | "EDIT_NOT_FOUND"
  | "EDIT_NOT_UNIQUE"
  | "WORKSPACE_ROOT_PROTECTED"
  | "MOVE_INTO_ITSELF"
  | "TOO_MANY_ENTRIES"
  // apply_patch: a patch it cannot read, a hunk that matches nowhere, a file to add that exists.
  | "PATCH_INVALID"
  | "PATCH_HUNK_NOT_FOUND"
  | "PATCH_FILE_EXISTS"
  // Stale-write guard (read_tracker.ts): the file changed since it was read, or was never read.
  | "FILE_CHANGED_SINCE_READ"
  | "FILE_NOT_READ"
  // A write tool refused to change a file that makes allowed commands run code (protected_paths.ts).
  | "PROTECTED_PATH"
  // A path the workspace's owner made private (private_paths.ts): never read, listed or changed.
  | "PATH_PRIVATE"
  // Checkpoints (restore, undo_last_change): a file changed by someone else since the
  // change journaled, a change the journal cannot undo, a checkpoint of another
  // workspace, nothing left to undo, a command's changes not all captured.
  | "CHANGED_SINCE_CHECKPOINT"
  | "NOT_RESTORABLE"
  | "CHANGES_INCOMPLETE"
  | "CHECKPOINT_UNKNOWN"
  | "NOTHING_TO_UNDO"
  // Processes.
  | "NODE_PROCESS_TIMEOUT"
  | "NODE_PROCESS_PERMISSIONS_UNAVAILABLE"
  | "SPAWN_FAILED"
  | "SHELL_TIMEOUT"
  // Background processes (background_processes.ts): the limit, an unknown id, input to one that ended or takes none.
  | "TOO_MANY_BACKGROUND_PROCESSES"
  | "PROCESS_NOT_FOUND"
  | "PROCESS_NOT_RUNNING"
  | "PROCESS_INPUT_UNSUPPORTED"
  // process_input to a process that does not read its stdin (stdin_queue.ts): nothing was sent.
  | "PROCESS_INPUT_BLOCKED"
  // A command that ended with a non-zero exit, or a signal, where a tool treats that as a failure (seed 004's bash).
  | "COMMAND_FAILED"
  // More output than a tool's buffer holds, where a tool treats that as a failure (seed 004's bash).
  | "OUTPUT_TOO_LARGE"
  // Shell policy refusals: found before any side effect, yet reported under
  // their own codes (not as TOOL_ARGUMENTS_INVALID) so the model learns why.
  | "SHELL_COMMAND_DENIED"
  | "SHELL_COMMAND_NOT_ALLOWED"
  // A git command refused: the repository points out of the workspace or its config runs programs (git_guard.ts).
  | "GIT_REPOSITORY_UNSAFE"
  // OS sandbox.
  | "SANDBOX_UNAVAILABLE"
  // Container sandbox refusals (SubprocessSandbox): the engine, or its
  // networking, cannot give the isolation asked for; nothing was run.
  | "SANDBOX_ENGINE_UNSUPPORTED"
  | "SANDBOX_EGRESS_UNSUPPORTED"
  // Anything unexpected (a bug): reported without details.
  | "INTERNAL_ERROR";

/** Codes that mean "the arguments were wrong"; see {@link ErrorCode}. */
export const ARGUMENT_ERROR_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "INVALID_ARGUMENTS",
  "INVALID_JSON",
  "INVALID_RELATIVE_PATH",
  "PATH_TOO_LONG",
  "CONTENT_TOO_LARGE",
  "SOURCE_TOO_LARGE",
  "TOO_MANY_ARGUMENTS",
  "ARGUMENT_TOO_LARGE",
  "ARGUMENTS_TOO_LARGE",
  "COMMAND_LINE_TOO_LONG",
  "INVALID_PATTERN",
]);

/** Options of a {@link WorkspaceError}. */
export interface WorkspaceErrorOptions {
  /** A short suggestion for the caller (or the model) on how to recover. @default undefined (no hint) */
  hint?: string;
  /** The workspace-relative path the failed operation was about, as given. @default undefined (no path) */
  path?: string;
  /** The underlying error, kept for debugging; never serialised. @default undefined */
  cause?: unknown;
  /**
   * Structured, JSON-serialisable data for the caller (e.g. the partial output of a timed-out command);
   * serialised in tool results. @default undefined (no details)
   */
  details?: Record<string, unknown>;
}

/**
 * The one error type Paddock throws. It carries a stable {@link ErrorCode},
 * a sentence-case message without a final period, and workspace-relative paths
 * only (never an absolute host path).
 *
 * @example Matching on the code
 * ```ts
 * import { type AnyTool, WorkspaceError } from "@paddock/tools";
 * declare const tool: AnyTool;
 * try {
 *   await tool.execute({ path: "../x" });
 * } catch (error) {
 *   if (error instanceof WorkspaceError && error.code === "INVALID_RELATIVE_PATH") {
 *     // ask the model for a path inside the workspace
 *   }
 * }
 * ```
 */
export class WorkspaceError extends Error {
  /** The stable code. */
  readonly code: ErrorCode;
  /** A short suggestion on how to recover, when there is one. */
  readonly hint?: string;
  /** The workspace-relative path involved, as the caller gave it. */
  readonly path?: string;
  /** Structured, JSON-serialisable data about the failure, when there is some. */
  readonly details?: Record<string, unknown>;

  /**
   * Makes an error from a message alone.
   *
   * @param message What failed, for a provider or tool written outside Paddock (the seed documents'
   *   `new WorkspaceError(message)`); the code is then `IO_ERROR`.
   */
  constructor(message: string);
  /**
   * Makes an error with a stable code.
   *
   * @param code The stable code.
   * @param message What failed, in sentence case, without a final period.
   * @param options Hint, path, cause and details.
   */
  constructor(code: ErrorCode, message: string, options?: WorkspaceErrorOptions);
  constructor(codeOrMessage: string, message?: string, options: WorkspaceErrorOptions = {}) {
    super(message ?? codeOrMessage, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "WorkspaceError";
    this.code = message === undefined ? "IO_ERROR" : codeOrMessage as ErrorCode;
    if (options.hint !== undefined) this.hint = options.hint;
    if (options.path !== undefined) this.path = options.path;
    if (options.details !== undefined) this.details = options.details;
  }

  /** Whether this error describes bad input rather than a failed operation. */
  get isArgumentError(): boolean {
    return ARGUMENT_ERROR_CODES.has(this.code);
  }
}

/**
 * Whether `value` is a {@link WorkspaceError}, optionally with the given code.
 *
 * @example Treating a missing file as absent
 * ```ts
 * import { type AnyTool, isWorkspaceError } from "@paddock/tools";
 * declare const read: AnyTool;
 * const manifest = await read.execute({ path: "package.json" })
 *   .catch((error) => isWorkspaceError(error, "NOT_FOUND") ? undefined : Promise.reject(error));
 * ```
 */
export function isWorkspaceError(value: unknown, code?: ErrorCode): value is WorkspaceError {
  return value instanceof WorkspaceError && (code === undefined || value.code === code);
}

/** The error an aborted operation rejects with (a DOMException named `AbortError`). */
export function abortError(signal?: AbortSignal): unknown {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === "AbortError") return reason;
  return new DOMException("The operation was aborted", "AbortError");
}

/** Throws the AbortError when `signal` is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortError(signal);
}

/**
 * Whether `error` is an AbortError.
 *
 * @example Telling a cancelled call from a failed one
 * ```ts
 * import { type AnyTool, isAbortError } from "@paddock/tools";
 * declare const grep: AnyTool;
 * const stop = new AbortController(); // stop.abort() when the user presses Stop
 * const result = await grep.execute({ pattern: "TODO" }, { signal: stop.signal })
 *   .catch((error) => isAbortError(error) ? undefined : Promise.reject(error));
 * ```
 */
export function isAbortError(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/**
 * The workspace root no longer is the folder that was opened (deleted,
 * replaced, moved, or a root link retargeted): `WORKSPACE_ROOT_CHANGED`.
 *
 * @returns The error to throw.
 */
export function rootChanged(): WorkspaceError {
  return new WorkspaceError("WORKSPACE_ROOT_CHANGED", "Cannot use the workspace: its root folder changed", {
    hint: "the workspace folder was deleted, replaced or moved; open the workspace again",
  });
}

/**
 * The one refusal for a change aimed at the workspace folder itself (delete,
 * move, overwrite): `WORKSPACE_ROOT_PROTECTED`.
 *
 * @param action The action, for the message ("delete", "move", "write").
 * @param display The path as the caller gave it.
 * @returns The error to throw.
 */
export function rootProtected(action: string, display: string): WorkspaceError {
  return new WorkspaceError("WORKSPACE_ROOT_PROTECTED", `Cannot ${action} '${display}': it is the workspace folder`, {
    path: display,
    hint: "name a file or folder inside the workspace",
  });
}
