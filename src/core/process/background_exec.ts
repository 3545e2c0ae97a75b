import type { ShellProvider } from "../../shell_provider.ts";
import { encodeUtf8 } from "../text/utf8.ts";
import type { BackgroundControl, BackgroundSink } from "./background_process.ts";

/** What {@link backgroundExec} runs. */
export interface BackgroundExecRequest {
  /** The command line. */
  command: string;
  /** Wall-clock limit the provider applies. */
  timeoutMs: number;
  /** Bytes of stdout and of stderr the provider keeps. */
  maxOutputBytes: number;
}

/**
 * Runs a command in the background through a provider that can only run
 * commands to the end (`exec`): its output arrives all at once when it ends;
 * it takes no input; killing it aborts the call (the provider kills it). A
 * provider's failure is reported on stderr, with no exit code.
 *
 * @param provider The shell provider.
 * @param request The command and its bounds.
 * @param sink Where its output goes.
 * @returns Its control.
 */
export function backgroundExec(
  provider: ShellProvider,
  request: BackgroundExecRequest,
  sink: BackgroundSink,
): BackgroundControl {
  const controller = new AbortController();
  const ended = provider.exec(request.command, {
    timeoutMs: request.timeoutMs,
    maxOutputBytes: request.maxOutputBytes,
    signal: controller.signal,
  }).then((result) => {
    if (result.stdout) sink.stdout(encodeUtf8(String(result.stdout)));
    if (result.stderr) sink.stderr(encodeUtf8(String(result.stderr)));
    return { exitCode: result.exitCode ?? null, signal: result.signal ?? null };
  }, (error: unknown) => {
    if (controller.signal.aborted) return { exitCode: null, signal: "SIGKILL" };
    sink.stderr(encodeUtf8(`${error instanceof Error ? error.message : String(error)}\n`));
    return { exitCode: null, signal: null };
  });
  return { kill: () => controller.abort(), ended };
}
