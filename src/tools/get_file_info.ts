import * as z from "zod";
import { type ReportedKind, toReportedKind } from "../core/fs/reported_kind.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createFileInfoTool}. */
export type FileInfoToolOptions = BaseToolOptions;

/** Arguments of `get_file_info` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface FileInfoArguments {
  /** Workspace-relative path of a file or folder. @default "." */
  path?: string;
}

/** Arguments of `get_file_info`, validated. */
export interface FileInfoInput {
  /** The normalized segments. */
  segments: string[];
  /** The path as given ended in `/`: it must name a folder. @default false */
  folder?: boolean;
}

/** Result of `get_file_info`. */
export interface FileInfoOutput {
  /** The path as asked for, workspace-relative (normalized, `.` for the root). */
  path: string;
  /** Where a link on the path led, workspace-relative; only when it differs from `path`. */
  resolvedPath?: string;
  /** What it is (after following links confined): `file`, `directory` or `other` (FIFO, socket, device). */
  kind: ReportedKind;
  /** Size in bytes, for a regular file only. */
  size?: number;
  /** Last modification, ISO 8601 (UTC). */
  modified: string;
  /** Creation time, ISO 8601 (UTC), where the filesystem records it. */
  created?: string;
  /** Permission bits as four octal digits, e.g. `0644`. */
  mode: string;
  /** The same as `ls -l` shows them, e.g. `rw-r--r--`. */
  permissions: string;
}

const schema = z.object({
  path: z.string().optional().describe("Workspace-relative path of a file or folder; default '.' (the workspace root)"),
}).strict();

/**
 * Creates `get_file_info` `{path?}` → `{path, kind, size?, modified,
 * created?, mode, permissions}`: metadata of one file or folder inside the
 * workspace, after following links confined (a link inside is described by
 * its target, named in `resolvedPath`; a link leading out is refused).
 *
 * The object is `lstat`ed at the folder the confined walk holds. The answer
 * names no host path and no device or inode number, only what a model can use.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Name and description.
 * @returns The tool.
 *
 * @example Asking about a file
 * ```ts
 * import { createFileInfoTool } from "@paddock/tools";
 * const info = createFileInfoTool("./project");
 * const { kind, size, modified } = await info.execute({ path: "package.json" });
 * ```
 */
export function createFileInfoTool(
  workspace: WorkspaceSource,
  options: FileInfoToolOptions = {},
): Tool<FileInfoInput, FileInfoOutput, FileInfoArguments> {
  const getWorkspace = workspaceGetter(workspace);
  return defineTool({
    name: options.name ?? "get_file_info",
    description: options.description ??
      "Get information about a file or folder inside the workspace: kind, size, modification and creation times, permissions. Links are followed inside the workspace only.",
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): FileInfoInput => ({
      segments: normalizeWorkspacePath(args.path ?? "."),
      folder: namesFolder(args.path ?? "."),
    }),
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const target = await workspace.resolve(input.segments, { action: "examine", display, folder: input.folder });
      try {
        // resolve() requires the object to exist, and its lstat was taken at the held folder.
        const stat = target.stat!;
        const resolved = target.segments.join("/") || ".";
        const permissions = stat.mode & 0o7777;
        const output: FileInfoOutput = {
          path: display,
          ...(resolved === display ? {} : { resolvedPath: resolved }),
          kind: toReportedKind(stat.kind),
          ...(stat.kind === "file" ? { size: stat.size } : {}),
          modified: new Date(stat.mtimeMs).toISOString(),
          ...(stat.birthtimeMs !== undefined && stat.birthtimeMs > 0
            ? { created: new Date(stat.birthtimeMs).toISOString() }
            : {}),
          mode: permissions.toString(8).padStart(4, "0"),
          permissions: symbolic(permissions),
        };
        await workspace.confirm(target.folder);
        return output;
      } finally {
        await target.release();
      }
    },
  });
}

// `rwxr-xr-x` for 0o755, with setuid/setgid/sticky shown as `ls` does (s, S, t, T).
function symbolic(mode: number): string {
  const triple = (bits: number, special: boolean, mark: string): string =>
    (bits & 4 ? "r" : "-") + (bits & 2 ? "w" : "-") +
    (special ? (bits & 1 ? mark : mark.toUpperCase()) : bits & 1 ? "x" : "-");
  return triple((mode >> 6) & 7, (mode & 0o4000) !== 0, "s") + triple((mode >> 3) & 7, (mode & 0o2000) !== 0, "s") +
    triple(mode & 7, (mode & 0o1000) !== 0, "t");
}
