import type { Host } from "../../host.ts";
import type { ShellExecResult } from "../../shell_provider.ts";
import { mapSpawnError, type SpawnFailureWording } from "./map_spawn_error.ts";
import type { ResolvedShellExec } from "./resolve_shell_exec.ts";
import { runProcess, toExecResult } from "./run_process.ts";

/** A command line made ready to run: the program's argv, its working folder and its whole environment. */
export interface ShellCommand {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
}

/** Options of {@link runShellCommand}. */
export interface RunShellCommandOptions {
  /** Milliseconds between SIGTERM and SIGKILL on timeout or abort. */
  killGraceMs: number;
  /** What a `SPAWN_FAILED` says. @default the host's error code alone */
  spawnFailure?: SpawnFailureWording;
  /** How long the output pipes may stay open after the leader exited. @default PIPE_DRAIN_GRACE_MS */
  drainGraceMs?: number;
}

/**
 * Runs one command for a `ShellProvider`, as every provider here does:
 * in its own process group, bounded by the request's time limit (SIGTERM,
 * then SIGKILL after `killGraceMs`) and output limit (the start and the end
 * of each stream are kept); a program that cannot start is `SPAWN_FAILED`.
 *
 * @param host The host to spawn on.
 * @param command What to run, where, with which environment.
 * @param request The provider's settled request (time and output limits, signal; see `resolveShellExec`).
 * @param options The kill grace and the wording of a spawn failure.
 * @returns How the command ended; a non-zero exit is data.
 */
export async function runShellCommand(
  host: Host,
  command: ShellCommand,
  request: Pick<ResolvedShellExec, "timeoutMs" | "maxOutputBytes" | "signal" | "output">,
  options: RunShellCommandOptions,
): Promise<ShellExecResult> {
  const result = await runProcess(host, {
    argv: command.argv,
    cwd: command.cwd,
    env: command.env,
    timeoutMs: request.timeoutMs,
    maxOutputBytes: request.maxOutputBytes,
    truncation: "head-and-tail",
    killGraceMs: options.killGraceMs,
    ...(options.drainGraceMs === undefined ? {} : { drainGraceMs: options.drainGraceMs }),
    signal: request.signal,
    output: request.output,
  }).catch((error: unknown) => {
    throw mapSpawnError(error, "the command", options.spawnFailure);
  });
  return toExecResult(result);
}
