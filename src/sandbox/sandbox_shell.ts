/**
 * A {@link ShellProvider} that runs every command line inside a
 * {@link Sandbox}: `createShellTool(new SandboxShell(sandbox, { cwd }))`.
 *
 * @module
 */
import type { Sandbox, SandboxedCommand } from "../core/process/command_sandbox.ts";
import { mapSpawnError } from "../core/process/map_spawn_error.ts";
import { childEnvironment } from "../core/process/environment.ts";
import { WorkspaceError } from "../core/errors.ts";
import { SHELL_KILL_GRACE_MS } from "../core/limits.ts";
import { runShellCommand } from "../core/process/run_shell_command.ts";
import type { Host } from "../host.ts";
import { createAutoHost } from "../hosts/auto.ts";
import { type SandboxLayout, sandboxLayout } from "../core/fs/sandbox_layout.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import { sandboxShellReach } from "../tools/process_reach.ts";
import { type ResolvedShellExec, resolveShellExec } from "../core/process/resolve_shell_exec.ts";
import type {
  ShellExecOptions,
  ShellExecRequest,
  ShellExecResult,
  ShellProvider,
  StartedShellCommand,
} from "../shell_provider.ts";

/** Options of {@link SandboxShell}. */
export interface SandboxShellOptions {
  /** The working folder (the workspace root, an absolute host path); the only writable place inside. */
  cwd: string;
  /** Variables set for every command, on top of the minimal environment. @default {} */
  env?: Readonly<Record<string, string>>;
  /** Names of parent variables passed through besides the minimal set (`PATH`, `LANG`, …). @default [] */
  inheritEnv?: readonly string[];
  /** The shell that runs the command line (inside the sandbox). @default "/bin/sh" */
  shell?: string;
  /**
   * After a timeout or abort, milliseconds between SIGTERM and SIGKILL; 0 kills at once. bwrap does not
   * forward SIGTERM: it ends, and the sandbox dies with it, so the grace only matters for other backends.
   * @default 1000 (`SHELL_KILL_GRACE_MS`, as the host shell)
   */
  killGraceMs?: number;
  /** The host that spawns `bwrap`. @default the running runtime's host */
  host?: Host;
  /**
   * Paths commands may not change (see `DEFAULT_PROTECTED_PATHS`): before
   * each command the workspace is scanned, and those that exist are read-only
   * inside the sandbox, their folders pinned (see the README). `paddock mcp`
   * passes the default list with a shell allow list. @default [] (nothing protected)
   */
  protectedPaths?: readonly string[];
  /**
   * Paths commands may not read (see `WorkspaceOptions.privatePaths`): before
   * each command the workspace is scanned, and each that exists is masked
   * inside (an empty file, an empty read-only folder), so `cat .env` reads
   * nothing (bubblewrap and the container sandbox alike). A private name
   * made by the command itself is not masked.
   * `paddock mcp --private` passes its patterns. @default [] (nothing private)
   */
  privatePaths?: readonly string[];
}

/**
 * Runs `shell -c <command>` inside a sandbox, in its own process group, with
 * bounded time and output (the start and the end are kept). On timeout the
 * sandbox's outer process is killed and the sandbox dies with it (bwrap's
 * `--die-with-parent` and its pid namespace take every descendant along).
 *
 * @example
 * ```ts
 * import { BubblewrapSandbox, SandboxShell } from "@paddock/tools/sandbox";
 * const shell = new SandboxShell(new BubblewrapSandbox(), { cwd: "/work/project" });
 * const result = await shell.exec("ls -la", { timeoutMs: 5_000 }); // missing options take their defaults
 * ```
 */
export class SandboxShell implements ShellProvider {
  private readonly sandbox: Sandbox;
  private readonly options: SandboxShellOptions;
  private readonly host: Host;
  private root: Promise<string> | undefined;
  private workspace: Promise<Workspace> | undefined;

  /**
   * Makes a shell that runs each command in `sandbox`.
   *
   * @param sandbox The sandbox commands run in.
   * @param options Working folder, environment, shell.
   */
  constructor(sandbox: Sandbox, options: SandboxShellOptions) {
    this.sandbox = sandbox;
    this.options = { ...options };
    this.host = options.host ?? createAutoHost();
  }

  /** What its commands can reach (the `shell` tool's description and MCP `openWorldHint` say it). */
  get reach(): { text: string; openWorld: boolean } {
    return sandboxShellReach(
      this.sandbox,
      (this.options.protectedPaths ?? []).length > 0,
      (this.options.privatePaths ?? []).length > 0,
    );
  }

  /**
   * Runs one command line in the sandbox. Missing options mean their
   * defaults (`SHELL_TIMEOUT_MS`, `SHELL_MAX_OUTPUT_BYTES`, the working
   * folder itself); an invalid one is an error before anything starts.
   *
   * @param commandOrRequest The command line, or the whole request `{ command, ...options }`.
   * @param options `cwd` (below the working folder), time and output limits, and a cancel signal.
   * @returns How it ended; a non-zero exit is data.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for an invalid option; `SANDBOX_UNAVAILABLE` when the
   *   sandbox cannot run (nothing runs unsandboxed).
   */
  async exec(commandOrRequest: string | ShellExecRequest, options?: ShellExecOptions): Promise<ShellExecResult> {
    const request = resolveShellExec(commandOrRequest, options);
    const { command, cwd } = await this.wrap(request);
    try {
      return await runShellCommand(this.host, { argv: command.argv, cwd, env: command.env }, request, {
        killGraceMs: this.options.killGraceMs ?? SHELL_KILL_GRACE_MS,
        ...(command.drainGraceMs === undefined ? {} : { drainGraceMs: command.drainGraceMs }),
      });
    } finally {
      await command.cleanup?.();
    }
  }

  /**
   * Starts one command line in the sandbox and returns at once (`shell`'s
   * `background: true`): its own process group, stdin a pipe.
   *
   * @param command The command line.
   * @param options `cwd` (below the working folder).
   * @returns The running child, and the sandbox's cleanup for when it ended.
   * @throws {WorkspaceError} as {@link SandboxShell.exec}, and `SPAWN_FAILED`.
   */
  async start(command: string, options?: Pick<ShellExecOptions, "cwd">): Promise<StartedShellCommand> {
    const { command: wrapped, cwd } = await this.wrap(resolveShellExec(command, options));
    try {
      const child = await this.host.spawn({ argv: wrapped.argv, cwd, env: wrapped.env, stdin: "pipe" });
      return {
        child,
        killGraceMs: this.options.killGraceMs ?? SHELL_KILL_GRACE_MS,
        cleanup: wrapped.cleanup,
        ...(wrapped.drainGraceMs === undefined ? {} : { drainGraceMs: wrapped.drainGraceMs }),
      };
    } catch (error) {
      await wrapped.cleanup?.();
      throw mapSpawnError(error, "the command");
    }
  }

  /** The command in its sandboxed form, and its working folder. */
  private async wrap(request: ResolvedShellExec): Promise<{ command: SandboxedCommand; cwd: string }> {
    // Canonical once: bwrap binds the real folder at its real path.
    this.root ??= this.host.realpath(this.options.cwd).catch((error: unknown) => {
      this.root = undefined;
      throw new WorkspaceError("WORKSPACE_ROOT_INVALID", "Cannot use the shell's working folder: it does not exist", {
        cause: error,
      });
    });
    const root = await this.root;
    // Below the root by the path grammar; inside the sandbox nothing else is writable.
    const cwd = request.cwd.length === 0 ? root : `${root.replace(/\/+$/, "")}/${request.cwd.join("/")}`;
    const env = childEnvironment(this.host.environment(), this.options.inheritEnv ?? [], this.options.env ?? {});
    const command = await this.sandbox.wrap({
      argv: [this.options.shell ?? "/bin/sh", "-c", request.command],
      cwd,
      env,
      writable: [root],
      ...(await this.protectedPaths(root, request.signal)),
    });
    return { command, cwd };
  }

  /** The protected and private paths that exist now, as host paths for the sandbox (none configured: none). */
  private async protectedPaths(root: string, signal?: AbortSignal): Promise<SandboxLayout> {
    const patterns = this.options.protectedPaths ?? [];
    const privatePaths = this.options.privatePaths ?? [];
    if (patterns.length === 0 && privatePaths.length === 0) return {};
    this.workspace ??= openWorkspace(root, { host: this.host }).catch((error: unknown) => {
      this.workspace = undefined;
      throw error;
    });
    const workspace = await this.workspace;
    await workspace.checkRoot();
    return await sandboxLayout(workspace, patterns, privatePaths, signal);
  }
}
