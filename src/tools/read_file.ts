import * as z from "zod";
import { WorkspaceError } from "../core/errors.ts";
import {
  READ_FILE_CHUNK_BYTES,
  READ_FILE_COUNT_LINES_MAX_BYTES,
  READ_FILE_MAX_BYTES,
  READ_FILE_MAX_SCAN_BYTES,
} from "../core/limits.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { openCheckedFile, readFully } from "../core/fs/open_checked_file.ts";
import { readLineWindow } from "../core/fs/read_line_window.ts";
import { readTrackerOf } from "../core/fs/read_tracker.ts";
import { decodeUtf8Strict } from "../core/text/utf8.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createReadTool}. */
export interface ReadToolOptions extends BaseToolOptions {
  /** Bytes of content returned at most; a larger file is `FILE_TOO_LARGE` unless read in windows. @default 65536 ({@link READ_FILE_MAX_BYTES}) */
  maxBytes?: number;
  /** How far into a file (bytes) a window may start. @default 67108864 ({@link READ_FILE_MAX_SCAN_BYTES}) */
  maxScanBytes?: number;
  /** Files up to this size get `totalLines` in a windowed read; larger ones report `hasMore` only. @default 8388608 ({@link READ_FILE_COUNT_LINES_MAX_BYTES}) */
  countLinesMaxBytes?: number;
}

/** Arguments of `read_file` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface ReadFileArguments {
  /** Workspace-relative path of a UTF-8 text file. */
  path: string;
  /** First line of a window, 1-based. @default undefined (the whole file) */
  offset?: number;
  /** Lines in a window at most. @default undefined (the whole file) */
  limit?: number;
}

/** Arguments of `read_file`. */
export interface ReadFileInput {
  /** The workspace-relative path as given. */
  path: string;
  /** Its normalized segments. */
  segments: string[];
  /** The first line of a window, 1-based; `undefined` (with `limit`) reads the whole file. */
  offset?: number;
  /** Lines in a window at most. */
  limit?: number;
}

/**
 * Result of `read_file`. Without `offset` or `limit` it is `{path, content,
 * bytes}`; a windowed read adds the line fields.
 */
export interface ReadFileOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** The whole file, or the window's whole lines, decoded as strict UTF-8. */
  content: string;
  /** Bytes of `content`. */
  bytes: number;
  /** Windowed reads: the first line returned (the `offset` asked for). */
  startLine?: number;
  /** Windowed reads: the last line returned; `startLine - 1` when nothing was left to return. */
  endLine?: number;
  /** Windowed reads: lines in the whole file, given when the file is at most `countLinesMaxBytes`. */
  totalLines?: number;
  /** Windowed reads: whether lines follow `endLine`. */
  hasMore?: boolean;
  /** Windowed reads: the `offset` to ask for next, or `null` at the end of the file. */
  nextOffset?: number | null;
  /** Windowed reads: the file's size in bytes. */
  fileBytes?: number;
  /** Windowed reads: `true` when the one line returned was longer than the byte limit and was cut. */
  lineCut?: boolean;
}

const schema = z.object({
  path: z.string().describe("Workspace-relative path of a UTF-8 text file, e.g. 'src/index.ts'"),
  offset: z.number().int().min(1).optional().describe(
    "First line to read, 1-based. Give offset and/or limit to read a large file in windows",
  ),
  limit: z.number().int().min(1).optional().describe(
    "Lines to read at most from offset (the byte limit still applies)",
  ),
}).strict();

/**
 * Creates `read_file` `{path, offset?, limit?}` → `{path, content, bytes, …}`:
 * reads a regular UTF-8 file inside the workspace, whole or a window of lines.
 *
 * The handle opened must be the object the confined walk checked (dev, ino);
 * a FIFO, socket or device is refused without blocking. Without a window, at
 * most `maxBytes + 1` bytes are read, so a larger file is refused
 * (`FILE_TOO_LARGE`, with a hint on paging) without loading it. With a window
 * (`offset` 1-based, `limit` lines), the file is streamed in chunks from its
 * start and whole lines are returned while they fit in `maxBytes`, with
 * `startLine`, `endLine`, `hasMore`, `nextOffset` and, for files up to
 * `countLinesMaxBytes`, `totalLines`.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limits and name.
 * @returns The tool.
 *
 * @example Reading a file
 * ```ts
 * import { createReadTool } from "@paddock/tools";
 * const read = createReadTool("./project");
 * const { content } = await read.execute({ path: "README.md" });
 * ```
 *
 * @example Reading a large log in windows
 * ```ts
 * import { createReadTool } from "@paddock/tools";
 * const read = createReadTool("./project");
 * let offset: number | null | undefined = 1;
 * while (offset) {
 *   const page = await read.execute({ path: "build.log", offset, limit: 500 });
 *   offset = page.nextOffset;
 * }
 * ```
 */
export function createReadTool(
  workspace: WorkspaceSource,
  options: ReadToolOptions = {},
): Tool<ReadFileInput, ReadFileOutput, ReadFileArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxBytes = options.maxBytes ?? READ_FILE_MAX_BYTES;
  const maxScanBytes = options.maxScanBytes ?? READ_FILE_MAX_SCAN_BYTES;
  const countLinesMaxBytes = options.countLinesMaxBytes ?? READ_FILE_COUNT_LINES_MAX_BYTES;
  return defineTool({
    name: options.name ?? "read_file",
    description: options.description ??
      `Read a UTF-8 text file inside the workspace. Paths are relative to the workspace root. Files over ${maxBytes} bytes must be read in windows: pass offset (1-based line) and limit (lines); the result gives nextOffset.`,
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    schema,
    prepare: (args): ReadFileInput => ({
      path: args.path,
      segments: normalizeWorkspacePath(args.path),
      offset: args.offset,
      limit: args.limit,
    }),
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const target = await workspace.resolve(input.segments, {
        action: "read",
        display,
        folder: namesFolder(input.path),
      });
      try {
        const windowed = input.offset !== undefined || input.limit !== undefined;
        if (!windowed && target.stat !== null && target.stat.kind === "file" && target.stat.size > maxBytes) {
          throw tooLarge(display, target.stat.size, maxBytes);
        }
        const { file, stat } = await openCheckedFile(workspace, target, "read", display);
        try {
          if (windowed) {
            const window = await readLineWindow(file, {
              offset: input.offset ?? 1,
              limit: input.limit,
              maxBytes,
              chunkBytes: Math.min(READ_FILE_CHUNK_BYTES, Math.max(maxBytes, 1)),
              maxScanBytes,
              countLinesMaxBytes: stat.size <= countLinesMaxBytes ? countLinesMaxBytes : 0,
              signal,
            });
            if (window.beyondScan) {
              throw new WorkspaceError(
                "FILE_TOO_LARGE",
                `Cannot read '${display}': line ${window.startLine} does not start within the first ${maxScanBytes} bytes`,
                { path: display, hint: `windows of this file must start within its first ${maxScanBytes} bytes` },
              );
            }
            const output: ReadFileOutput = {
              path: display,
              content: decodeUtf8Strict(window.bytes, display),
              bytes: window.bytes.length,
              startLine: window.startLine,
              endLine: window.endLine,
            };
            if (window.totalLines !== undefined) output.totalLines = window.totalLines;
            output.hasMore = window.hasMore;
            output.nextOffset = window.hasMore ? window.endLine + 1 : null;
            output.fileBytes = stat.size;
            if (window.lineCut) output.lineCut = true;
            readTrackerOf(workspace).record(target.segments, stat); // what the stale-write guard compares with
            return output;
          }
          // Read one byte more than allowed: getting it means the file is too large.
          // Stop at the size fstat reported (a file growing meanwhile is read as it
          // was then); a size of 0 (pseudo files) reads up to the limit.
          const buffer = new Uint8Array(maxBytes + 1);
          const wanted = stat.size === 0 ? buffer.length : Math.min(stat.size, maxBytes + 1);
          const length = await readFully(file, buffer.subarray(0, wanted), 0, signal);
          if (length > maxBytes) throw tooLarge(display, Math.max(stat.size, length), maxBytes);
          const content = decodeUtf8Strict(buffer.subarray(0, length), display);
          readTrackerOf(workspace).record(target.segments, stat); // what the stale-write guard compares with
          return { path: display, content, bytes: length };
        } catch (error) {
          throw mapHostError(error, "read", display);
        } finally {
          await file.close().catch(() => {});
        }
      } finally {
        await target.release();
      }
    },
  });
}

function tooLarge(display: string, size: number, maxBytes: number): WorkspaceError {
  return new WorkspaceError(
    "FILE_TOO_LARGE",
    `Cannot read '${display}': the file has ${size} bytes, more than ${maxBytes}`,
    {
      path: display,
      hint:
        `the file has ${size} bytes; read it in windows with offset (1-based line) and limit (lines), e.g. {"path": "${display}", "offset": 1, "limit": 1000}, then continue from nextOffset`,
    },
  );
}
