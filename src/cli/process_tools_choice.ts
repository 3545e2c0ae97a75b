import type { McpShellMode } from "../mcp/shell_mode.ts";
import { UsageError } from "./usage_error.ts";

/** What `paddock mcp` was asked for, and whether an OS sandbox works here. */
export interface ProcessToolsRequest {
  /** `--read-only`: no process tools at all. */
  readOnly: boolean;
  /** `--node-process on|off`. */
  nodeProcess: boolean;
  /** `--shell`. */
  shell: McpShellMode;
  /** `--unsandboxed`: process tools may run without an OS sandbox. */
  unsandboxed: boolean;
  /** Why no OS sandbox works here, or `undefined` when one does. */
  sandboxUnavailable: string | undefined;
}

/** What `paddock mcp` offers. */
export interface ProcessToolsChoice {
  /** Offer `node_process`. */
  nodeProcess: boolean;
  /** The `shell` mode in force. */
  shell: McpShellMode;
  /** Run both in the OS sandbox. */
  sandboxed: boolean;
  /** Lines for stderr saying what was left out and why. */
  notes: string[];
}

/**
 * The rule for `paddock mcp`'s process tools: `node_process` and `shell` run
 * in the OS sandbox when one works here; where none does, `node_process` is
 * left out (with a note) and `--shell` is refused, unless `--unsandboxed`
 * turns them on anyway (node_process then confined by the runtime's
 * permissions only, shell commands not confined at all).
 *
 * @param request The flags and the sandbox probe's outcome.
 * @returns What to offer.
 * @throws {UsageError} `--shell ask|allow:…` without a sandbox and without `--unsandboxed`.
 */
export function chooseProcessTools(request: ProcessToolsRequest): ProcessToolsChoice {
  const wantsShell = !request.readOnly && request.shell.mode !== "off";
  const wantsNode = !request.readOnly && request.nodeProcess;
  if (!wantsShell && !wantsNode) {
    return { nodeProcess: false, shell: { mode: "off" }, sandboxed: false, notes: [] };
  }
  const reason = request.sandboxUnavailable;
  if (reason === undefined) return { nodeProcess: wantsNode, shell: request.shell, sandboxed: true, notes: [] };
  if (request.unsandboxed) {
    return {
      nodeProcess: wantsNode,
      shell: request.shell,
      sandboxed: false,
      notes: [
        `no OS sandbox here (${reason}); --unsandboxed: ${
          [
            wantsNode ? "node_process runs under the runtime's permissions only" : "",
            wantsShell ? "shell commands run unconfined" : "",
          ]
            .filter(Boolean).join(", ")
        }`,
      ],
    };
  }
  if (wantsShell) {
    throw new UsageError(
      `--shell needs an OS sandbox and none works here (${reason}); pass --unsandboxed to run shell commands unconfined`,
    );
  }
  return {
    nodeProcess: false,
    shell: { mode: "off" },
    sandboxed: false,
    notes: [
      `node_process is not offered: no OS sandbox here (${reason}); pass --unsandboxed to offer it under the runtime's permissions only`,
    ],
  };
}
