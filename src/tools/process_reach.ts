/**
 * What a process tool's commands can reach under the configuration in force,
 * stated once for the description a model reads and for the MCP
 * annotations. Each sentence is checked by a test (`test/process_reach.test.ts`).
 *
 * @module
 */
import type { Sandbox } from "../core/process/command_sandbox.ts";
import { Workspace } from "../core/fs/workspace.ts";
import type { Host } from "../host.ts";
import type { WorkspaceSource } from "./tool.ts";

/** What a process tool's commands can reach. */
export interface ProcessReach {
  /** Sentences for the tool description. */
  text: string;
  /** Whether the commands may reach beyond the workspace: the network, or outside files through links (MCP `openWorldHint`). */
  openWorld: boolean;
}

/**
 * The runtime a tool's workspace runs on: its host's, or, for a root path
 * opened later with the default host, the running runtime.
 *
 * @param source The tool's workspace source.
 * @returns The runtime name.
 */
export function runtimeOfSource(source: WorkspaceSource): Host["runtime"] {
  if (source instanceof Workspace) return source.host.runtime;
  const globals = globalThis as { Deno?: unknown; Bun?: unknown };
  return globals.Deno !== undefined ? "deno" : globals.Bun !== undefined ? "bun" : "node";
}

function sandboxNetwork(sandbox: Sandbox): string {
  switch (sandbox.networkReach) {
    case "none":
      return "no network";
    case "allowlist":
      return "network only to the hosts the sandbox allows";
    default:
      return "network as the sandbox allows";
  }
}

/**
 * What a `node_process` script can reach.
 *
 * @param runtime The runtime that runs it.
 * @param permissions The tool's `permissions`.
 * @param sandbox The tool's OS sandbox, if any.
 * @returns The description sentences and the network flag.
 */
export function nodeProcessReach(
  runtime: Host["runtime"],
  permissions: "workspace" | "inherit",
  sandbox: Sandbox | undefined,
): ProcessReach {
  if (sandbox !== undefined) {
    return {
      text:
        `It runs in an OS sandbox (${sandbox.kind}): it can read and write the workspace, and nothing else outside the system folders is visible, ` +
        `so a link pointing out of the workspace leads nowhere; it sees no other process and cannot signal one; ${
          sandboxNetwork(sandbox)
        }.`,
      openWorld: sandbox.networkReach !== "none",
    };
  }
  if (permissions === "inherit") {
    return {
      text:
        "It runs with the full rights of the agent's user: any file, the network, child processes, and signals to any process of that user (it can end the agent).",
      openWorld: true,
    };
  }
  const links =
    "a link already in the workspace that points outside is followed (files can be read, written and created through it)";
  switch (runtime) {
    case "deno":
      return {
        text:
          `Deno's permissions let it read and write the workspace only, but ${links}; no network, environment, child processes or signals to other processes.`,
        // Outside files are reachable through such links: not a closed world.
        openWorld: true,
      };
    case "bun":
      return {
        text: "Bun has no permission model, so it refuses to run here (NODE_PROCESS_PERMISSIONS_UNAVAILABLE).",
        // It runs nothing, but a configuration change would make it run unconfined: keep the cautious hint.
        openWorld: true,
      };
    default:
      return {
        text: `Node's permission model lets it read and write the workspace only, but ${links}; the network is open; ` +
          "it can signal any process of the same user (process.kill), including the agent running it; no child processes or workers.",
        openWorld: true,
      };
  }
}

/**
 * What a `shell` command can reach.
 *
 * @param onHost Whether commands run on the workspace's own host (not through a provider).
 * @returns The description sentences and the network flag.
 */
export function shellReach(onHost: boolean): ProcessReach {
  return onHost
    ? {
      text:
        "Commands are not confined: they run with the full rights of the agent's user (any file, the network, other processes); " +
        "the allow list decides which commands run, not what they can reach.",
      openWorld: true,
    }
    : {
      text: "Commands run where the shell provider puts them and reach what it lets them reach.",
      openWorld: true,
    };
}
