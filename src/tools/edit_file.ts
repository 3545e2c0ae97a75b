import * as z from "zod";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { protectionFor } from "../core/fs/protection_for.ts";
import { applyEdits, editLabel, type EditOperation } from "../core/text/apply_edits.ts";
import { atomicWrite } from "../core/fs/atomic_write.ts";
import { currentOrSeenLines, readTrackerOf, type SeenLines } from "../core/fs/read_tracker.ts";
import { type ChangedLines, checkRegions } from "../core/fs/region_guard.ts";
import { WorkspaceError } from "../core/errors.ts";
import {
  EDIT_FILE_MAX_DIFF_BYTES,
  EDIT_FILE_MAX_EDITS,
  EDIT_FILE_MAX_FILE_BYTES,
  EDIT_FILE_MAX_INPUT_BYTES,
} from "../core/limits.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { openCheckedFile, readFully } from "../core/fs/open_checked_file.ts";
import { unifiedDiff } from "../core/text/unified_diff.ts";
import { utf8ByteLength } from "../core/text/utf8.ts";
import { decodeText } from "../core/text/decode_text.ts";
import { encodeText } from "../core/text/encode_text.ts";
import { TEXT_ENCODINGS, type TextEncodingName } from "../core/text/text_form.ts";
import { sameIdentity } from "../core/fs/workspace.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { invalidArguments } from "./parse_arguments.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createEditTool}. */
export interface EditToolOptions extends BaseToolOptions {
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`), replacing what is
   * in force for the workspace; `[]` protects nothing (see `DEFAULT_PROTECTED_PATHS`).
   * @default what is in force for the workspace at each call (`protectedPathsInForce`:
   *   the workspace's own list, and `DEFAULT_PROTECTED_PATHS` while a `shell` with an allow list exists over it)
   */
  protectedPaths?: readonly string[];
  /**
   * Refuse to edit a file the session never read (`FILE_NOT_READ`) or that changed since it was
   * last read (`FILE_CHANGED_SINCE_READ`). A dry run is never refused.
   * @default false (`createCodingTools` turns it on)
   */
  staleWriteGuard?: boolean;
  /** Size of a file that can be edited, in bytes (before and after the edit). @default 1048576 ({@link EDIT_FILE_MAX_FILE_BYTES}) */
  maxFileBytes?: number;
  /** UTF-8 bytes of all `old_string` and `new_string` values of one call. @default 65536 ({@link EDIT_FILE_MAX_INPUT_BYTES}) */
  maxInputBytes?: number;
  /** Edits in one call. @default 64 ({@link EDIT_FILE_MAX_EDITS}) */
  maxEdits?: number;
  /** Bytes of the diff returned; a longer one is cut on a line boundary. @default 32768 ({@link EDIT_FILE_MAX_DIFF_BYTES}) */
  maxDiffBytes?: number;
}

export type { EditOperation };

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
  /** The file's encoding, when it cannot be detected. @default undefined (detected: see `decodeText`) */
  encoding?: TextEncodingName;
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
  /** The encoding asked for, if any. */
  encoding?: TextEncodingName;
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
  /** The file's encoding, when it is not UTF-8 (the edit was written back in it). */
  encoding?: TextEncodingName;
  /**
   * With the stale-write guard, when the file changed since it was read outside the edit's region: those
   * lines as they are now (the edit went through, its region being as read).
   */
  changedSinceRead?: ChangedLines[];
  /** Present and `true` when `changedSinceRead` was cut at `STALE_WRITE_MAX_SHOWN_LINES` lines. */
  changedSinceReadTruncated?: boolean;
  /** With `fuzzy`: what the match tolerated (`indentation`, `whitespace`, `lookalikes`, joined with `+`). */
  tolerance?: string;
  /**
   * Present and `true` when every edit was already in place (its `old_string` gone, its `new_string` there):
   * nothing was written (a replayed call).
   */
  alreadyApplied?: boolean;
  /** Edits of the call skipped as already in place, when others were applied. */
  alreadyAppliedEdits?: number;
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
    encoding: z.enum(TEXT_ENCODINGS as [TextEncodingName, ...TextEncodingName[]]).optional().describe(
      "The file's encoding, only when it cannot be detected (default: detected; the file is written back in it)",
    ),
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
 * replaced, and the replacement takes the file's indentation. A CRLF file
 * stays CRLF (new text included); the file's encoding and BOM are kept (a
 * character it cannot hold is refused). A replayed edit (old text gone, new
 * text there) writes nothing and says `alreadyApplied`. With the stale-write
 * guard, a file changed since its read is checked on the edit's region only.
 * The file is written through the atomic write, after checking it is still
 * the file that was read.
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
  const maxInputBytes = options.maxInputBytes ?? EDIT_FILE_MAX_INPUT_BYTES;
  const maxEdits = options.maxEdits ?? EDIT_FILE_MAX_EDITS;
  const maxDiffBytes = options.maxDiffBytes ?? EDIT_FILE_MAX_DIFF_BYTES;
  const guarded = options.staleWriteGuard ?? false;
  return defineTool({
    name: options.name ?? "edit_file",
    description: options.description ??
      "Replace text in a UTF-8 file inside the workspace and return a unified diff. Give old_string (exact text, " +
        "unique in the file unless replace_all) and new_string, or edits: [{old_string, new_string, replace_all?}] " +
        "applied in order, all or nothing. dry_run shows the diff without writing.",
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
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
      const input: EditFileInput = {
        path: args.path,
        segments: normalizeWorkspacePath(args.path),
        edits,
        dryRun: args.dry_run ?? false,
      };
      if (args.encoding !== undefined) input.encoding = args.encoding;
      return input;
    },
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);

      // 1. Resolve confined (a link to a file inside is followed; one leading out is refused).
      const target = await workspace.resolve(input.segments, {
        action: "edit",
        display,
        folder: namesFolder(input.path),
      });
      try {
        const protectedPaths = await protectionFor(workspace, options.protectedPaths, signal);
        if (!input.dryRun) assertNotProtected(target.segments, protectedPaths, "edit", display);
        if (target.stat !== null && target.stat.kind === "file" && target.stat.size > maxFileBytes) {
          throw tooLarge(display, `the file has ${target.stat.size} bytes`, maxFileBytes);
        }

        // 2. Read it through a handle whose identity matches the walk.
        const { file, stat } = await openCheckedFile(workspace, target, "edit", display);
        const tracker = readTrackerOf(workspace);
        // The stale-write guard, on the handle's own stat; the write below refuses any other version. A file
        // changed since its read, whose read lines are remembered, is checked on the edit's region in step 3.
        let seenLines: SeenLines | undefined;
        if (guarded && !input.dryRun) {
          try {
            seenLines = currentOrSeenLines(tracker, target.segments, stat, "edit", display);
          } catch (error) {
            await file.close().catch(() => {});
            throw error;
          }
        }
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
        // The file's own encoding and BOM, written back as they were; a character it cannot hold is refused.
        const { text: before, form } = decodeText(bytes, { display, action: "edit", encoding: input.encoding });
        const { text: after, replacements, fuzzy, tolerance, alreadyApplied } = applyEdits(
          before,
          input.edits,
          display,
        );
        if (alreadyApplied === input.edits.length) {
          // A replayed edit: every old_string is gone and its new_string there. Nothing is written.
          return {
            path: display,
            replacements: 0,
            fuzzy: false,
            dryRun: input.dryRun,
            bytes: bytes.length,
            diff: "",
            alreadyApplied: true,
          };
        }
        // The region check: every line the edit replaces must be as read; the changes elsewhere are reported.
        const elsewhere = seenLines === undefined ? undefined : checkRegions(seenLines, before, after, "edit", display);
        const data = encodeText(after, form, { display, action: "edit" });
        if (data.length > maxFileBytes) {
          throw tooLarge(display, `the edited file would have ${data.length} bytes`, maxFileBytes);
        }
        const { diff, truncated } = boundedDiff(display, before, after, maxDiffBytes);

        // 4. Write atomically, refusing if the file changed since it was read.
        if (!input.dryRun) {
          const written = await atomicWrite(workspace, target.segments, data, {
            signal,
            display,
            target,
            protectedPaths,
            action: "edit",
            sameVersion: true,
            statWritten: true,
            beforeWrite: (now) => {
              const current = now.stat;
              const unchanged = current !== null && sameIdentity(current, stat) && current.size === stat.size &&
                current.mtimeMs === stat.mtimeMs;
              if (!unchanged) throw changedWhile(display, "edited");
            },
          });
          // A file the agent edited counts as read, whole.
          if (written.stat !== undefined) {
            tracker.record(written.segments, written.stat, { first: 1, text: after, complete: true });
          }
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
        if (form.encoding !== "utf-8") output.encoding = form.encoding;
        if (tolerance !== undefined) output.tolerance = tolerance;
        if (alreadyApplied > 0) output.alreadyAppliedEdits = alreadyApplied;
        if (elsewhere !== undefined && elsewhere.changed.length > 0) {
          output.changedSinceRead = elsewhere.changed;
          if (elsewhere.truncated) output.changedSinceReadTruncated = true;
        }
        return output;
      } finally {
        await target.release();
      }
    },
  });
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
