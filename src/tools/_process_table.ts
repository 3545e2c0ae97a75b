import type { BackgroundProcesses } from "../core/process/background_processes.ts";
import { backgroundProcessesOf } from "../core/process/background_processes.ts";
import type { BaseToolOptions } from "./tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of the `process_*` tools. */
export interface ProcessToolOptions extends BaseToolOptions {
  /**
   * The background processes it reaches. @default the workspace's own table
   * (the one `shell` and `node_process` over the same workspace start in)
   */
  processes?: BackgroundProcesses;
}

/** The table a `process_*` tool reads: the one given, else the workspace's, opened on first use. */
export function processTableGetter(
  source: WorkspaceSource,
  options: ProcessToolOptions,
): () => Promise<BackgroundProcesses> {
  const given = options.processes;
  if (given !== undefined) return () => Promise.resolve(given);
  const getWorkspace = workspaceGetter(source);
  return async () => backgroundProcessesOf(await getWorkspace());
}
