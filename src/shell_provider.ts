/**
 * The shell seam, seen from outside: anything that can run a command line
 * for the `shell` tool — the local host (the default), an in-memory
 * workspace with scripted replies, an OS sandbox, or a remote box (SSH, E2B,
 * Daytona). The provider owns the working folder and the environment.
 *
 * @module
 */
import type { HostChild } from "./host_process.ts";

/**
 * How to run one command: the second argument of {@link ShellProvider.exec}.
 * Every property may be left out and then means its documented default.
 */
export interface ShellExecOptions {
  /** The working folder, workspace-relative (it goes through the path grammar). @default "." (the root) */
  cwd?: string;
  /** Wall-clock limit in milliseconds; the provider kills the command's whole process tree when it passes. @default 30000 (`SHELL_TIMEOUT_MS`) */
  timeoutMs?: number;
  /** Bytes kept of stdout and of stderr, each; beyond it the provider keeps the start and the end. @default 32768 (`SHELL_MAX_OUTPUT_BYTES`) */
  maxOutputBytes?: number;
  /** Cancels the command: the provider kills it and rejects with an AbortError. @default undefined (not cancellable) */
  signal?: AbortSignal;
  /**
   * Receives every byte of stdout and stderr as it is printed, before any
   * limit (the `shell` tool keeps the whole output for `process_output`). A
   * provider that cannot stream may ignore it: the tool then keeps what
   * `exec` returns. @default undefined
   */
  output?: ShellOutputSink;
}

/** Where a command's output goes, chunk by chunk, as it is printed. */
export interface ShellOutputSink {
  /** A chunk of standard output. */
  stdout(chunk: Uint8Array): void;
  /** A chunk of standard error. */
  stderr(chunk: Uint8Array): void;
}

/** One command and its options as a single object: the form Paddock's own providers also accept. */
export interface ShellExecRequest extends ShellExecOptions {
  /** The command line, run by the provider's shell (e.g. `/bin/sh -c`). */
  command: string;
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

/**
 * What a provider may return: the output, the exit code and whether it timed
 * out; the `shell` tool fills in the rest (`signal: null`, no truncation,
 * `timedOut: false`) and bounds output that is over its limit.
 */
export interface ShellExecOutcome {
  /** The exit code, or `null` when a signal ended the process. */
  exitCode: number | null;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
  /** Whether the time limit killed it. @default false */
  timedOut?: boolean;
  /** The signal that ended it. @default null */
  signal?: string | null;
  /** Whether bytes of stdout were dropped. @default false */
  stdoutTruncated?: boolean;
  /** Whether bytes of stderr were dropped. @default false */
  stderrTruncated?: boolean;
}

/**
 * A command started by {@link ShellProvider.start}: the running child (its
 * stdin a pipe), and what to release once it ended.
 */
export interface StartedShellCommand {
  /** The child, in its own process group. */
  child: HostChild;
  /** Milliseconds between SIGTERM and SIGKILL when it is killed. @default 1000 (`SHELL_KILL_GRACE_MS`) */
  killGraceMs?: number;
  /** Releases what the start set up (a sandbox's files); called once it ended. @default none */
  cleanup?: () => Promise<void>;
  /** How long its output pipes may stay open after it ended (see `SandboxedCommand.drainGraceMs`). @default 500 (`PIPE_DRAIN_GRACE_MS`) */
  drainGraceMs?: number;
}

/**
 * Runs command lines for the `shell` tool.
 *
 * @example A provider over a remote box
 * ```ts
 * import type { ShellProvider } from "@paddock/tools";
 * declare const box: {
 *   run(command: string, options: { cwd: string; timeoutMs?: number }): Promise<{ out: string; err: string; code: number }>;
 * };
 * const remoteShell: ShellProvider = {
 *   async exec(command, options = {}) {
 *     const r = await box.run(command, { cwd: options.cwd ?? ".", timeoutMs: options.timeoutMs });
 *     return { stdout: r.out, stderr: r.err, exitCode: r.code, timedOut: false };
 *   },
 * };
 * ```
 */
export interface ShellProvider {
  /**
   * Runs one command line.
   *
   * @param command The command line.
   * @param options Working folder, time and output limits, cancel signal; each defaults when missing.
   * @returns How it ended; a non-zero exit is data.
   */
  exec(command: string, options?: ShellExecOptions): Promise<ShellExecOutcome>;
  /**
   * Starts a command line and returns at once (`shell`'s `background: true`):
   * the child runs in its own process group with a stdin pipe, as `exec`
   * would run it. @default undefined (a background command runs through
   * `exec`: its output comes when it ends, and it takes no input)
   *
   * @param command The command line.
   * @param options The working folder (`cwd`); time and output are bounded by the caller.
   * @returns The running child.
   */
  start?(command: string, options?: Pick<ShellExecOptions, "cwd">): Promise<StartedShellCommand>;
  /**
   * What its commands can reach, for the `shell` tool's description and MCP
   * `openWorldHint` (`SandboxShell` says). @default undefined (described as
   * "where the provider puts them", open world)
   */
  readonly reach?: { text: string; openWorld: boolean };
}

/**
 * Whether `value` looks like a {@link ShellProvider}.
 *
 * @example Describing where commands run
 * ```ts
 * import type { WorkspaceSource } from "@paddock/tools";
 * import { isShellProvider, type ShellProvider } from "@paddock/tools/host";
 * declare const source: WorkspaceSource | ShellProvider;
 * const where = isShellProvider(source) ? source.reach?.text ?? "on the provider's box" : "on this machine";
 * ```
 */
export function isShellProvider(value: unknown): value is ShellProvider {
  return typeof value === "object" && value !== null && typeof (value as ShellProvider).exec === "function";
}
