import { SHELL_KILL_GRACE_MS, SHELL_MAX_TIMEOUT_MS } from "../core/limits.ts";
import { backgroundChild } from "../core/process/background_child.ts";
import { backgroundExec } from "../core/process/background_exec.ts";
import type { BackgroundProcess, BackgroundProcessSpec } from "../core/process/background_process.ts";
import type { BackgroundProcesses } from "../core/process/background_processes.ts";
import { throwIfAborted } from "../core/errors.ts";
import type { ShellProvider } from "../shell_provider.ts";
import type { BackgroundControl } from "../core/process/background_process.ts";
import type { CommandCapture } from "../core/fs/command_capture.ts";

/**
 * A started process whose changes to the workspace are journaled once it
 * ended (see command_capture.ts): its `ended` settles after the journal has
 * them, so an undo after `process_kill` finds them.
 *
 * @param control The started process.
 * @param capture Its capture, taken before it started (`null`: nothing to journal).
 * @returns The same process, `ended` later.
 */
export function journaledWhenEnded(control: BackgroundControl, capture: CommandCapture | null): BackgroundControl {
  if (capture === null) return control;
  const finish = () => capture.finish();
  return {
    ...control,
    ended: control.ended.then(
      async (exit) => {
        await finish();
        return exit;
      },
      async (error: unknown) => {
        await finish();
        throw error;
      },
    ),
  };
}

/** How `shell` and `node_process` describe their `background` argument. */
export const BACKGROUND_DESCRIPTION: string =
  "Run it in the background and return at once with a process_id (dev servers, watchers, long test runs); " +
  "then process_output reads what it printed since the last read, process_input writes to its stdin, process_kill ends it";

/** What `shell` and `node_process` add to their result for a background start. */
export interface BackgroundStarted {
  /** The background process's id, for `process_output`, `process_input` and `process_kill`; only with `background: true`. */
  process_id?: string;
  /** `running`: it was started in the background; only with `background: true`. */
  status?: "running";
}

/**
 * The result of a background start, in the shape of a finished command's
 * (no exit code yet, no output yet) plus its `process_id`.
 *
 * @param proc The process started.
 * @returns The tool result.
 */
export function startedResult(proc: BackgroundProcess): {
  exitCode: null;
  signal: null;
  stdout: string;
  stderr: string;
  stdoutTruncated: false;
  stderrTruncated: false;
  process_id: string;
  status: "running";
} {
  return {
    process_id: proc.id,
    status: "running",
    exitCode: null,
    signal: null,
    stdout: "",
    stderr: "",
    stdoutTruncated: false,
    stderrTruncated: false,
  };
}

/**
 * Starts `shell`'s command in the background: through the provider's
 * `start` (a child with a stdin pipe) when it has one, else through its
 * `exec` (output at the end, no input).
 *
 * @param table The workspace's background processes.
 * @param provider The shell provider.
 * @param spec The command, its output bound and its optional time limit.
 * @param signal Cancels the start (not the process once started).
 * @returns The tool result.
 */
export async function startShellInBackground(
  table: BackgroundProcesses,
  provider: ShellProvider,
  spec: { command: string; maxOutputBytes: number; timeoutMs?: number },
  signal?: AbortSignal,
  capture?: () => Promise<CommandCapture | null>,
): Promise<ReturnType<typeof startedResult>> {
  throwIfAborted(signal);
  const entry: BackgroundProcessSpec = { tool: "shell", ...spec };
  const start = provider.start?.bind(provider);
  const proc = await table.start(entry, async (sink) => {
    const captured = await capture?.() ?? null;
    if (start === undefined) {
      return journaledWhenEnded(
        backgroundExec(provider, {
          command: spec.command,
          timeoutMs: spec.timeoutMs ?? SHELL_MAX_TIMEOUT_MS,
          maxOutputBytes: spec.maxOutputBytes,
        }, sink),
        captured,
      );
    }
    const started = await start(spec.command);
    return journaledWhenEnded(
      backgroundChild(started.child, sink, {
        killGraceMs: started.killGraceMs ?? SHELL_KILL_GRACE_MS,
        ...(started.cleanup === undefined ? {} : { cleanup: started.cleanup }),
        ...(started.drainGraceMs === undefined ? {} : { drainGraceMs: started.drainGraceMs }),
      }),
      captured,
    );
  });
  return startedResult(proc);
}
