import * as z from "zod";
import { createReadTool, type ReadToolOptions } from "../tools/read_file.ts";
import { toErrorBody, type ToolErrorBody } from "../registry/execute_tool_call.ts";
import { defineTool } from "../tools/define_tool.ts";
import type { Tool } from "../tools/tool.ts";
import type { WorkspaceSource } from "../tools/workspace_source.ts";
import { isAbortError } from "../core/errors.ts";
import type { ReadFileOutput } from "../tools/read_file.ts";

/** Paths one `read_multiple_files` call may name. */
export const READ_MULTIPLE_FILES_MAX_PATHS = 32;

/** Input of `read_multiple_files`, validated. */
export interface ReadMultipleFilesInput {
  /** The workspace-relative paths, in order. */
  paths: string[];
}

/** One file's outcome: `read_file`'s result, or the error it would have reported. */
export type ReadMultipleFilesEntry = ReadFileOutput | ({ path: string } & ToolErrorBody);

/** Result of `read_multiple_files`. */
export interface ReadMultipleFilesOutput {
  /** One entry per path, in the order given. */
  files: ReadMultipleFilesEntry[];
}

/**
 * `read_multiple_files` `{paths}` → `{files: [...]}`: `read_file` on each path
 * in turn (the same grammar, confined walk and size limit), so one bad path
 * is an error entry and the others are still read. Built on `read_file`
 * itself, it inherits every one of its checks.
 *
 * @param workspace The workspace, or its root folder.
 * @param options `read_file`'s options (its size limit applies to each file).
 * @param readOne Reads one path (the MCP server's routes each to its root). @default `read_file` on `workspace`
 * @returns The tool.
 */
export function createReadMultipleFilesTool(
  workspace: WorkspaceSource,
  options: ReadToolOptions = {},
  readOne?: (path: string, signal: AbortSignal | undefined) => Promise<ReadFileOutput>,
): Tool<ReadMultipleFilesInput, ReadMultipleFilesOutput> {
  const read = createReadTool(workspace, options);
  const readPath = readOne ?? ((path, signal) => read.execute({ path }, { signal }));
  return defineTool({
    name: "read_multiple_files",
    description:
      `Read several UTF-8 text files of the workspace in one call (at most ${READ_MULTIPLE_FILES_MAX_PATHS}). ` +
      "Each entry is what read_file returns for that path, or its error; one failing path does not stop the others.",
    readOnly: true,
    schema: z.object({
      paths: z.array(z.string()).min(1).max(READ_MULTIPLE_FILES_MAX_PATHS).describe(
        "Workspace-relative paths of the files, e.g. ['src/a.ts', 'README.md']",
      ),
    }).strict(),
    prepare: (args): ReadMultipleFilesInput => ({ paths: args.paths }),
    run: async (input, { signal }) => {
      const files: ReadMultipleFilesEntry[] = [];
      for (const path of input.paths) {
        try {
          files.push(await readPath(path, signal));
        } catch (error) {
          if (isAbortError(error)) throw error;
          files.push({ path, ...toErrorBody(error) });
        }
      }
      return { files };
    },
  });
}
