import { createHostShellProvider, type FlexibleShellProvider } from "../core/process/host_shell_provider.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import type { ShellExecOptions, ShellExecRequest, ShellExecResult, ShellProvider } from "../shell_provider.ts";
import { DeferredWorkspace } from "../tools/workspace_source.ts";

/** Options of {@link NodeWorkspace}. */
export interface NodeWorkspaceOptions {
  /** The workspace folder (absolute, or relative to the current folder); every file tool path stays inside it. */
  root: string;
  /** Variables added for every command, on top of the minimal environment. @default {} */
  env?: Record<string, string>;
  /** Names of host variables copied for every command, besides the minimal ones. @default [] */
  inheritEnv?: string[];
  /** The shell program of {@link NodeWorkspace.exec}. @default "/bin/sh" ("cmd.exe" on Windows) */
  shell?: string;
  /** Paths no tool may change in this folder (`PROTECTED_PATH`; see `DEFAULT_PROTECTED_PATHS`). @default [] */
  protectedPaths?: readonly string[];
}

/**
 * The seed documents' workspace: both where the file tools work and a
 * {@link ShellProvider} for the shell tool. Made synchronously; the folder is
 * opened (canonicalised, its identity recorded) on first use, once for every
 * tool that shares this object. Despite its name it runs on Node, Deno and
 * Bun: it is `openWorkspace` with the running runtime's host.
 *
 * The shell is not isolated: a command runs with the rights of this process
 * (see the README's security model).
 *
 * @example
 * ```ts
 * import { createFsTools, createShellTool, NodeWorkspace } from "@paddock/tools";
 * const workspace = new NodeWorkspace({ root: "./project", env: { NODE_ENV: "test" }, inheritEnv: ["CI"] });
 * const tools = [...createFsTools(workspace), createShellTool(workspace)];
 * const { stdout } = await workspace.exec("git status");
 * ```
 */
export class NodeWorkspace extends DeferredWorkspace implements ShellProvider {
  /** Variables added for every command. */
  readonly env: Readonly<Record<string, string>>;
  /** Host variables copied for every command. */
  readonly inheritEnv: readonly string[];
  private readonly shell: string | undefined;
  private workspace: Promise<Workspace> | undefined;
  private provider: FlexibleShellProvider | undefined;

  /**
   * Makes a workspace on the Node host, opened on first use.
   *
   * @param options The root folder, the commands' environment and shell.
   */
  constructor(options: NodeWorkspaceOptions) {
    super(options.root, { protectedPaths: options.protectedPaths });
    this.env = Object.freeze({ ...(options.env ?? {}) });
    this.inheritEnv = Object.freeze([...(options.inheritEnv ?? [])]);
    this.shell = options.shell;
  }

  /**
   * Opens the workspace once; a failed open is tried again on the next call.
   * @returns The opened workspace.
   * @throws {WorkspaceError} `WORKSPACE_ROOT_INVALID` when the root is missing or not a folder.
   */
  override open(): Promise<Workspace> {
    return this.workspace ??= openWorkspace(this.root, {
      env: { ...this.env },
      inheritEnv: [...this.inheritEnv],
      protectedPaths: this.protectedPaths,
    })
      .catch((error) => {
        this.workspace = undefined;
        throw error;
      });
  }

  /**
   * Runs a command line with the shell, in the workspace root (or `options.cwd`, a folder inside it),
   * stdin closed, with the minimal environment plus `env` and `inheritEnv`.
   *
   * @param command The command line (or the whole request `{ command, ...options }`).
   * @param options `cwd`, `timeoutMs` (default 30000), `maxOutputBytes` (default 32768), `signal`.
   * @returns How it ended; a non-zero exit is data, a timeout is `timedOut: true`.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for an invalid option, `SPAWN_FAILED`, `WORKSPACE_ROOT_CHANGED`.
   */
  async exec(command: string | ShellExecRequest, options?: ShellExecOptions): Promise<ShellExecResult> {
    this.provider ??= createHostShellProvider(await this.open(), this.shell === undefined ? {} : { shell: this.shell });
    return await this.provider.exec(command, options);
  }
}
