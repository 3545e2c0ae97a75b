import type { ShellExecOptions, ShellExecRequest, ShellOutputSink } from "../../shell_provider.ts";
import { WorkspaceError } from "../errors.ts";
import { SHELL_MAX_OUTPUT_BYTES, SHELL_TIMEOUT_MS } from "../limits.ts";
import { normalizeWorkspacePath } from "../path/normalize_workspace_path.ts";

/** One command with every option settled: what a provider runs. */
export interface ResolvedShellExec {
  /** The command line. */
  command: string;
  /** The working folder's normalized segments below the provider's root (`[]` for the root). */
  cwd: string[];
  /** Wall-clock limit in milliseconds. */
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr, each. */
  maxOutputBytes: number;
  /** Cancels the command. */
  signal?: AbortSignal;
  /** Receives the whole output as it is printed. */
  output?: ShellOutputSink;
}

/**
 * Settles the arguments of `ShellProvider.exec` once, up front: the
 * positional form `(command, options?)` or the single request object
 * `({ command, ... })`; a missing option means its documented default
 * (`SHELL_TIMEOUT_MS`, `SHELL_MAX_OUTPUT_BYTES`, the root). An option that
 * is present but wrong is an error, never a silent zero: a missing
 * `timeoutMs` once meant "time out at once".
 *
 * @param commandOrRequest The command line, or the whole request.
 * @param options The options of the positional form.
 * @returns The settled command.
 * @throws {WorkspaceError} `INVALID_ARGUMENTS` naming the wrong option; `INVALID_RELATIVE_PATH` for a bad `cwd`.
 */
export function resolveShellExec(
  commandOrRequest: string | ShellExecRequest,
  options?: ShellExecOptions,
): ResolvedShellExec {
  let command: unknown;
  let given: unknown;
  if (typeof commandOrRequest === "string") {
    command = commandOrRequest;
    given = options ?? {};
  } else {
    command = (commandOrRequest as Partial<ShellExecRequest> | null)?.command;
    given = commandOrRequest;
  }
  if (typeof command !== "string") throw invalid("the command must be a string");
  if (typeof given !== "object" || given === null) throw invalid("the options must be an object");
  const { cwd, timeoutMs, maxOutputBytes, signal, output } = given as ShellExecOptions;
  if (cwd !== undefined && typeof cwd !== "string") throw invalid("cwd must be a workspace-relative path");
  if (signal !== undefined && typeof (signal as { aborted?: unknown })?.aborted !== "boolean") {
    throw invalid("signal must be an AbortSignal");
  }
  return {
    command,
    cwd: cwd === undefined ? [] : normalizeWorkspacePath(cwd),
    timeoutMs: positiveInteger("timeoutMs", timeoutMs, SHELL_TIMEOUT_MS),
    maxOutputBytes: positiveInteger("maxOutputBytes", maxOutputBytes, SHELL_MAX_OUTPUT_BYTES),
    ...(signal === undefined ? {} : { signal }),
    ...(output === undefined ? {} : { output }),
  };
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value <= 0) {
    throw invalid(`${name} must be a positive integer, got ${typeof value === "number" ? value : typeof value}`);
  }
  return value;
}

function invalid(detail: string): WorkspaceError {
  return new WorkspaceError("INVALID_ARGUMENTS", `Cannot run the command: ${detail}`, {
    hint: "call exec(command, { cwd?, timeoutMs?, maxOutputBytes?, signal? })",
  });
}
