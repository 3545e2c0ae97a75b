import * as z from "zod";
import { atomicWrite } from "../core/fs/atomic_write.ts";
import { readTrackerOf } from "../core/fs/read_tracker.ts";
import { WorkspaceError } from "../core/errors.ts";
import { WRITE_FILE_MAX_BYTES } from "../core/limits.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { utf8ByteLength } from "../core/text/utf8.ts";
import { encodeText } from "../core/text/encode_text.ts";
import { TEXT_ENCODINGS, type TextEncodingName } from "../core/text/text_form.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createWriteTool}. */
export interface WriteToolOptions extends BaseToolOptions {
  /** UTF-8 bytes of content accepted at most. @default 65536 ({@link WRITE_FILE_MAX_BYTES}) */
  maxBytes?: number;
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`), replacing what is
   * in force for the workspace; `[]` protects nothing (see `DEFAULT_PROTECTED_PATHS`).
   * @default what is in force for the workspace at each call (`protectedPathsInForce`:
   *   the workspace's own list, and `DEFAULT_PROTECTED_PATHS` while a `shell` with an allow list exists over it)
   */
  protectedPaths?: readonly string[];
  /**
   * Refuse to replace an existing file the session never read (`FILE_NOT_READ`) or that changed
   * since it was last read (`FILE_CHANGED_SINCE_READ`); creating a new file needs no read.
   * @default false (`createCodingTools` turns it on)
   */
  staleWriteGuard?: boolean;
}

/** Arguments of `write_file` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface WriteFileArguments {
  /** Workspace-relative path of the file to create or replace. */
  path: string;
  /** The complete new content. */
  content: string;
  /**
   * The encoding to write: UTF-16 is written with a byte order mark, the others without.
   * @default "utf-8"
   */
  encoding?: TextEncodingName;
}

/** Arguments of `write_file`, validated. */
export interface WriteFileInput {
  /** The workspace-relative path, normalized. */
  path: string;
  /** The path's segments. */
  segments: string[];
  /** The content's bytes, in the encoding asked for. */
  data: Uint8Array;
  /** The content, remembered by the stale-write guard as read once written. @default undefined */
  content?: string;
}

/** Result of `write_file`. */
export interface WriteFileOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** Bytes written. */
  bytes: number;
}

const schema = z.object({
  path: z.string().describe("Workspace-relative path of the file to create or replace, e.g. 'src/index.ts'"),
  content: z.string().describe("The complete new content"),
  encoding: z.enum(TEXT_ENCODINGS as [TextEncodingName, ...TextEncodingName[]]).optional().describe(
    "The encoding to write (default utf-8); give the one read_file reported to keep a file's encoding",
  ),
}).strict();

/**
 * Checks that `content` fits in `maxBytes` of UTF-8 without encoding more than needed, then encodes it.
 * @throws {WorkspaceError} `CONTENT_TOO_LARGE`; `UNREPRESENTABLE_CHARACTER`.
 */
function encodeBoundedContent(
  content: string,
  maxBytes: number,
  encoding: TextEncodingName,
  display: string,
): Uint8Array {
  // UTF-8 never takes fewer bytes than UTF-16 units, so a long string fails fast; nor more than three per
  // unit, so a string of up to a third of the bound is not counted at all.
  if (content.length > maxBytes || (content.length * 3 > maxBytes && utf8ByteLength(content) > maxBytes)) {
    throw new WorkspaceError("CONTENT_TOO_LARGE", `Content is larger than ${maxBytes} bytes of UTF-8`, {
      hint:
        `write_file takes at most ${
          maxBytes.toLocaleString("en-US")
        } bytes of UTF-8 per call: write the file in parts, ` +
        "the first with write_file, then each next part with edit_file (old_string: the file's last lines, " +
        "new_string: those lines followed by the part)",
    });
  }
  return encodeText(content, { encoding, bom: encoding.startsWith("utf-16") }, { display });
}

/**
 * Creates `write_file` `{path, content}` → `{path, bytes}`: creates or
 * replaces a file atomically. Missing folders are created one confined step
 * at a time; writing through a link to a file inside the workspace updates
 * that file and keeps the link; an existing file keeps its permission bits.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limit and name.
 * @returns The tool.
 *
 * @example Writing a file
 * ```ts
 * import { createWriteTool } from "@paddock/tools";
 * const write = createWriteTool("./project");
 * await write.execute({ path: "notes/todo.md", content: "- ship it\n" });
 * ```
 */
export function createWriteTool(
  workspace: WorkspaceSource,
  options: WriteToolOptions = {},
): Tool<WriteFileInput, WriteFileOutput, WriteFileArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxBytes = options.maxBytes ?? WRITE_FILE_MAX_BYTES;
  const guarded = options.staleWriteGuard ?? false;
  return defineTool({
    name: options.name ?? "write_file",
    description: options.description ??
      `Create or replace a text file inside the workspace (atomic; missing folders are created). At most ${maxBytes} bytes. Written as UTF-8 unless encoding is given.`,
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): WriteFileInput => ({
      path: args.path,
      segments: normalizeWorkspacePath(args.path),
      data: encodeBoundedContent(args.content, maxBytes, args.encoding ?? "utf-8", args.path),
      content: args.content,
    }),
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      // The protected paths are checked by atomicWrite, before any folder is created and through links.
      const tracker = readTrackerOf(workspace);
      const written = await atomicWrite(workspace, input.segments, input.data, {
        signal,
        display,
        rootChecked: true,
        protectedPaths: options.protectedPaths,
        folder: namesFolder(input.path),
        // The stale-write guard, on the stat taken inside the write's lock; the re-check
        // before the rename then requires that same version (size, mtime), not only the inode.
        beforeWrite: (target) => {
          if (guarded && target.stat !== null) tracker.assertCurrent(target.segments, target.stat, "write", display);
        },
        sameVersion: guarded,
        statWritten: true,
      });
      // A file the agent wrote counts as read, whole.
      const shown = input.content === undefined ? undefined : { first: 1, text: input.content, complete: true };
      if (written.stat !== undefined) tracker.record(written.segments, written.stat, shown);
      return { path: display, bytes: input.data.length };
    },
  });
}
