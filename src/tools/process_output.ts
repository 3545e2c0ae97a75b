import * as z from "zod";
import { throwIfAborted } from "../core/errors.ts";
import {
  OUTPUT_MAX_LINE_CHARS,
  PROCESS_OUTPUT_MAX_LINES,
  PROCESS_OUTPUT_MAX_MATCHES,
  PROCESS_OUTPUT_MAX_WAIT_MS,
} from "../core/limits.ts";
import type { BackgroundOutput } from "../core/process/background_process.ts";
import type { KeptOutput } from "../core/process/kept_output.ts";
import type { KeptLine } from "../core/process/kept_stream.ts";
import { compileLineMatcher } from "../core/search/line_matcher.ts";
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
  /** Read the kept whole output from this line on (1 = the first line printed), instead of what is new. @default undefined */
  offset?: number;
  /** Lines of one page (with `offset`). @default 500 */
  limit?: number;
  /** Search the kept whole output for lines matching this regular expression (RE2 syntax). @default undefined */
  regex?: string;
  /** The stream `offset` and `regex` read. @default "stdout" */
  stream?: "stdout" | "stderr";
}

/** Arguments of `process_output`, validated. */
export interface ProcessOutputInput {
  /** The id. */
  processId: string;
  /** Milliseconds to wait. */
  waitMs: number;
  /** With `offset` or `regex`: what to read of the kept output. */
  kept?: { offset: number; limit: number; regex?: string; stream: "stdout" | "stderr" };
}

/** What `process_output` returns with `offset` or `regex`: lines of the kept whole output. */
export interface KeptOutputPage {
  /** The id. */
  process_id: string;
  /** The stream read. */
  stream: "stdout" | "stderr";
  /** `running`, or `exited`. */
  status: "running" | "exited";
  /** The exit code once exited (`null` while running, or when a signal ended it). */
  exitCode: number | null;
  /** The signal that ended it, or `null`. */
  signal: string | null;
  /** Lines in the whole stream so far. */
  totalLines: number;
  /** The first line still kept (earlier ones were dropped to stay within `KEPT_OUTPUT_MAX_BYTES`). */
  firstKeptLine: number;
  /** With `offset`: the page, each line numbered. */
  lines?: KeptLine[];
  /** With `offset`: the offset of the next page, or `null` at the end. */
  nextOffset?: number | null;
  /** With `regex`: the matching lines, numbered. */
  matches?: KeptLine[];
  /** With `regex`: whether more matches were left out (search on from the last one's line + 1). */
  truncated?: boolean;
}

/** Result of `process_output`. */
export type ProcessOutputOutput = BackgroundOutput | KeptOutputPage;

/**
 * Creates `process_output` `{process_id, wait_ms?, offset?, limit?, regex?,
 * stream?}` → `{process_id, status,
 * exitCode, signal, stdout, stderr, stdoutTruncated, stderrTruncated,
 * stdoutDroppedBytes, stderrDroppedBytes, timedOut, killed}`: what a
 * background process printed since the last call. Each stream keeps at most
 * the starting tool's output limit between two calls (its start and its end,
 * with a marker; the bytes dropped are counted). With `wait_ms` the call
 * waits until something new is printed or the process ends, at most that
 * long. Once it has ended (`status: "exited"`, with its exit code) the call
 * hands over its last output and the process is forgotten: another call is
 * `PROCESS_NOT_FOUND`. With `offset` or `regex` it reads the whole output
 * kept of the command instead ({@link KeptOutputPage}): a page of numbered
 * lines from `offset`, or the lines matching `regex` (RE2, linear time), for
 * a background process or a foreground call's `outputId`, after it ended too.
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
 * const live = await output.execute({ process_id: process_id!, wait_ms: 5_000 });
 * if ("stdout" in live) console.log(live.status, live.stdout);
 * ```
 *
 * @example Searching the whole output of a foreground command
 * ```ts
 * import { createProcessOutputTool, createShellTool, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const shell = createShellTool(workspace, { needsApproval: false });
 * const { outputId } = await shell.execute({ command: "npm test" });
 * const output = createProcessOutputTool(workspace);
 * const found = await output.execute({ process_id: outputId!, regex: "FAIL" });
 * if ("matches" in found) for (const { line, text } of found.matches ?? []) console.log(line, text);
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
    offset: z.number().int().min(1).optional().describe(
      "Read the whole kept output from this line on (1 = first), instead of what is new; also works after the command ended, and for a foreground shell or node_process call's outputId",
    ),
    limit: z.number().int().min(1).max(PROCESS_OUTPUT_MAX_LINES).optional().describe(
      `Lines of one page with offset (default and at most ${PROCESS_OUTPUT_MAX_LINES})`,
    ),
    regex: z.string().optional().describe(
      `Find the lines of the whole kept output matching this regular expression (RE2 syntax, at most ${PROCESS_OUTPUT_MAX_MATCHES} matches; from offset when given)`,
    ),
    stream: z.enum(["stdout", "stderr"]).optional().describe('The stream offset and regex read (default "stdout")'),
  }).strict();
  return defineTool({
    name: options.name ?? "process_output",
    description: options.description ??
      "Read what a background proc (shell or node_process with background: true) printed since the last call, " +
        "and its exit code once it has ended (then it is forgotten). Each stream keeps its start and its end " +
        "between two calls; the bytes dropped are counted. wait_ms waits for new output or the exit. " +
        "With offset (a line number) or regex it pages or searches the whole output kept of the command instead " +
        "(background, or a foreground call's outputId; also after it ended), numbered lines.",
    readOnly: false,
    schema,
    prepare: (args): ProcessOutputInput => {
      const base = { processId: args.process_id, waitMs: args.wait_ms ?? 0 };
      if (args.offset === undefined && args.regex === undefined) return base;
      // A malformed pattern is refused before anything is read.
      if (args.regex !== undefined) compileLineMatcher(args.regex);
      return {
        ...base,
        kept: {
          offset: args.offset ?? 1,
          limit: args.limit ?? PROCESS_OUTPUT_MAX_LINES,
          ...(args.regex === undefined ? {} : { regex: args.regex }),
          stream: args.stream ?? "stdout",
        },
      };
    },
    run: async (input, { signal }) => {
      throwIfAborted(signal);
      const table = await getTable();
      if (input.kept !== undefined) return readKept(table.kept(input.processId), input.kept);
      const proc = table.get(input.processId);
      const output = await proc.read(input.waitMs, signal);
      if (output.status === "exited") table.forget(proc.id);
      return output;
    },
  });
}

function readKept(
  kept: KeptOutput,
  request: NonNullable<ProcessOutputInput["kept"]>,
): KeptOutputPage {
  const stream = kept[request.stream];
  const head = {
    process_id: kept.id,
    stream: request.stream,
    status: kept.exit === undefined ? "running" as const : "exited" as const,
    exitCode: kept.exit?.exitCode ?? null,
    signal: kept.exit?.signal ?? null,
    totalLines: stream.totalLines,
  };
  if (request.regex !== undefined) {
    const found = stream.search(
      request.regex,
      PROCESS_OUTPUT_MAX_MATCHES,
      OUTPUT_MAX_LINE_CHARS,
      kept.rewrite,
      request.offset,
    );
    return { ...head, firstKeptLine: found.firstKeptLine, matches: found.matches, truncated: found.truncated };
  }
  const page = stream.page(request.offset, request.limit, OUTPUT_MAX_LINE_CHARS, kept.rewrite);
  return { ...head, firstKeptLine: page.firstKeptLine, lines: page.lines, nextOffset: page.nextOffset };
}
