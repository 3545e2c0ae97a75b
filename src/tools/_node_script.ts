// How node_process launches its script: the host's command line, the sandbox's wrap, and the temp file.
import { WorkspaceError } from "../core/errors.ts";
import type { Sandbox, SandboxedCommand } from "../core/process/command_sandbox.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { removeOwnFile } from "../core/fs/remove_own_file.ts";
import type { Identity, Workspace } from "../core/fs/workspace.ts";
import { type Host, isHostError, type ScriptLaunch, type ScriptLaunchRequest } from "../host.ts";

// The host's command line for the script; a runtime that cannot confine it
// as asked is NODE_PROCESS_PERMISSIONS_UNAVAILABLE.
export function scriptLaunch(host: Host, request: ScriptLaunchRequest): ScriptLaunch {
  try {
    return host.scriptLaunch(request);
  } catch (error) {
    if (!isHostError(error, "UNSUPPORTED")) throw error;
    throw new WorkspaceError(
      "NODE_PROCESS_PERMISSIONS_UNAVAILABLE",
      `Cannot run the script: the ${host.runtime} runtime cannot confine it to the workspace`,
      {
        hint: error.syscall === "permission-path"
          ? "the runtime's permission flags cannot name this workspace path exactly (it holds '*' or ','); move the workspace, or use permissions: \"inherit\""
          : 'this runtime has no permission model; use permissions: "inherit" to run unconfined',
      },
    );
  }
}

// The command as it runs: unchanged without a sandbox, else wrapped so that
// the workspace is its only writable (and the only visible non-system) place.
export async function sandboxed(
  sandbox: Sandbox | undefined,
  command: { argv: string[]; env: Record<string, string>; readOnly?: string[]; pinned?: string[] },
  root: string,
): Promise<SandboxedCommand> {
  if (sandbox === undefined) return { argv: command.argv, env: command.env };
  return await sandbox.wrap({ ...command, cwd: root, writable: [root] });
}

// Creates a temp script exclusively (never through a link) and returns its
// identity; on a failed write the half-made file is removed.
export async function createScript(
  workspace: Workspace,
  path: string,
  data: Uint8Array,
  mode: number,
): Promise<Identity> {
  const host = workspace.host;
  let identity: Identity | undefined;
  try {
    const file = await host.open(path, { write: true, createExclusive: true, noFollow: true, mode });
    try {
      identity = await file.stat();
      await file.write(data, 0);
      return identity;
    } finally {
      await file.close();
    }
  } catch (error) {
    if (identity !== undefined) await removeOwnFile(host, path, identity);
    throw mapHostError(error, "create the script in", ".");
  }
}
