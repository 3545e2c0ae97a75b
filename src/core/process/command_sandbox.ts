/**
 * The command-sandbox seam: anything that turns a command line into one that
 * runs confined by the operating system (bubblewrap on Linux today; a
 * container engine or a VM could implement the same interface). Pure types,
 * so the core's tools (`node_process`) can accept a sandbox without importing
 * runtime code; the implementations live in `src/sandbox/`.
 *
 * @module
 */

/** A command to confine. Paths are absolute host paths. */
export interface SandboxWrapRequest {
  /** The program (absolute path) and its arguments, as they would run unconfined. */
  argv: string[];
  /** The working directory; it must lie inside one of `writable`. */
  cwd: string;
  /** The complete environment the command should see. */
  env: Record<string, string>;
  /** Folders the command may read and write (the workspace); everything else it sees is read-only or absent. */
  writable: string[];
  /**
   * Existing files and folders inside `writable` that must be read-only
   * inside (protected paths); none of them is a link. A backend that cannot
   * show them read-only must refuse (`SANDBOX_UNAVAILABLE`), never ignore them.
   * @default []
   */
  readOnly?: string[];
  /**
   * Folders inside `writable`, holding a `readOnly` path, that must not be
   * renamed or removed inside (else the protected file could be moved away
   * and replaced); each stays writable. @default []
   */
  pinned?: string[];
  /**
   * Existing files and folders inside `writable` that must not be readable
   * inside (private paths); none of them is a link. Each is shown empty (an
   * empty file, an empty read-only folder). A backend that cannot mask them
   * must refuse (`SANDBOX_UNAVAILABLE`), never ignore them. @default []
   */
  masked?: string[];
}

/** A command in its sandboxed form, ready for the host's `spawn`. */
export interface SandboxedCommand {
  /** What to spawn instead of the request's argv. */
  argv: string[];
  /** The environment to spawn it with. */
  env: Record<string, string>;
  /** Releases what `wrap` set up for this one command, if anything; call it after the process ended. */
  cleanup?: () => Promise<void>;
  /**
   * How long its output pipes may stay open after the spawned process ended,
   * for a sandbox whose processes all end with it but not at once (bubblewrap:
   * a PID namespace killed when bwrap ends). @default PIPE_DRAIN_GRACE_MS
   */
  drainGraceMs?: number;
}

/**
 * An OS-level sandbox for commands. Implementations fail closed: when the
 * sandbox cannot be set up they throw `SANDBOX_UNAVAILABLE` and never run the
 * command unconfined.
 */
export interface Sandbox {
  /** A short name for messages and docs (`bubblewrap`, …). */
  readonly kind: string;
  /**
   * What commands inside can reach on the network, for tool descriptions and
   * MCP annotations: `none`, or `allowlist` (only allowed hosts, e.g. through a
   * proxy). @default undefined (not stated: described as open)
   */
  readonly networkReach?: "none" | "allowlist";
  /**
   * Probes that the sandbox works on this machine.
   *
   * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` with the reason.
   */
  check(): Promise<void>;
  /**
   * Turns a command into its sandboxed form (probing first on the first call).
   *
   * @param request The command as it would run unconfined.
   * @returns The command to spawn instead.
   * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` when the sandbox cannot run.
   */
  wrap(request: SandboxWrapRequest): Promise<SandboxedCommand>;
  /** Releases what the sandbox keeps between commands (a proxy listener, a container). */
  close?(): Promise<void>;
}
