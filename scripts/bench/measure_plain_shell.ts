import type { Host } from "../../src/host.ts";
import { runProcess } from "../../src/core/process/run_process.ts";
import { measure } from "./row.ts";

/** The baseline a sandbox's row is measured against, and what its rows say it is. */
export const PLAIN_SHELL_BASELINE = "the same /bin/sh -c through runProcess, unsandboxed";

/**
 * Measures `command` run by `/bin/sh -c` directly through the host (process
 * group, bounded output as a SandboxShell bounds it), unsandboxed: the
 * baseline of the sandbox benchmarks.
 *
 * @param host The host to spawn through.
 * @param cwd The folder to run in.
 * @param command The shell command.
 * @param limits The time and output bounds, as the sandboxed run gets them.
 * @param runs How many runs to take the median of (after 2 warm-up runs).
 * @returns The median time, in ms.
 */
export function measurePlainShell(
  host: Host,
  cwd: string,
  command: string,
  limits: { timeoutMs: number; maxOutputBytes: number },
  runs: number,
): Promise<number> {
  return measure(
    () =>
      runProcess(host, {
        argv: ["/bin/sh", "-c", command],
        cwd,
        env: { PATH: "/usr/bin:/bin" },
        ...limits,
        truncation: "head-and-tail",
      }),
    runs,
    2,
  );
}
