import * as z from "zod";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { protectionFor } from "../core/fs/protection_for.ts";
import { type ReportedKind, toReportedKind } from "../core/fs/reported_kind.ts";
import { rootProtected, WorkspaceError } from "../core/errors.ts";
import { DELETE_PATH_MAX_ENTRIES } from "../core/limits.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";
import { tooMany, TreeRemover } from "./_tree_remover.ts";
import { readTrackerOf } from "../core/fs/read_tracker.ts";
import type { HostStat } from "../host.ts";

/** Options of {@link createDeleteTool}. */
export interface DeleteToolOptions extends BaseToolOptions {
  /** Entries one recursive delete removes at most (the folder itself included). @default 10000 ({@link DELETE_PATH_MAX_ENTRIES}) */
  maxEntries?: number;
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`), replacing what is
   * in force for the workspace; `[]` protects nothing (see `DEFAULT_PROTECTED_PATHS`).
   * @default what is in force for the workspace at each call (`protectedPathsInForce`:
   *   the workspace's own list, and `DEFAULT_PROTECTED_PATHS` while a `shell` with an allow list exists over it)
   */
  protectedPaths?: readonly string[];
  /**
   * Refuse to delete a file the session never read (`FILE_NOT_READ`) or that changed since it was
   * last read (`FILE_CHANGED_SINCE_READ`), as `write_file` refuses to replace one. A link (it holds
   * no text of its own) and a folder (its files are not each read) are not checked.
   * @default false (`createCodingTools` turns it on)
   */
  staleWriteGuard?: boolean;
}

/** Arguments of `delete_path` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface DeletePathArguments {
  /** Workspace-relative path of the file, link or folder to delete. */
  path: string;
  /** Delete a non-empty folder with everything in it. @default false */
  recursive?: boolean;
}

/** Arguments of `delete_path`, validated. */
export interface DeletePathInput {
  /** The workspace-relative path, normalized. */
  path: string;
  /** The path's segments. */
  segments: string[];
  /** Remove a folder with everything in it. */
  recursive: boolean;
}

/** Result of `delete_path`. */
export interface DeletePathOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** What was removed (a link is removed as a link). */
  kind: ReportedKind;
  /** Entries removed (1 for a file or link; a folder counts itself and everything in it). */
  removed: number;
}

const schema = z.object({
  path: z.string().describe("Workspace-relative path of the file, link or folder to delete"),
  recursive: z.boolean().optional().describe("Delete a non-empty folder with everything in it (default false)"),
}).strict();

/**
 * Creates `delete_path` `{path, recursive?}` → `{path, kind, removed}`.
 *
 * A link is removed as a link, never its target. A folder must be empty
 * unless `recursive` (`DIRECTORY_NOT_EMPTY`); a recursive delete walks with
 * lstat and never follows links, counts the entries first and refuses more
 * than `maxEntries` (`TOO_MANY_ENTRIES`) before removing anything, and checks
 * the root, the abort signal and each containing folder's identity before
 * every removal. The workspace root itself is refused
 * (`WORKSPACE_ROOT_PROTECTED`). Every name is removed at the held folder that
 * contains it (see the README's security model).
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limit and name.
 * @returns The tool.
 *
 * @example Deleting a build folder
 * ```ts
 * import { createDeleteTool } from "@paddock/tools";
 * const del = createDeleteTool("./project");
 * await del.execute({ path: "dist", recursive: true });
 * ```
 */
export function createDeleteTool(
  workspace: WorkspaceSource,
  options: DeleteToolOptions = {},
): Tool<DeletePathInput, DeletePathOutput, DeletePathArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxEntries = options.maxEntries ?? DELETE_PATH_MAX_ENTRIES;
  const guarded = options.staleWriteGuard ?? false;
  return defineTool({
    name: options.name ?? "delete_path",
    description: options.description ??
      `Delete a file, link or folder inside the workspace. A link is removed, never its target. A non-empty folder needs recursive: true (at most ${maxEntries} entries).${
        guarded ? " A file must have been read (read_file) since it last changed." : ""
      }`,
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): DeletePathInput => {
      const segments = normalizeWorkspacePath(args.path);
      if (segments.length === 0) throw rootProtected("delete", args.path);
      return { path: args.path, segments, recursive: args.recursive ?? false };
    },
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const target = await workspace.resolve(input.segments, {
        followFinal: false,
        action: "delete",
        display,
        folder: namesFolder(input.path),
      });
      try {
        if (target.name === null || target.stat === null) throw rootProtected("delete", display);
        const protectedPaths = await protectionFor(workspace, options.protectedPaths, signal);
        assertNotProtected(target.segments, protectedPaths, "delete", display);
        const remover = new TreeRemover(workspace, display, signal);
        const { folder, name, stat } = target;
        const tracker = readTrackerOf(workspace);
        if (stat.kind !== "directory") {
          // The stale-write guard, on the file as it is inside its write queue.
          const check = guarded && stat.kind === "file"
            ? (now: HostStat) => tracker.assertCurrent(target.segments, now, "delete", display)
            : undefined;
          await remover.removeEntry(folder, name, stat, undefined, check);
          tracker.forget(target.segments);
          return { path: display, kind: toReportedKind(stat.kind), removed: 1 };
        }
        if (!input.recursive) {
          const entries = await remover.withFolder(folder, name, stat, (held) => remover.list(held));
          if (entries.length > 0) {
            throw new WorkspaceError("DIRECTORY_NOT_EMPTY", `Cannot delete '${display}': the folder is not empty`, {
              path: display,
              hint: "pass recursive: true to delete the folder with everything in it",
            });
          }
          await remover.removeFolder(folder, name, stat);
          tracker.forget(target.segments);
          return { path: display, kind: "directory", removed: 1 };
        }
        // Count first, so that a tree over the limit is refused before anything is removed.
        const total = await remover.withFolder(folder, name, stat, (held) => remover.count(held, maxEntries));
        if (total > maxEntries) throw tooMany(display, maxEntries);
        const removed = await remover.removeTree(folder, name, stat, { left: maxEntries, max: maxEntries });
        tracker.forget(target.segments);
        return { path: display, kind: "directory", removed };
      } finally {
        await target.release();
      }
    },
  });
}
