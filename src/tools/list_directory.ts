import { isPrivateEntry } from "../core/fs/private_paths.ts";
import * as z from "zod";
import { type ReportedKind, toReportedKind } from "../core/fs/reported_kind.ts";
import { throwIfAborted } from "../core/errors.ts";
import { LIST_DIRECTORY_MAX_ENTRIES } from "../core/limits.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { resolveFolder } from "../core/fs/resolve_folder.ts";
import type { EntryKind } from "../host.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createListDirectoryTool}. */
export interface ListDirectoryToolOptions extends BaseToolOptions {
  /** Entries returned at most (the default and the ceiling of `limit`). @default 500 ({@link LIST_DIRECTORY_MAX_ENTRIES}) */
  maxEntries?: number;
}

/** Arguments of `list_directory` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface ListDirectoryArguments {
  /** Workspace-relative folder to list. @default "." */
  path?: string;
  /** Entries returned at most. @default the tool's `maxEntries` */
  limit?: number;
}

/** Arguments of `list_directory`, validated. */
export interface ListDirectoryInput {
  /** The normalized segments of the folder. */
  segments: string[];
  /** Entries returned at most. */
  limit: number;
}

/** One entry of a listing. */
export interface ListedEntry {
  /** Its name (one segment). */
  name: string;
  /** What it is, links not followed: a link is `symlink`, whatever it points to. */
  kind: ReportedKind;
  /** Size in bytes, for a regular file only. */
  size?: number;
}

/** Result of `list_directory`. */
export interface ListDirectoryOutput {
  /** The folder, workspace-relative (normalized, `.` for the root). */
  path: string;
  /** Entries sorted by name, at most `limit`. */
  entries: ListedEntry[];
  /** How many entries the folder holds in all (private ones not counted). */
  total: number;
  /** Whether entries were left out because of the limit. */
  truncated: boolean;
  /** Present when private entries (`WorkspaceOptions.privatePaths`) were left out: how many. */
  privateLeftOut?: number;
}

const schema = z.object({
  path: z.string().optional().describe("Workspace-relative folder to list; default '.' (the workspace root)"),
  limit: z.number().int().positive().optional().describe("Entries returned at most"),
}).strict();

/**
 * Creates `list_directory` `{path?, limit?}` → `{path, entries, total,
 * truncated}`: the entries of one folder inside the workspace, sorted by
 * name, each with its kind (`file`, `directory`, `symlink`, `other`) and a
 * regular file's size.
 *
 * The folder is resolved confined (a link to a folder inside is listed, a
 * link leading out is refused). Entries are never followed: a link is listed
 * as `symlink` and where it points is neither resolved nor shown.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limit and name.
 * @returns The tool.
 *
 * @example Listing a folder
 * ```ts
 * import { createListDirectoryTool } from "@paddock/tools";
 * const list = createListDirectoryTool("./project");
 * const { entries } = await list.execute({ path: "src" });
 * ```
 */
export function createListDirectoryTool(
  workspace: WorkspaceSource,
  options: ListDirectoryToolOptions = {},
): Tool<ListDirectoryInput, ListDirectoryOutput, ListDirectoryArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxEntries = options.maxEntries ?? LIST_DIRECTORY_MAX_ENTRIES;
  return defineTool({
    name: options.name ?? "list_directory",
    description: options.description ??
      `List a folder inside the workspace: names sorted, with kind (file, directory, symlink, other) and file sizes. Links are shown, not followed. At most ${maxEntries} entries.`,
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args) => ({
      segments: normalizeWorkspacePath(args.path ?? "."),
      limit: Math.min(args.limit ?? maxEntries, maxEntries),
    }),
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const held = await resolveFolder(workspace, input.segments, {
        action: "list",
        display,
        hint: "use read_file for a file",
      });
      try {
        const folder = held.folder;
        let listing = await workspace.host.readdir(folder.at).catch((error) => {
          throw mapHostError(error, "list", display);
        });
        // `paths` route: the folder must still be the one the walk checked (not swapped for a link meanwhile).
        await workspace.confirm(folder);
        // Private entries are left out before anything else is counted; how many is said.
        const privatePaths = workspace.privatePaths ?? [];
        const shownNames = privatePaths.length === 0
          ? listing
          : listing.filter((entry) => !isPrivateEntry(folder.segments, entry.name, privatePaths));
        const privateLeftOut = listing.length - shownNames.length;
        listing = shownNames;
        listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
        const entries: ListedEntry[] = [];
        for (const entry of listing.slice(0, input.limit)) {
          throwIfAborted(signal);
          let kind: EntryKind = entry.kind;
          let size: number | undefined;
          if (kind === "file" || kind === "other") {
            // lstat at the held folder, never stat: a size or kind is never taken through a link.
            const stat = await workspace.host.lstat(workspace.childPath(folder, entry.name)).catch(() => null);
            if (stat !== null) {
              kind = stat.kind;
              if (kind === "file") size = stat.size;
            }
          }
          entries.push(
            size === undefined ? { name: entry.name, kind: toReportedKind(kind) } : {
              name: entry.name,
              kind: "file",
              size,
            },
          );
        }
        await workspace.confirm(folder);
        const listed: ListDirectoryOutput = {
          path: display,
          entries,
          total: listing.length,
          truncated: listing.length > entries.length,
        };
        if (privateLeftOut > 0) listed.privateLeftOut = privateLeftOut;
        return listed;
      } finally {
        await held.release();
      }
    },
  });
}
