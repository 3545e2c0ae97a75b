import * as z from "zod";
import { throwIfAborted } from "../core/errors.ts";
import type { BackgroundOutput } from "../core/process/background_process.ts";
import { processTableGetter, type ProcessToolOptions } from "./_process_table.ts";
import { defineTool } from "./define_tool.ts";
import type { Tool } from "./tool.ts";
import type { WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createProcessKillTool}. */
export type ProcessKillToolOptions = ProcessToolOptions;

/** Arguments of `process_kill` as a caller writes them; `execute` takes this type. */
export interface ProcessKillArguments {
  /** The id `shell` or `node_process` returned. */
  process_id: string;
}

/** Arguments of `process_kill`, validated. */
export interface ProcessKillInput {
  /** The id. */
  processId: string;
}

/** Result of `process_kill`: its last output and how it ended (`killed: true` unless it had ended already). */
export type ProcessKillOutput = BackgroundOutput;

/**
 * Creates `process_kill` `{process_id}` → the process's last output, as
 * `process_output` returns it: ends a background process's whole process
 * group (SIGTERM, then SIGKILL after the starting tool's grace; grandchildren
 * too), waits until it ended, and forgets it. A process that had ended is
 * only forgotten (`killed: false`).
 *
 * @param workspace The workspace, or its root folder.
 * @param options The table, name and description.
 * @returns The tool.
 *
 * @example Stopping a dev server
 * ```ts
 * import { createProcessKillTool, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const kill = createProcessKillTool(workspace);
 * const { exitCode, signal } = await kill.execute({ process_id: "p1" });
 * ```
 */
export function createProcessKillTool(
  workspace: WorkspaceSource,
  options: ProcessKillToolOptions = {},
): Tool<ProcessKillInput, ProcessKillOutput, ProcessKillArguments> {
  const getTable = processTableGetter(workspace, options);
  const schema = z.object({
    process_id: z.string().describe("The process_id that shell or node_process returned with background: true"),
  }).strict();
  return defineTool({
    name: options.name ?? "process_kill",
    description: options.description ??
      "End a background proc and everything it started (its whole proc group); returns its last output.",
    readOnly: false,
    schema,
    prepare: (args): ProcessKillInput => ({ processId: args.process_id }),
    run: async (input, { signal }) => {
      throwIfAborted(signal);
      const table = await getTable();
      const proc = table.get(input.processId);
      await proc.kill();
      const output = await proc.read(0);
      table.forget(proc.id);
      return output;
    },
  });
}
