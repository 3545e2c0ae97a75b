import * as z from "zod";
import { assertNotProtected } from "../core/protected_paths.ts";
import { atomicWrite } from "../core/atomic_write.ts";
import { WorkspaceError } from "../core/errors.ts";
import {
  EDIT_FILE_MAX_DIFF_BYTES,
  EDIT_FILE_MAX_EDITS,
  EDIT_FILE_MAX_FILE_BYTES,
  EDIT_FILE_MAX_INPUT_BYTES,
} from "../core/limits.ts";
import { mapHostError } from "../core/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/normalize_workspace_path.ts";
import { openCheckedFile, readFully } from "../core/open_checked_file.ts";
import { findTolerantMatches, type TextRange } from "../core/tolerant_match.ts";
import { unifiedDiff } from "../core/unified_diff.ts";
import { decodeUtf8Strict, encodeUtf8, utf8ByteLength } from "../core/utf8.ts";
import { sameIdentity } from "../core/workspace.ts";
import {
  type BaseToolOptions,
  beginCall,
  defineTool,
  invalidArguments,
  type Tool,
  workspaceGetter,
  type WorkspaceSource,
} from "./tool.ts";

/** Options of {@link createEditTool}. */
export interface EditToolOptions extends BaseToolOptions {
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`); see `DEFAULT_PROTECTED_PATHS`.
   * @default [] (`createCodingTools` passes the defaults when a `shell` allow list is in force)
   */
  protectedPaths?: readonly string[];
  /** Size of a file that can be edited, in bytes (before and after the edit). @default 1048576 ({@link EDIT_FILE_MAX_FILE_BYTES}) */
  maxFileBytes?: number;
  /** UTF-8 bytes of all `old_string` and `new_string` values of one call. @default 65536 ({@link EDIT_FILE_MAX_INPUT_BYTES}) */
  maxInputBytes?: number;
  /** Edits in one call. @default 64 ({@link EDIT_FILE_MAX_EDITS}) */
  maxEdits?: number;
  /** Bytes of the diff returned; a longer one is cut on a line boundary. @default 32768 ({@link EDIT_FILE_MAX_DIFF_BYTES}) */
  maxDiffBytes?: number;
}

/** One replacement. */
export interface EditOperation {
  /** The text to find (non-empty). */
  oldString: string;
  /** Its replacement. */
  newString: string;
  /** Replace every match instead of requiring exactly one. */
  replaceAll: boolean;
}

/** Arguments of `edit_file` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface EditFileArguments {
  /** Workspace-relative path of the UTF-8 text file to edit. */
  path: string;
  /** Exact text to replace (not empty); use either `old_string`/`new_string` or `edits`. @default undefined */
  old_string?: string;
  /** Replacement text for `old_string`. @default undefined */
  new_string?: string;
  /** Replace every match of `old_string`. @default false */
  replace_all?: boolean;
  /** Several replacements, applied in order, all or nothing. @default undefined */
  edits?: { old_string: string; new_string: string; replace_all?: boolean }[];
  /** Return the diff without writing. @default false */
  dry_run?: boolean;
}

/** Arguments of `edit_file`, validated. */
export interface EditFileInput {
  /** The workspace-relative path, normalized. */
  path: string;
  /** The path's segments. */
  segments: string[];
  /** The edits, applied in order. */
  edits: EditOperation[];
  /** Compute the diff, write nothing. */
  dryRun: boolean;
}

/** Result of `edit_file`. */
export interface EditFileOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** Matches replaced, over all edits. */
  replacements: number;
  /** Whether an edit matched only with the whitespace- and quote-tolerant comparison. */
  fuzzy: boolean;
  /** Whether nothing was written (`dry_run`). */
  dryRun: boolean;
  /** Size of the new content in bytes. */
  bytes: number;
  /** Unified diff of the change (three lines of context). */
  diff: string;
  /** Present and `true` when the diff was longer than the limit and was cut. */
  diffTruncated?: boolean;
}

function editSchema(maxEdits: number) {
  const oldString = z.string().min(1, "must not be empty");
  const edit = z.object({
    old_string: oldString.describe("Exact text to replace"),
    new_string: z.string().describe("Replacement text"),
    replace_all: z.boolean().optional().describe("Replace every match (default: old_string must match exactly once)"),
  }).strict();
  return z.object({
    path: z.string().describe("Workspace-relative path of the UTF-8 text file to edit"),
    old_string: oldString.optional().describe(
      "Exact text to replace, including whitespace; must match once unless replace_all. Use either old_string/new_string or edits",
    ),
    new_string: z.string().optional().describe("Replacement text for old_string"),
    replace_all: z.boolean().optional().describe("Replace every match of old_string (default false)"),
    edits: z.array(edit).min(1).max(maxEdits).optional().describe(
      "Several replacements, applied in order, all or nothing (instead of old_string/new_string)",
    ),
    dry_run: z.boolean().optional().describe("Return the diff without writing (default false)"),
  }).strict();
}

/**
 * Creates `edit_file`: replaces text in a UTF-8 file, by exact match (with a
 * whitespace- and quote-tolerant fallback), atomically, and returns a
 * unified diff.
 *
 * Two forms: `{path, old_string, new_string, replace_all?, dry_run?}`, or
 * `{path, edits: [{old_string, new_string, replace_all?}], dry_run?}` applied
 * in order, each to the result of the previous, all or nothing. An
 * `old_string` must match exactly once unless `replace_all`
 * (`EDIT_NOT_FOUND`, `EDIT_NOT_UNIQUE` naming the lines). When it is not
 * found as given, a tolerant match (indentation, trailing spaces, runs of
 * blanks, curly quotes, dashes) is tried; only the matched range is
 * replaced. A CRLF file stays CRLF (new text included) and a UTF-8 BOM is
 * kept. The file is written through the atomic write, after checking it is
 * still the file that was read.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limits and name.
 * @returns The tool.
 *
 * @example Renaming a function in one file
 * ```ts
 * import { createEditTool } from "@paddock/tools";
 * const edit = createEditTool("./project");
 * const { diff } = await edit.execute({
 *   path: "src/app.ts",
 *   old_string: "function start(",
 *   new_string: "function run(",
 * });
 * ```
 */
export function createEditTool(
  workspace: WorkspaceSource,
  options: EditToolOptions = {},
): Tool<EditFileInput, EditFileOutput, EditFileArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxFileBytes = options.maxFileBytes ?? EDIT_FILE_MAX_FILE_BYTES;
  const protectedPaths = options.protectedPaths ?? [];
  const maxInputBytes = options.maxInputBytes ?? EDIT_FILE_MAX_INPUT_BYTES;
  const maxEdits = options.maxEdits ?? EDIT_FILE_MAX_EDITS;
  const maxDiffBytes = options.maxDiffBytes ?? EDIT_FILE_MAX_DIFF_BYTES;
  return defineTool({
    name: options.name ?? "edit_file",
    description: options.description ??
      "Replace text in a UTF-8 file inside the workspace and return a unified diff. Give old_string (exact text, " +
        "unique in the file unless replace_all) and new_string, or edits: [{old_string, new_string, replace_all?}] " +
        "applied in order, all or nothing. dry_run shows the diff without writing.",
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    schema: editSchema(maxEdits),
    prepare: (args): EditFileInput => {
      const single = args.old_string !== undefined || args.new_string !== undefined || args.replace_all !== undefined;
      if (single === (args.edits !== undefined)) {
        const hint = "give either old_string and new_string (and replace_all), or edits, not both";
        throw invalidArguments(hint);
      }
      let edits: EditOperation[];
      if (args.edits !== undefined) {
        edits = args.edits.map((edit) => ({
          oldString: edit.old_string,
          newString: edit.new_string,
          replaceAll: edit.replace_all ?? false,
        }));
      } else {
        if (args.old_string === undefined || args.new_string === undefined) {
          const hint = `missing property '${args.old_string === undefined ? "old_string" : "new_string"}'`;
          throw invalidArguments(hint);
        }
        edits = [{ oldString: args.old_string, newString: args.new_string, replaceAll: args.replace_all ?? false }];
      }
      for (const [index, edit] of edits.entries()) {
        if (edit.oldString === edit.newString) {
          const hint = `${editLabel(edits, index)}: old_string and new_string are the same`;
          throw invalidArguments(hint);
        }
      }
      // UTF-8 never takes fewer bytes than UTF-16 units, so huge input fails before it is measured.
      const units = edits.reduce((sum, edit) => sum + edit.oldString.length + edit.newString.length, 0);
      if (
        units > maxInputBytes ||
        edits.reduce((sum, edit) => sum + utf8ByteLength(edit.oldString) + utf8ByteLength(edit.newString), 0) >
          maxInputBytes
      ) {
        throw new WorkspaceError("CONTENT_TOO_LARGE", `Edits are larger than ${maxInputBytes} bytes of UTF-8`, {
          hint: `send at most ${maxInputBytes} bytes of old_string and new_string per call`,
        });
      }
      return { path: args.path, segments: normalizeWorkspacePath(args.path), edits, dryRun: args.dry_run ?? false };
    },
    run: async (input, { signal }) => {
      const { ws, display } = await beginCall(getWorkspace, input.segments, signal);

      // 1. Resolve confined (a link to a file inside is followed; one leading out is refused).
      const target = await ws.resolve(input.segments, { action: "edit", display });
      try {
        if (!input.dryRun) assertNotProtected(target.segments, protectedPaths, "edit", display);
        if (target.stat !== null && target.stat.kind === "file" && target.stat.size > maxFileBytes) {
          throw tooLarge(display, `the file has ${target.stat.size} bytes`, maxFileBytes);
        }

        // 2. Read it through a handle whose identity matches the walk.
        const { file, stat } = await openCheckedFile(ws, target, "edit", display);
        let bytes: Uint8Array;
        try {
          // One byte more than fstat reported: getting it means the file grew meanwhile.
          const buffer = new Uint8Array(Math.min(stat.size, maxFileBytes) + 1);
          const length = await readFully(file, buffer, 0, signal);
          if (length > maxFileBytes) {
            throw tooLarge(display, `the file has more than ${maxFileBytes} bytes`, maxFileBytes);
          }
          if (length !== stat.size) throw changedWhile(display, "read");
          bytes = buffer.subarray(0, length);
        } catch (error) {
          throw mapHostError(error, "edit", display);
        } finally {
          await file.close().catch(() => {});
        }

        // 3. Apply every edit in memory; any failure leaves the file untouched.
        const text = decodeUtf8Strict(bytes, display);
        const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
        const before = text.slice(bom.length);
        const { text: after, replacements, fuzzy } = applyEdits(before, input.edits, display);
        const data = encodeUtf8(bom + after);
        if (data.length > maxFileBytes) {
          throw tooLarge(display, `the edited file would have ${data.length} bytes`, maxFileBytes);
        }
        const { diff, truncated } = boundedDiff(display, before, after, maxDiffBytes);

        // 4. Write atomically, refusing if the file changed since it was read.
        if (!input.dryRun) {
          await atomicWrite(ws, target.segments, data, {
            signal,
            display,
            target,
            beforeWrite: (now) => {
              const current = now.stat;
              const unchanged = current !== null && sameIdentity(current, stat) && current.size === stat.size &&
                current.mtimeMs === stat.mtimeMs;
              if (!unchanged) throw changedWhile(display, "edited");
            },
          });
        }
        const output: EditFileOutput = {
          path: display,
          replacements,
          fuzzy,
          dryRun: input.dryRun,
          bytes: data.length,
          diff,
        };
        if (truncated) output.diffTruncated = true;
        return output;
      } finally {
        await target.release();
      }
    },
  });
}

function editLabel(edits: readonly EditOperation[], index: number): string {
  return edits.length === 1 ? "old_string" : `edits[${index}].old_string`;
}

// The file is not the one that was read: the edit would be based on stale text.
function changedWhile(display: string, step: "read" | "edited"): WorkspaceError {
  return new WorkspaceError("PATH_CHANGED", `Cannot edit '${display}': the file changed while it was ${step}`, {
    path: display,
    hint: "read the file again and redo the edit",
  });
}

function tooLarge(display: string, detail: string, maxBytes: number): WorkspaceError {
  return new WorkspaceError("FILE_TOO_LARGE", `Cannot edit '${display}': ${detail}, more than ${maxBytes}`, {
    path: display,
    hint: `edit_file handles files up to ${maxBytes} bytes; use write_file for smaller rewritten parts`,
  });
}

// The file's line ending: CRLF when most line breaks are CRLF, LF when it has
// any other, none for a single line.
function lineEndingOf(text: string): "\r\n" | "\n" | null {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    if (at > 0 && text[at - 1] === "\r") crlf++;
    else lf++;
  }
  if (crlf === 0 && lf === 0) return null;
  return crlf > lf ? "\r\n" : "\n";
}

function withLineEnding(text: string, eol: "\r\n" | "\n" | null): string {
  if (eol === null) return text;
  return eol === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text.replace(/\r\n/g, "\n");
}

function exactMatches(text: string, needle: string): TextRange[] {
  const ranges: TextRange[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    ranges.push({ start: at, end: at + needle.length });
  }
  return ranges;
}

// Line numbers of an ambiguous old_string's matches quoted in EDIT_NOT_UNIQUE.
const SHOWN_MATCH_LINES = 20;

function lineNumbers(text: string, ranges: readonly TextRange[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const { start } of ranges) {
    for (let at = text.indexOf("\n", scanned); at >= 0 && at < start; at = text.indexOf("\n", at + 1)) {
      line++;
      scanned = at + 1;
    }
    lines.push(line);
  }
  return lines;
}

/** Applies `edits` in order to `text`; throws `EDIT_NOT_FOUND` / `EDIT_NOT_UNIQUE`. */
function applyEdits(
  text: string,
  edits: readonly EditOperation[],
  display: string,
): { text: string; replacements: number; fuzzy: boolean } {
  const eol = lineEndingOf(text);
  let replacements = 0;
  let fuzzy = false;
  for (const [index, edit] of edits.entries()) {
    const label = editLabel(edits, index);
    const needle = withLineEnding(edit.oldString, eol);
    const replacement = withLineEnding(edit.newString, eol);
    let ranges = exactMatches(text, needle);
    if (ranges.length === 0) {
      ranges = findTolerantMatches(text, needle);
      if (ranges.length > 0) fuzzy = true;
    }
    if (ranges.length === 0) {
      throw new WorkspaceError("EDIT_NOT_FOUND", `Cannot edit '${display}': ${label} was not found`, {
        path: display,
        hint: "copy old_string from the file's current text, including whitespace; read the file again if it changed" +
          (index > 0 ? " (earlier edits in this call are applied first)" : ""),
      });
    }
    if (ranges.length > 1 && !edit.replaceAll) {
      const lines = lineNumbers(text, ranges);
      const shown = lines.slice(0, SHOWN_MATCH_LINES).join(", ") + (lines.length > SHOWN_MATCH_LINES ? ", …" : "");
      throw new WorkspaceError(
        "EDIT_NOT_UNIQUE",
        `Cannot edit '${display}': ${label} matches ${ranges.length} times (lines ${shown})`,
        {
          path: display,
          hint:
            `include more surrounding lines in ${label} so it matches once, or set replace_all to replace all ${ranges.length}`,
        },
      );
    }
    const parts: string[] = [];
    let from = 0;
    for (const range of ranges) {
      parts.push(text.slice(from, range.start), replacement);
      from = range.end;
    }
    parts.push(text.slice(from));
    text = parts.join("");
    replacements += ranges.length;
  }
  return { text, replacements, fuzzy };
}

function boundedDiff(
  display: string,
  before: string,
  after: string,
  maxBytes: number,
): { diff: string; truncated: boolean } {
  const diff = unifiedDiff(display, before, after);
  if (diff.length <= maxBytes / 4 || utf8ByteLength(diff) <= maxBytes) return { diff, truncated: false };
  let kept = 0;
  let bytes = 0;
  for (let at = diff.indexOf("\n"); at >= 0; at = diff.indexOf("\n", at + 1)) {
    const lineBytes = utf8ByteLength(diff.slice(kept, at + 1));
    if (bytes + lineBytes > maxBytes) break;
    bytes += lineBytes;
    kept = at + 1;
  }
  return { diff: diff.slice(0, kept), truncated: true };
}
