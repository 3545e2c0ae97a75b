/**
 * The shell seam, seen from outside: anything that can run a command line
 * for the `shell` tool — the local host (the default), an in-memory
 * workspace with scripted replies, an OS sandbox, or a remote box (SSH, E2B,
 * Daytona). The provider owns the working folder and the environment.
 *
 * @module
 */

/** One command to run. */
export interface ShellExecRequest {
  /** The command line, run by the provider's shell (e.g. `/bin/sh -c`). */
  command: string;
  /** Wall-clock limit in milliseconds; the provider kills the command's whole process tree when it passes. */
  timeoutMs: number;
  /** Bytes kept of stdout and of stderr, each; beyond it the provider keeps the start and the end. */
  maxOutputBytes: number;
  /** Cancels the command: the provider kills it and rejects with an AbortError. */
  signal?: AbortSignal;
}

/** How a command ended. A non-zero exit is data. */
export interface ShellExecResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  /** Whether the time limit killed it (output is what came before). */
  timedOut: boolean;
}

/** Runs command lines for the `shell` tool. */
export interface ShellProvider {
  /** Runs one command line. */
  exec(request: ShellExecRequest): Promise<ShellExecResult>;
}

/** Whether `value` looks like a {@link ShellProvider}. */
export function isShellProvider(value: unknown): value is ShellProvider {
  return typeof value === "object" && value !== null && typeof (value as ShellProvider).exec === "function";
}
