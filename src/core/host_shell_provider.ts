import type { ShellExecRequest, ShellExecResult, ShellProvider } from "../shell_provider.ts";
import { throwIfAborted } from "./errors.ts";
import { SHELL_KILL_GRACE_MS } from "./limits.ts";
import { runShellCommand } from "./run_shell_command.ts";
import type { Workspace } from "./workspace.ts";

/** Options of {@link createHostShellProvider}. */
export interface HostShellProviderOptions {
  /**
   * The shell program. A name ending in `cmd` or `cmd.exe` is run as
   * `cmd /d /s /c <command>`, anything else as `<shell> -c <command>`.
   * @default "/bin/sh" on POSIX hosts, "cmd.exe" on Windows hosts
   */
  shell?: string;
  /** Milliseconds between SIGTERM and SIGKILL on timeout or abort. @default 1000 */
  killGraceMs?: number;
}

/** The argv that runs `command` with `shell`: `cmd /d /s /c command` for cmd.exe, `shell -c command` otherwise. */
export function shellArgv(shell: string, command: string): string[] {
  return /(^|[\\/])cmd(\.exe)?$/i.test(shell) ? [shell, "/d", "/s", "/c", command] : [shell, "-c", command];
}

/**
 * The default {@link ShellProvider}: runs command lines on the workspace's
 * own host, with the workspace's canonical root as the working folder, stdin
 * closed, and the workspace's child environment (the minimal variables plus
 * `env` and `inheritEnv`; nothing else of the parent's). The command runs in
 * its own process group; on timeout or abort the group gets SIGTERM, then
 * SIGKILL after `killGraceMs`; when the shell exits the group is killed, so a
 * command that starts a daemon (`sleep 1000 &`) cannot hang the call. Output
 * keeps the start and the end of each stream.
 *
 * This is not isolation: the command runs with the rights of the calling
 * process and can reach anything they reach.
 *
 * @param workspace The workspace whose root is the working folder.
 * @param options The shell program and the kill grace.
 * @returns A provider for `createShellTool`.
 *
 * @example Wrapping the host shell to log every command
 * ```ts
 * import { createShellTool, openWorkspace } from "@paddock/tools";
 * import { createHostShellProvider } from "@paddock/tools/host";
 * const workspace = await openWorkspace("./project");
 * const host = createHostShellProvider(workspace);
 * const shell = createShellTool({
 *   exec: (request) => {
 *     console.log("$", request.command);
 *     return host.exec(request);
 *   },
 * });
 * ```
 */
export function createHostShellProvider(workspace: Workspace, options: HostShellProviderOptions = {}): ShellProvider {
  const shell = options.shell ?? (workspace.host.platform === "win32" ? "cmd.exe" : "/bin/sh");
  const killGraceMs = options.killGraceMs ?? SHELL_KILL_GRACE_MS;
  return {
    exec: async (request: ShellExecRequest): Promise<ShellExecResult> => {
      throwIfAborted(request.signal);
      await workspace.checkRoot();
      const command = {
        argv: shellArgv(shell, request.command),
        cwd: workspace.root,
        env: workspace.childEnvironment(),
      };
      return await runShellCommand(workspace.host, command, request, {
        killGraceMs,
        spawnFailure: {
          detail: "the shell could not be started",
          hint: "the shell program is missing or not executable on this host",
        },
      });
    },
  };
}
