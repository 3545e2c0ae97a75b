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

/**
 * How a command ended. A non-zero exit is data. The same shape is what
 * `node_process` returns, and `shell` returns it without `timedOut` (a timeout
 * is its error).
 */
export interface ShellExecResult {
  /** The exit code, or `null` when a signal ended the process. */
  exitCode: number | null;
  /** The signal that ended it, or `null`. */
  signal: string | null;
  /** Standard output, bounded (cut on a UTF-8 boundary; the shell keeps the start and the end with a marker saying how many bytes were cut). */
  stdout: string;
  /** Standard error, bounded like `stdout`. */
  stderr: string;
  /** Whether bytes of stdout were dropped. */
  stdoutTruncated: boolean;
  /** Whether bytes of stderr were dropped. */
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
