import * as z from "zod";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { type ReportedKind, toReportedKind } from "../core/fs/reported_kind.ts";
import { rootProtected, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { randomSuffix, TEMP_FILE_PREFIX } from "../core/fs/atomic_write.ts";
import { closeFolder, type Folder } from "../core/fs/folder.ts";
import { DELETE_PATH_MAX_ENTRIES } from "../core/limits.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { stillNamesObject } from "../core/fs/still_names_object.ts";
import { sameIdentity, type Workspace } from "../core/fs/workspace.ts";
import { type HostStat, isHostError } from "../host.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createDeleteTool}. */
export interface DeleteToolOptions extends BaseToolOptions {
  /** Entries one recursive delete removes at most (the folder itself included). @default 10000 ({@link DELETE_PATH_MAX_ENTRIES}) */
  maxEntries?: number;
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`); see `DEFAULT_PROTECTED_PATHS`.
   * @default [] (`createCodingTools` passes the defaults when a `shell` allow list is in force)
   */
  protectedPaths?: readonly string[];
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
  const protectedPaths = options.protectedPaths ?? [];
  return defineTool({
    name: options.name ?? "delete_path",
    description: options.description ??
      `Delete a file, link or folder inside the workspace. A link is removed, never its target. A non-empty folder needs recursive: true (at most ${maxEntries} entries).`,
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    schema,
    prepare: (args): DeletePathInput => {
      const segments = normalizeWorkspacePath(args.path);
      if (segments.length === 0) throw rootProtected("delete", args.path);
      return { path: args.path, segments, recursive: args.recursive ?? false };
    },
    run: async (input, { signal }) => {
      const { workspace: ws, display } = await beginCall(getWorkspace, input.segments, signal);
      const target = await ws.resolve(input.segments, { followFinal: false, action: "delete", display });
      try {
        if (target.name === null || target.stat === null) throw rootProtected("delete", display);
        assertNotProtected(target.segments, protectedPaths, "delete", display);
        const remover = new Remover(ws, display, signal);
        const { folder, name, stat } = target;
        if (stat.kind !== "directory") {
          await remover.removeEntry(folder, name, stat);
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
          return { path: display, kind: "directory", removed: 1 };
        }
        // Count first, so that a tree over the limit is refused before anything is removed.
        const total = await remover.withFolder(folder, name, stat, (held) => remover.count(held, maxEntries));
        if (total > maxEntries) throw tooMany(display, maxEntries);
        const removed = await remover.removeTree(folder, name, stat, { left: maxEntries, max: maxEntries });
        return { path: display, kind: "directory", removed };
      } finally {
        await target.release();
      }
    },
  });
}

function tooMany(display: string, maxEntries: number): WorkspaceError {
  return new WorkspaceError(
    "TOO_MANY_ENTRIES",
    `Cannot delete '${display}': it holds more than ${maxEntries} entries`,
    {
      path: display,
      hint: "delete its subfolders one at a time",
    },
  );
}

// Removes entries one confined step at a time: every name is removed at the
// held folder that contains it, and every folder is entered by opening it at
// its held parent (no-follow), so a swap anywhere above changes nothing.
class Remover {
  constructor(
    private readonly ws: Workspace,
    private readonly display: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private fail(error: unknown): unknown {
    return mapHostError(error, "delete", this.display);
  }

  private changed(): WorkspaceError {
    return new WorkspaceError(
      "PATH_CHANGED",
      `Cannot delete '${this.display}': an entry changed while it was deleted`,
      {
        path: this.display,
      },
    );
  }

  // Before every removal: abort, the root (a workspace moved away stops the
  // delete), the chain (`paths`), and the entry itself still the object that was looked at.
  private async checkStep(folder: Folder, name: string, stat: HostStat): Promise<void> {
    throwIfAborted(this.signal);
    await this.ws.checkRoot();
    await this.ws.confirm(folder);
    if (!(await stillNamesObject(this.ws.host, this.ws.childPath(folder, name), stat, stat.kind))) throw this.changed();
  }

  async removeEntry(folder: Folder, name: string, stat: HostStat): Promise<void> {
    await this.checkStep(folder, name, stat);
    await this.remove(folder, name, stat, (path) => this.ws.host.unlink(path));
  }

  async removeFolder(folder: Folder, name: string, stat: HostStat): Promise<void> {
    await this.checkStep(folder, name, stat);
    await this.remove(folder, name, stat, (path) => this.ws.host.rmdir(path));
  }

  // One removal. At a held folder (`handles`): the name is removed there. On the
  // `paths` route, where a folder above can be swapped between the last check
  // and the removal, the entry is first renamed to a random name in the same
  // folder, the chain and the renamed entry are confirmed, and only that random
  // name is removed: a swap before the rename is undone by renaming back (the
  // outside entry keeps its name), and a swap after it leaves the removal
  // looking for a name that exists nowhere else, so nothing outside is deleted.
  private async remove(
    folder: Folder,
    name: string,
    stat: HostStat,
    remove: (path: string) => Promise<void>,
  ): Promise<void> {
    const path = this.ws.childPath(folder, name);
    if (folder.handle !== null) {
      await remove(path).catch((error) => {
        throw this.fail(error);
      });
      return;
    }
    const aside = this.ws.childPath(folder, `${TEMP_FILE_PREFIX}delete-${randomSuffix()}`);
    await this.ws.host.rename(path, aside).catch((error) => {
      throw this.fail(error);
    });
    try {
      await this.ws.confirm(folder);
      if (!(await stillNamesObject(this.ws.host, aside, stat, stat.kind))) throw this.changed();
    } catch (error) {
      await this.ws.host.rename(aside, path).catch(() => {});
      throw error;
    }
    await remove(aside).catch((error) => {
      throw this.fail(error);
    });
  }

  // Holds the folder `name` at `folder` (it must still be the one looked at) while `use` runs.
  async withFolder<T>(folder: Folder, name: string, stat: HostStat, use: (held: Folder) => Promise<T>): Promise<T> {
    const found = await this.ws.openFolder(folder, name).catch((error) => {
      throw this.fail(error);
    });
    if (found.kind !== "folder") throw this.changed();
    try {
      if (!sameIdentity(found.folder.stat, stat)) throw this.changed();
      return await use(found.folder);
    } finally {
      await closeFolder(found.folder);
    }
  }

  async list(folder: Folder): Promise<string[]> {
    const entries = await this.ws.host.readdir(folder.at).catch((error) => {
      throw this.fail(error);
    });
    await this.ws.confirm(folder);
    return entries.map((entry) => entry.name);
  }

  private async lstatChild(folder: Folder, name: string): Promise<HostStat | null> {
    try {
      return await this.ws.host.lstat(this.ws.childPath(folder, name));
    } catch (error) {
      if (isHostError(error, "ENOENT")) return null; // removed by someone else meanwhile
      throw this.fail(error);
    }
  }

  /** Entries in the tree (the folder included), counting stops past `max`. */
  async count(folder: Folder, max: number, total = 1): Promise<number> {
    for (const name of await this.list(folder)) {
      throwIfAborted(this.signal);
      if (++total > max) return total;
      const stat = await this.lstatChild(folder, name);
      if (stat?.kind === "directory") {
        total = await this.withFolder(folder, name, stat, (held) => this.count(held, max, total));
      }
    }
    return total;
  }

  /** Removes the folder `name` at `parent` and everything in it, never following links; returns the entries removed. */
  async removeTree(
    parent: Folder,
    name: string,
    stat: HostStat,
    budget: { left: number; max: number },
  ): Promise<number> {
    const removed = await this.withFolder(parent, name, stat, async (folder) => {
      let count = 0;
      for (const child of await this.list(folder)) {
        const childStat = await this.lstatChild(folder, child);
        if (childStat === null) continue;
        if (childStat.kind === "directory") {
          count += await this.removeTree(folder, child, childStat, budget);
        } else {
          if (--budget.left < 0) throw tooMany(this.display, budget.max); // entries appeared meanwhile
          await this.removeEntry(folder, child, childStat);
          count++;
        }
      }
      return count;
    });
    if (--budget.left < 0) throw tooMany(this.display, budget.max); // entries appeared meanwhile
    await this.removeFolder(parent, name, stat);
    return removed + 1;
  }
}
