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
import { readTrackerOf, type ShownText } from "../core/fs/read_tracker.ts";
import { decodeText } from "../core/text/decode_text.ts";
import { isPlainUtf8, TEXT_ENCODINGS, type TextEncodingName, type TextForm } from "../core/text/text_form.ts";
import { textLineWindow } from "../core/text/text_line_window.ts";
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
  /** Decode as this encoding instead of detecting it. @default undefined (detected: see `decodeText`) */
  encoding?: TextEncodingName;
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
  /** The encoding asked for, if any. */
  encoding?: TextEncodingName;
}

/**
 * Result of `read_file`. Without `offset` or `limit` it is `{path, content,
 * bytes}`; a windowed read adds the line fields.
 */
export interface ReadFileOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** The whole file, or the window's whole lines, decoded losslessly (without a byte order mark). */
  content: string;
  /** Bytes of `content` in the file. */
  bytes: number;
  /** The file's encoding, when it is not UTF-8 (`edit_file` writes it back in it). */
  encoding?: TextEncodingName;
  /** `true` when the file starts with a byte order mark (kept by `edit_file` and `apply_patch`). */
  bom?: boolean;
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
  path: z.string().describe("Workspace-relative path of a text file, e.g. 'src/index.ts'"),
  offset: z.number().int().min(1).optional().describe(
    "First line to read, 1-based. Give offset and/or limit to read a large file in windows",
  ),
  limit: z.number().int().min(1).optional().describe(
    "Lines to read at most from offset (the byte limit still applies)",
  ),
  encoding: z.enum(TEXT_ENCODINGS as [TextEncodingName, ...TextEncodingName[]]).optional().describe(
    "Decode as this encoding (default: detected; UTF-8, UTF-16 with a BOM, else windows-1252)",
  ),
}).strict();

/**
 * Creates `read_file` `{path, offset?, limit?}` → `{path, content, bytes, …}`:
 * reads a regular text file inside the workspace, whole or a window of lines,
 * decoded losslessly (UTF-8, UTF-16 with a BOM, or legacy single-byte text by
 * the rule of `decodeText`; `encoding` names one instead).
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
      `Read a text file inside the workspace (UTF-8, UTF-16 or a legacy single-byte encoding, detected). Paths are relative to the workspace root. Files over ${maxBytes} bytes must be read in windows: pass offset (1-based line) and limit (lines); the result gives nextOffset.`,
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): ReadFileInput => ({
      path: args.path,
      segments: normalizeWorkspacePath(args.path),
      offset: args.offset,
      limit: args.limit,
      encoding: args.encoding,
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
            const offset = input.offset ?? 1;
            const head = new Uint8Array(3);
            const headLength = await readFully(file, head, 0, signal);
            const utf16 = input.encoding?.startsWith("utf-16") ||
              (input.encoding === undefined && headLength >= 2 &&
                ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)));
            if (utf16) {
              // UTF-16's newlines are two bytes: the file is decoded whole, then cut into lines.
              if (stat.size > countLinesMaxBytes) throw tooLarge(display, stat.size, countLinesMaxBytes);
              const all = new Uint8Array(stat.size);
              const length = await readFully(file, all, 0, signal);
              const { text, form } = decodeText(all.subarray(0, length), { display, encoding: input.encoding });
              const window = textLineWindow(text, offset, input.limit, maxBytes, 2);
              const output: ReadFileOutput = {
                path: display,
                content: window.text,
                bytes: window.text.length * 2,
                startLine: offset,
                endLine: window.endLine,
                totalLines: window.totalLines,
                hasMore: window.hasMore,
                nextOffset: window.hasMore ? window.endLine + 1 : null,
                fileBytes: stat.size,
              };
              if (window.lineCut) output.lineCut = true;
              addForm(output, form);
              readTrackerOf(workspace).record(target.segments, stat, shownOf(output));
              return output;
            }
            const window = await readLineWindow(file, {
              offset,
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
            // A UTF-8 byte order mark is the first window's: later windows decode as the file does.
            const utf8Bom = headLength === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
            const asked = input.encoding ?? (utf8Bom && offset > 1 ? "utf-8" : undefined);
            const decoded = decodeText(window.bytes, { display, encoding: asked });
            const output: ReadFileOutput = {
              path: display,
              content: decoded.text,
              bytes: window.bytes.length,
              startLine: window.startLine,
              endLine: window.endLine,
            };
            if (window.totalLines !== undefined) output.totalLines = window.totalLines;
            output.hasMore = window.hasMore;
            output.nextOffset = window.hasMore ? window.endLine + 1 : null;
            output.fileBytes = stat.size;
            if (window.lineCut) output.lineCut = true;
            addForm(output, utf8Bom ? { encoding: "utf-8", bom: true } : decoded.form);
            // What the stale-write guard compares with: the version, and the lines shown.
            readTrackerOf(workspace).record(target.segments, stat, shownOf(output));
            return output;
          }
          // Read one byte more than allowed: getting it means the file is too large.
          // Stop at the size fstat reported (a file growing meanwhile is read as it
          // was then); a size of 0 (pseudo files) reads up to the limit.
          const buffer = new Uint8Array(maxBytes + 1);
          const wanted = stat.size === 0 ? buffer.length : Math.min(stat.size, maxBytes + 1);
          const length = await readFully(file, buffer.subarray(0, wanted), 0, signal);
          if (length > maxBytes) throw tooLarge(display, Math.max(stat.size, length), maxBytes);
          const { text, form } = decodeText(buffer.subarray(0, length), { display, encoding: input.encoding });
          // What the stale-write guard compares with: the version, and the lines shown.
          readTrackerOf(workspace).record(target.segments, stat, { first: 1, text, complete: true });
          const output: ReadFileOutput = { path: display, content: text, bytes: length };
          addForm(output, form);
          return output;
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

// The lines a window showed, for the region check; a cut line is not shown whole, so none are.
function shownOf(output: ReadFileOutput): ShownText | undefined {
  if (output.lineCut === true || output.startLine === undefined) return undefined;
  return { first: output.startLine, text: output.content, complete: output.hasMore === false };
}

// The file's form, when it is not plain UTF-8.
function addForm(output: ReadFileOutput, form: TextForm): void {
  if (isPlainUtf8(form)) return;
  if (form.encoding !== "utf-8") output.encoding = form.encoding;
  if (form.bom) output.bom = true;
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
