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
import type { WorkspaceSource } from "./workspace_source.ts";

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
 * What a `node_process` script can do to the protected paths (the files that
 * decide what allowed commands run), under the configuration in force.
 *
 * @param runtime The runtime that runs it.
 * @param permissions The tool's `permissions`.
 * @param sandboxed Whether it runs in an OS sandbox.
 * @returns One sentence, or "" when nothing is protected.
 */
export function nodeProcessProtection(
  runtime: Host["runtime"],
  permissions: "workspace" | "inherit",
  sandboxed: boolean,
): string {
  const files =
    "the protected paths (.git, package.json, lockfiles, Makefile and the other files that decide what allowed commands run)";
  if (permissions === "workspace" && runtime !== "bun") {
    return ` It cannot change ${files}: it may write only the workspace's entries that hold no protected path and no link, ` +
      "so it cannot create anything new at the top of the workspace or in a folder that holds a protected path, nor write through a link.";
  }
  if (sandboxed) {
    return ` In the sandbox ${files} that exist are read-only; one that does not exist yet can be created.`;
  }
  return ` It is not kept from ${files}: it can change them.`;
}

/**
 * What a `node_process` script can reach.
 *
 * @param runtime The runtime that runs it.
 * @param permissions The tool's `permissions`.
 * @param sandbox The tool's OS sandbox, if any.
 * @param guarded Whether protected paths are in force. @default false
 * @returns The description sentences and the network flag.
 */
export function nodeProcessReach(
  runtime: Host["runtime"],
  permissions: "workspace" | "inherit",
  sandbox: Sandbox | undefined,
  guarded = false,
): ProcessReach {
  // With protected paths the runtime's write list holds no link: outside files are then only readable through one.
  const reach = nodeProcessBaseReach(runtime, permissions, sandbox, guarded);
  if (!guarded || (runtime === "bun" && permissions === "workspace")) return reach;
  return { ...reach, text: reach.text + nodeProcessProtection(runtime, permissions, sandbox !== undefined) };
}

function nodeProcessBaseReach(
  runtime: Host["runtime"],
  permissions: "workspace" | "inherit",
  sandbox: Sandbox | undefined,
  guarded: boolean,
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
  const links = `a link already in the workspace that points outside is followed (files can be read${
    guarded ? "" : ", written and created"
  } through it)`;
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
 * What a command in an OS sandbox (`SandboxShell`) can reach.
 *
 * @param sandbox The sandbox.
 * @param guarded Whether protected paths are in force.
 * @returns The description sentences and the network flag.
 */
export function sandboxShellReach(sandbox: Sandbox, guarded: boolean, hidden = false): ProcessReach {
  const files =
    "the protected paths (.git, package.json, lockfiles, Makefile and the other files that decide what allowed commands run)";
  return {
    text:
      `Commands run in an OS sandbox (${sandbox.kind}): they can read and write the workspace, and nothing else outside the system folders is visible, ` +
      `so a link pointing out of the workspace leads nowhere; they see no other process; ${sandboxNetwork(sandbox)}.` +
      (guarded ? ` Inside, ${files} that exist are read-only; one that does not exist yet can be created.` : "") +
      (hidden ? ` ${PRIVATE_MASKED}` : ""),
    openWorld: sandbox.networkReach !== "none",
  };
}

/**
 * What a `shell` command can reach.
 *
 * @param onHost Whether commands run on the workspace's own host (not through a provider).
 * @param provided What the provider says its commands reach, if it says.
 * @returns The description sentences and the network flag.
 */
export function shellReach(onHost: boolean, provided?: ProcessReach): ProcessReach {
  // (A sandboxed provider says what it does with private paths; privateReach adds the host case.)
  if (!onHost && provided !== undefined) return provided;
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

const PRIVATE_MASKED =
  "The workspace's private paths that exist when a command starts are masked inside (an empty file, an empty folder): it reads nothing of them.";

/**
 * The sentence a process tool's description adds when its workspace has
 * private paths: whether they hold for the commands it runs.
 *
 * @param how `masked` (a sandbox), `denied` (Deno's permissions), or `open` (nothing keeps a command from them).
 * @returns The sentence, with a leading space.
 */
export function privateReach(how: "masked" | "denied" | "open"): string {
  switch (how) {
    case "masked":
      return ` ${PRIVATE_MASKED}`;
    case "denied":
      return " The workspace's private paths are denied to it by the runtime's permissions: reading or writing one fails.";
    case "open":
      return " The workspace's private paths do NOT hold for it: unlike the file tools, it can read and change them.";
  }
}

/**
 * The private paths a tool's workspace source declares (a root path: none).
 *
 * @param source The source.
 * @returns Its patterns.
 */
export function privatePathsOfSource(source: WorkspaceSource): readonly string[] {
  if (source instanceof Workspace) return source.privatePaths;
  const declared = (source as { privatePaths?: unknown }).privatePaths;
  return Array.isArray(declared) ? declared as string[] : [];
}
