import * as z from "zod";
import { throwIfAborted } from "../core/errors.ts";
import type { BackgroundProcessInfo } from "../core/process/background_process.ts";
import { processTableGetter, type ProcessToolOptions } from "./_process_table.ts";
import { defineTool } from "./define_tool.ts";
import type { Tool } from "./tool.ts";
import type { WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createProcessListTool}. */
export type ProcessListToolOptions = ProcessToolOptions;

/** Arguments of `process_list`: none. */
export type ProcessListArguments = Record<string, never>;

/** Result of `process_list`. */
export interface ProcessListOutput {
  /** The background processes, oldest first: running ones, and ended ones whose last output is unread. */
  processes: BackgroundProcessInfo[];
}

/**
 * Creates `process_list` `{}` → `{processes: [{process_id, tool, command,
 * status, started}]}`: the workspace's background processes, oldest first.
 *
 * @param workspace The workspace, or its root folder.
 * @param options The table, name and description.
 * @returns The tool.
 *
 * @example Listing what runs
 * ```ts
 * import { createProcessListTool } from "@paddock/tools";
 * const list = createProcessListTool("./project");
 * const { processes } = await list.execute({});
 * ```
 */
export function createProcessListTool(
  workspace: WorkspaceSource,
  options: ProcessListToolOptions = {},
): Tool<Record<string, never>, ProcessListOutput, ProcessListArguments> {
  const getTable = processTableGetter(workspace, options);
  return defineTool({
    name: options.name ?? "process_list",
    description: options.description ??
      "List the background processes (id, command, status, start time) started by shell or node_process with background: true.",
    readOnly: true,
    schema: z.object({}).strict(),
    prepare: (): Record<string, never> => ({}),
    run: async (_input, { signal }) => {
      throwIfAborted(signal);
      return { processes: (await getTable()).list() };
    },
  });
}
