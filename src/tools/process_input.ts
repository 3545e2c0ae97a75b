import * as z from "zod";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { PROCESS_INPUT_MAX_BYTES } from "../core/limits.ts";
import { encodeUtf8, utf8ByteLength } from "../core/text/utf8.ts";
import { processTableGetter, type ProcessToolOptions } from "./_process_table.ts";
import { defineTool } from "./define_tool.ts";
import type { Tool } from "./tool.ts";
import type { WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createProcessInputTool}. */
export interface ProcessInputToolOptions extends ProcessToolOptions {
  /** UTF-8 bytes of `text` in one call. @default 65536 */
  maxInputBytes?: number;
}

/** Arguments of `process_input` as a caller writes them; `execute` takes this type. */
export interface ProcessInputArguments {
  /** The id `shell` or `node_process` returned. */
  process_id: string;
  /** What to write to its stdin, as is (add "\n" to end a line). */
  text: string;
}

/** Arguments of `process_input`, validated. */
export interface ProcessInputInput {
  /** The id. */
  processId: string;
  /** The bytes to write. */
  data: Uint8Array;
}

/** Result of `process_input`. */
export interface ProcessInputOutput {
  /** The proc. */
  process_id: string;
  /** UTF-8 bytes written: taken by its stdin, or (at most `PROCESS_INPUT_CHUNK_BYTES`) handed to it and taken when it reads. */
  bytes: number;
  /** Bytes of `text` not sent because the process stopped reading within `PROCESS_INPUT_WAIT_MS`; 0 when all was sent. */
  unsentBytes: number;
}

/**
 * Creates `process_input` `{process_id, text}` → `{process_id, bytes,
 * unsentBytes}`: writes text to a background process's stdin (exactly as
 * given: end a line with `\n`). Its answer is read with `process_output`. A
 * process that has ended is `PROCESS_NOT_RUNNING`; an unknown id is
 * `PROCESS_NOT_FOUND`. The write is bounded in bytes queued and in time (see
 * `StdinQueue`): a process that stops reading makes the call return within
 * `PROCESS_INPUT_WAIT_MS` with what was written and `unsentBytes` for the
 * rest, or `PROCESS_INPUT_BLOCKED` when nothing could be written.
 *
 * @param workspace The workspace, or its root folder.
 * @param options The table, the input limit, name and description.
 * @returns The tool.
 *
 * @example Answering a prompt
 * ```ts
 * import { createProcessInputTool, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const input = createProcessInputTool(workspace);
 * await input.execute({ process_id: "p1", text: "yes\n" });
 * ```
 */
export function createProcessInputTool(
  workspace: WorkspaceSource,
  options: ProcessInputToolOptions = {},
): Tool<ProcessInputInput, ProcessInputOutput, ProcessInputArguments> {
  const getTable = processTableGetter(workspace, options);
  const maxBytes = options.maxInputBytes ?? PROCESS_INPUT_MAX_BYTES;
  const schema = z.object({
    process_id: z.string().describe("The process_id that shell or node_process returned with background: true"),
    text: z.string().describe('Text written to its stdin as is; end a line with "\\n"'),
  }).strict();
  return defineTool({
    name: options.name ?? "process_input",
    description: options.description ??
      `Write text to the stdin of a background proc (read its answer with process_output). At most ${maxBytes} bytes per call. ` +
        `A process that does not read takes what its pipe holds: the call then returns with unsentBytes for the rest (send them later), ` +
        "or PROCESS_INPUT_BLOCKED when nothing could be written.",
    readOnly: false,
    schema,
    prepare: (args): ProcessInputInput => {
      if (utf8ByteLength(args.text) > maxBytes) {
        throw new WorkspaceError("CONTENT_TOO_LARGE", `The text is larger than ${maxBytes} bytes of UTF-8`, {
          hint: "send it in several calls",
        });
      }
      return { processId: args.process_id, data: encodeUtf8(args.text) };
    },
    run: async (input, { signal }) => {
      throwIfAborted(signal);
      const proc = (await getTable()).get(input.processId);
      const written = await proc.write(input.data, signal);
      return { process_id: proc.id, bytes: written.bytes, unsentBytes: written.unsentBytes };
    },
  });
}
