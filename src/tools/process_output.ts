import * as z from "zod";
import { throwIfAborted } from "../core/errors.ts";
import { PROCESS_OUTPUT_MAX_WAIT_MS } from "../core/limits.ts";
import type { BackgroundOutput } from "../core/process/background_process.ts";
import { processTableGetter, type ProcessToolOptions } from "./_process_table.ts";
import { defineTool } from "./define_tool.ts";
import type { Tool } from "./tool.ts";
import type { WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createProcessOutputTool}. */
export interface ProcessOutputToolOptions extends ProcessToolOptions {
  /** The largest `wait_ms` a call may ask for. @default 30000 */
  maxWaitMs?: number;
}

/** Arguments of `process_output` as a caller writes them; `execute` takes this type. */
export interface ProcessOutputArguments {
  /** The id `shell` or `node_process` returned. */
  process_id: string;
  /** Milliseconds to wait for new output while there is none. @default 0 */
  wait_ms?: number;
}

/** Arguments of `process_output`, validated. */
export interface ProcessOutputInput {
  /** The id. */
  processId: string;
  /** Milliseconds to wait. */
  waitMs: number;
}

/** Result of `process_output`. */
export type ProcessOutputOutput = BackgroundOutput;

/**
 * Creates `process_output` `{process_id, wait_ms?}` → `{process_id, status,
 * exitCode, signal, stdout, stderr, stdoutTruncated, stderrTruncated,
 * stdoutDroppedBytes, stderrDroppedBytes, timedOut, killed}`: what a
 * background process printed since the last call. Each stream keeps at most
 * the starting tool's output limit between two calls (its start and its end,
 * with a marker; the bytes dropped are counted). With `wait_ms` the call
 * waits until something new is printed or the process ends, at most that
 * long. Once it has ended (`status: "exited"`, with its exit code) the call
 * hands over its last output and the process is forgotten: another call is
 * `PROCESS_NOT_FOUND`.
 *
 * @param workspace The workspace, or its root folder.
 * @param options The table, the wait ceiling, name and description.
 * @returns The tool.
 *
 * @example Waiting for a dev server to say it is ready
 * ```ts
 * import { createProcessOutputTool, createShellTool, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const shell = createShellTool(workspace, { needsApproval: false });
 * const { process_id } = await shell.execute({ command: "npm run dev", background: true });
 * const output = createProcessOutputTool(workspace);
 * const { stdout, status } = await output.execute({ process_id: process_id!, wait_ms: 5_000 });
 * ```
 */
export function createProcessOutputTool(
  workspace: WorkspaceSource,
  options: ProcessOutputToolOptions = {},
): Tool<ProcessOutputInput, ProcessOutputOutput, ProcessOutputArguments> {
  const getTable = processTableGetter(workspace, options);
  const maxWaitMs = options.maxWaitMs ?? PROCESS_OUTPUT_MAX_WAIT_MS;
  const schema = z.object({
    process_id: z.string().describe("The process_id that shell or node_process returned with background: true"),
    wait_ms: z.number().int().min(0).max(maxWaitMs).optional().describe(
      `Wait up to this many milliseconds for new output or the exit (default 0, at most ${maxWaitMs})`,
    ),
  }).strict();
  return defineTool({
    name: options.name ?? "process_output",
    description: options.description ??
      "Read what a background proc (shell or node_process with background: true) printed since the last call, " +
        "and its exit code once it has ended (then it is forgotten). Each stream keeps its start and its end " +
        "between two calls; the bytes dropped are counted. wait_ms waits for new output or the exit.",
    readOnly: false,
    schema,
    prepare: (args): ProcessOutputInput => ({ processId: args.process_id, waitMs: args.wait_ms ?? 0 }),
    run: async (input, { signal }) => {
      throwIfAborted(signal);
      const table = await getTable();
      const proc = table.get(input.processId);
      const output = await proc.read(input.waitMs, signal);
      if (output.status === "exited") table.forget(proc.id);
      return output;
    },
  });
}
