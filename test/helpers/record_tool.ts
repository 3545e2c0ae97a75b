import * as z from "zod";
import { type AnyTool, defineTool, type Tool } from "../../mod.ts";

/** Input of the test `record` tool, validated. */
export interface RecordInput {
  value: string;
}

/** Options of {@link recordTool}. */
export interface RecordToolOptions {
  /** The tool's name. @default "record" */
  name?: string;
  /** Passed through as the tool's `needsApproval`. */
  needsApproval?: Tool<RecordInput>["needsApproval"];
  /** Milliseconds `run` waits before recording (to expose overlapping calls). */
  delayMs?: (value: string) => number;
}

/** A test tool with a visible side effect: `run` appends `value` to `log` (and `start:`/`end:` marks to `trace`). */
export interface RecordTool {
  tool: AnyTool;
  log: string[];
  trace: string[];
}

/**
 * A tiny tool for call-layer tests: `{value}` (1 to 10 characters) →
 * `{recorded: value}`; every run is visible in `log`.
 */
export function recordTool(options: RecordToolOptions = {}): RecordTool {
  const log: string[] = [];
  const trace: string[] = [];
  const base = defineTool({
    name: options.name ?? "record",
    description: "Records a short value",
    readOnly: false,
    schema: z.object({ value: z.string().min(1).max(10) }).strict(),
    prepare: (args): RecordInput => ({ value: args.value }),
    run: async (input) => {
      trace.push(`start:${input.value}`);
      const delay = options.delayMs?.(input.value) ?? 0;
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      log.push(input.value);
      trace.push(`end:${input.value}`);
      return { recorded: input.value };
    },
  });
  const tool: AnyTool = options.needsApproval === undefined ? base : { ...base, needsApproval: options.needsApproval };
  return { tool, log, trace };
}
