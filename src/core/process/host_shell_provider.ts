import type { ShellExecOptions, ShellExecRequest, ShellExecResult, StartedShellCommand } from "../../shell_provider.ts";
import { throwIfAborted, WorkspaceError } from "../errors.ts";
import { checkGitRepository, runsGit, safeGitEnvironment } from "./git_guard.ts";
import { SHELL_KILL_GRACE_MS } from "../limits.ts";
import { mapSpawnError } from "./map_spawn_error.ts";
import { type ResolvedShellExec, resolveShellExec } from "./resolve_shell_exec.ts";
import { runShellCommand, type ShellCommand } from "./run_shell_command.ts";
import type { Workspace } from "../fs/workspace.ts";

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
  /**
   * Run git without the settings that make it run other programs: forced
   * through the environment for every command, and a `git …` command is
   * refused (`GIT_REPOSITORY_UNSAFE`) while `.git` points out of the
   * workspace or the repository's config names a program (see git_guard.ts).
   * @default false (`createShellTool` turns it on with an `allow` list)
   */
  safeGit?: boolean;
}

/** The argv that runs `command` with `shell`: `cmd /d /s /c command` for cmd.exe, `shell -c command` otherwise. */
export function shellArgv(shell: string, command: string): string[] {
  return /(^|[\\/])cmd(\.exe)?$/i.test(shell) ? [shell, "/d", "/s", "/c", command] : [shell, "-c", command];
}

/**
 * A {@link ShellProvider} that also takes the whole request as one object
 * (`exec({ command, timeoutMs })`), as Paddock's own providers do.
 */
export interface FlexibleShellProvider {
  /**
   * Runs one command line.
   * @param command The command line, or the whole request.
   * @param options Working folder, time and output limits, cancel signal; each defaults when missing.
   * @returns How it ended; a non-zero exit is data.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for an invalid option, `SPAWN_FAILED`, `NOT_A_DIRECTORY` for a `cwd` that is no folder.
   */
  exec(command: string | ShellExecRequest, options?: ShellExecOptions): Promise<ShellExecResult>;
  /**
   * Starts one command line in the background: its own process group, stdin a pipe.
   * @param command The command line.
   * @param options The working folder.
   * @returns The running child.
   */
  start(command: string, options?: Pick<ShellExecOptions, "cwd">): Promise<StartedShellCommand>;
}

/**
 * The default {@link ShellProvider}: runs command lines on the workspace's
 * own host, with the workspace's canonical root (or `cwd`, a workspace-relative
 * folder resolved confined) as the working folder, stdin
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
 *   exec: (command, options) => {
 *     console.log("$", command);
 *     return host.exec(command, options);
 *   },
 * });
 * ```
 */
export function createHostShellProvider(
  workspace: Workspace,
  options: HostShellProviderOptions = {},
): FlexibleShellProvider {
  const shell = options.shell ?? (workspace.host.platform === "win32" ? "cmd.exe" : "/bin/sh");
  const killGraceMs = options.killGraceMs ?? SHELL_KILL_GRACE_MS;
  // The command as it runs: the shell's argv, the working folder (resolved confined) and the environment.
  const prepare = async (request: ResolvedShellExec): Promise<ShellCommand> => {
    throwIfAborted(request.signal);
    await workspace.checkRoot();
    let cwd = workspace.root;
    if (request.cwd.length > 0) {
      const display = request.cwd.join("/");
      const folder = await workspace.resolve(request.cwd, { action: "run a command in", display });
      await folder.release();
      if (folder.stat?.kind !== "directory") {
        throw new WorkspaceError("NOT_A_DIRECTORY", `Cannot run a command in '${display}': it is not a folder`, {
          path: display,
        });
      }
      // A process starts in a folder by its path (there is no fchdir before exec here):
      // the canonical path of what the walk found, links resolved.
      cwd = workspace.hostPath(folder.segments);
    }
    if (options.safeGit === true && runsGit(request.command)) {
      await checkGitRepository(workspace.host, workspace.root);
    }
    return {
      argv: shellArgv(shell, request.command),
      cwd,
      env: {
        ...workspace.childEnvironment(),
        ...(options.safeGit === true ? safeGitEnvironment(workspace.host.platform, workspace.root) : {}),
      },
    };
  };
  const spawnFailure = {
    detail: "the shell could not be started",
    hint: "the shell program is missing or not executable on this host",
  };
  return {
    exec: async (commandOrRequest, execOptions): Promise<ShellExecResult> => {
      const request = resolveShellExec(commandOrRequest, execOptions);
      const command = await prepare(request);
      return await runShellCommand(workspace.host, command, request, { killGraceMs, spawnFailure });
    },
    start: async (command, startOptions): Promise<StartedShellCommand> => {
      const prepared = await prepare(resolveShellExec(command, startOptions));
      const child = await workspace.host.spawn({ ...prepared, stdin: "pipe" }).catch((error: unknown) => {
        throw mapSpawnError(error, "the command", spawnFailure);
      });
      return { child, killGraceMs };
    },
  };
}
