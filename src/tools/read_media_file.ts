import * as z from "zod";
import { encodeBase64 } from "../core/text/encode_base64.ts";
import { WorkspaceError } from "../core/errors.ts";
import { READ_MEDIA_FILE_MAX_BYTES } from "../core/limits.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { openCheckedFile, readFully } from "../core/fs/open_checked_file.ts";
import { sniffMediaType } from "../core/text/sniff_media_type.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createReadMediaFileTool}. */
export interface ReadMediaFileToolOptions extends BaseToolOptions {
  /** Bytes of a file read at most; a larger one is `FILE_TOO_LARGE`, unread. @default 4194304 ({@link READ_MEDIA_FILE_MAX_BYTES}) */
  maxBytes?: number;
}

/** Arguments of `read_media_file` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface ReadMediaFileArguments {
  /** Workspace-relative path of an image or audio file. */
  path: string;
}

/** Arguments of `read_media_file`, validated. */
export interface ReadMediaFileInput {
  /** The normalized segments of the file. */
  segments: string[];
  /** The path as given ended in `/`: it must name a folder (a file is then NOT_A_DIRECTORY). @default false */
  folder?: boolean;
}

/** Result of `read_media_file`. */
export interface ReadMediaFileOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** `image` or `audio`: the MCP content type it is served as. */
  kind: "image" | "audio";
  /** The MIME type, sniffed from the bytes (never from the name). */
  mimeType: string;
  /** The file's size in bytes. */
  bytes: number;
  /** The file's bytes, base64 (RFC 4648, padded). */
  data: string;
}

const schema = z.object({
  path: z.string().describe("Workspace-relative path of an image or audio file, e.g. 'docs/logo.png'"),
}).strict();

/**
 * Creates `read_media_file` `{path}` → `{path, kind, mimeType, bytes, data}`:
 * reads an image or audio file inside the workspace as base64, with its MIME
 * type taken from its leading bytes (PNG, JPEG, GIF, WebP, BMP, TIFF, ICO,
 * AVIF, HEIC; WAV, AIFF, FLAC, Ogg, MP3, AAC, M4A, MIDI). Anything else is
 * `UNSUPPORTED_MEDIA_TYPE`, whatever its name says. The MCP server sends the
 * result as MCP `image` / `audio` content.
 *
 * The file is resolved by the confined walk and opened at its held folder
 * (no-follow, non-blocking, the identity the walk checked); a file over
 * `maxBytes` is refused from its size without being read.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Size limit and name.
 * @returns The tool.
 *
 * @example Reading a picture
 * ```ts
 * import { createReadMediaFileTool } from "@paddock/tools";
 * const readMedia = createReadMediaFileTool("./project");
 * const { mimeType, data } = await readMedia.execute({ path: "docs/logo.png" });
 * ```
 */
export function createReadMediaFileTool(
  workspace: WorkspaceSource,
  options: ReadMediaFileToolOptions = {},
): Tool<ReadMediaFileInput, ReadMediaFileOutput, ReadMediaFileArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxBytes = options.maxBytes ?? READ_MEDIA_FILE_MAX_BYTES;
  return defineTool({
    name: options.name ?? "read_media_file",
    description: options.description ??
      `Read an image or audio file inside the workspace (at most ${maxBytes} bytes); returns it base64 with its MIME type, which is taken from the bytes, not the name.`,
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): ReadMediaFileInput => ({
      segments: normalizeWorkspacePath(args.path),
      folder: namesFolder(args.path),
    }),
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const target = await workspace.resolve(input.segments, { action: "read", display, folder: input.folder });
      try {
        if (target.stat !== null && target.stat.kind === "file" && target.stat.size > maxBytes) {
          throw tooLarge(display, target.stat.size, maxBytes);
        }
        const { file, stat } = await openCheckedFile(workspace, target, "read", display);
        try {
          // One byte more than allowed: getting it means the file grew past the limit.
          const buffer = new Uint8Array(Math.min(stat.size === 0 ? maxBytes : stat.size, maxBytes) + 1);
          const length = await readFully(file, buffer, 0, signal);
          if (length > maxBytes) throw tooLarge(display, length, maxBytes);
          const bytes = buffer.subarray(0, length);
          const media = sniffMediaType(bytes.subarray(0, 16));
          if (media === undefined) {
            throw new WorkspaceError(
              "UNSUPPORTED_MEDIA_TYPE",
              `Cannot read '${display}' as media: its bytes are not a known image or audio format`,
              { path: display, hint: "use read_file for a text file" },
            );
          }
          return {
            path: display,
            kind: media.kind,
            mimeType: media.mimeType,
            bytes: length,
            data: encodeBase64(bytes),
          };
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
    { path: display },
  );
}
