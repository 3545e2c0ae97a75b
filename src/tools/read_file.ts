import * as z from "zod";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { READ_FILE_MAX_BYTES } from "../core/limits.ts";
import { mapHostError } from "../core/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/normalize_workspace_path.ts";
import { decodeUtf8Strict } from "../core/utf8.ts";
import { sameIdentity } from "../core/workspace.ts";
import { type BaseToolOptions, defineTool, type Tool, workspaceGetter, type WorkspaceSource } from "./tool.ts";

/** Options of {@link createReadTool}. */
export interface ReadToolOptions extends BaseToolOptions {
  /** Bytes of content returned at most; a larger file is `FILE_TOO_LARGE`. @default 65536 ({@link READ_FILE_MAX_BYTES}) */
  maxBytes?: number;
}

/** Arguments of `read_file`. */
export interface ReadFileInput {
  /** The workspace-relative path as given. */
  path: string;
  /** Its normalized segments. */
  segments: string[];
}

/** Result of `read_file`. */
export interface ReadFileOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** The whole file, decoded as strict UTF-8. */
  content: string;
  /** Its size in bytes. */
  bytes: number;
}

const schema = z.object({
  path: z.string().describe("Workspace-relative path of a UTF-8 text file, e.g. 'src/index.ts'"),
}).strict();

/**
 * Creates `read_file` `{path}` → `{path, content, bytes}`: reads a regular
 * UTF-8 file inside the workspace.
 *
 * The handle opened must be the object the confined walk checked (dev, ino);
 * at most `maxBytes + 1` bytes are read, so a larger file is refused without
 * loading it; a FIFO, socket or device is refused without blocking.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limit and name.
 * @returns The tool.
 *
 * @example Reading a file
 * ```ts
 * import { createReadTool } from "@paddock/tools";
 * const read = createReadTool("./project");
 * const { content } = await read.execute({ path: "README.md" });
 * ```
 */
export function createReadTool(
  workspace: WorkspaceSource,
  options: ReadToolOptions = {},
): Tool<ReadFileInput, ReadFileOutput> {
  const getWorkspace = workspaceGetter(workspace);
  const maxBytes = options.maxBytes ?? READ_FILE_MAX_BYTES;
  return defineTool({
    name: options.name ?? "read_file",
    description: options.description ??
      `Read a UTF-8 text file inside the workspace. Paths are relative to the workspace root; files over ${maxBytes} bytes are refused.`,
    readOnly: true,
    schema,
    prepare: (args) => ({ path: args.path, segments: normalizeWorkspacePath(args.path) }),
    run: async (input, { signal }) => {
      const ws = await getWorkspace();
      const display = input.segments.join("/") || ".";
      throwIfAborted(signal);
      await ws.checkRoot();
      const target = await ws.resolve(input.segments, { action: "read", display });
      const checked = target.stat;
      if (checked === null || checked.kind !== "file") {
        const detail = checked?.kind === "directory" ? "it is a folder" : "it is not a regular file";
        throw new WorkspaceError("NOT_A_FILE", `Cannot read '${display}': ${detail}`, { path: display });
      }
      if (checked.size > maxBytes) throw tooLarge(display, checked.size, maxBytes);
      // Non-blocking and no-follow: a FIFO or link swapped in after the walk
      // cannot stall or redirect the open; the identity check catches the rest.
      const file = await ws.host.open(target.hostPath, { read: true, noFollow: true, nonBlocking: true })
        .catch((error) => {
          throw mapHostError(error, "read", display);
        });
      try {
        const opened = await file.stat();
        if (opened.kind !== "file" || !sameIdentity(opened, checked)) {
          throw new WorkspaceError("PATH_CHANGED", `Cannot read '${display}': the file changed while it was opened`, {
            path: display,
          });
        }
        // Read one byte more than allowed: getting it means the file is too large.
        const buffer = new Uint8Array(maxBytes + 1);
        let length = 0;
        // Stop at the size fstat reported (a file growing meanwhile is read as it
        // was then); past the limit, the extra byte tells a larger file.
        const expected = Math.min(opened.size, maxBytes) + (opened.size > maxBytes ? 1 : 0);
        while (length < buffer.length && (length < expected || opened.size === 0)) {
          throwIfAborted(signal);
          const count = await file.read(buffer.subarray(length), length);
          if (count === 0) break;
          length += count;
        }
        if (length > maxBytes) throw tooLarge(display, Math.max(opened.size, length), maxBytes);
        return { path: display, content: decodeUtf8Strict(buffer.subarray(0, length), display), bytes: length };
      } catch (error) {
        throw mapHostError(error, "read", display);
      } finally {
        await file.close().catch(() => {});
      }
    },
  });
}

function tooLarge(display: string, size: number, maxBytes: number): WorkspaceError {
  return new WorkspaceError("FILE_TOO_LARGE", `Cannot read '${display}': the file has ${size} bytes, more than ${maxBytes}`, {
    path: display,
    hint: "read a smaller file, or use a tool that reads part of a file",
  });
}
