import { createProcessInputTool } from "./process_input.ts";
import { createProcessKillTool } from "./process_kill.ts";
import { createProcessListTool } from "./process_list.ts";
import { createProcessOutputTool, type ProcessOutputToolOptions } from "./process_output.ts";
import type { ProcessInputToolOptions } from "./process_input.ts";
import type { AnyTool } from "./tool.ts";
import type { WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createProcessTools}: the table, the wait ceiling of `process_output`, the input limit of `process_input`. */
export type ProcessToolsOptions = Omit<ProcessOutputToolOptions & ProcessInputToolOptions, "name" | "description">;

/**
 * Creates the tools over a workspace's background processes:
 * `process_output`, `process_input`, `process_kill` and `process_list`
 * (`createCodingTools` includes them with `shell` or `node_process`).
 *
 * @param workspace The workspace, or its root folder: the same one `shell` and `node_process` run in.
 * @param options The table and the limits.
 * @returns The four tools.
 *
 * @example Background commands for an agent
 * ```ts
 * import { createProcessTools, createShellTool, openWorkspace, ToolRegistry } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const registry = new ToolRegistry([createShellTool(workspace), ...createProcessTools(workspace)]);
 * ```
 */
export function createProcessTools(workspace: WorkspaceSource, options: ProcessToolsOptions = {}): AnyTool[] {
  return [
    createProcessOutputTool(workspace, options),
    createProcessInputTool(workspace, options),
    createProcessKillTool(workspace, options),
    createProcessListTool(workspace, options),
  ];
}
