import * as z from "zod";
import { type ReportedKind, reportedKind } from "../core/entry_kind.ts";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { joinHostPath } from "../core/host_path.ts";
import { DELETE_PATH_MAX_ENTRIES } from "../core/limits.ts";
import { mapHostError } from "../core/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/normalize_workspace_path.ts";
import { stillSame } from "../core/still_same.ts";
import type { Identity, Workspace } from "../core/workspace.ts";
import { type HostStat, isHostError } from "../host.ts";
import { type BaseToolOptions, defineTool, type Tool, workspaceGetter, type WorkspaceSource } from "./tool.ts";

/** Options of {@link createDeleteTool}. */
export interface DeleteToolOptions extends BaseToolOptions {
  /** Entries one recursive delete removes at most (the folder itself included). @default 10000 ({@link DELETE_PATH_MAX_ENTRIES}) */
  maxEntries?: number;
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
 * (`WORKSPACE_ROOT_PROTECTED`).
 *
 * What remains: between the identity check of a folder and the removal of a
 * name in it, another process could swap the folder for a link (no `unlinkat`
 * in JavaScript); the checks before every step narrow that window to one
 * system call.
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
): Tool<DeletePathInput, DeletePathOutput> {
  const getWorkspace = workspaceGetter(workspace);
  const maxEntries = options.maxEntries ?? DELETE_PATH_MAX_ENTRIES;
  return defineTool({
    name: options.name ?? "delete_path",
    description: options.description ??
      `Delete a file, link or folder inside the workspace. A link is removed, never its target. A non-empty folder needs recursive: true (at most ${maxEntries} entries).`,
    readOnly: false,
    schema,
    prepare: (args): DeletePathInput => {
      const segments = normalizeWorkspacePath(args.path);
      if (segments.length === 0) throw rootProtected(args.path);
      return { path: args.path, segments, recursive: args.recursive ?? false };
    },
    run: async (input, { signal }) => {
      const ws = await getWorkspace();
      const display = input.segments.join("/");
      throwIfAborted(signal);
      await ws.checkRoot();
      const target = await ws.resolve(input.segments, { followFinal: false, action: "delete", display });
      if (target.segments.length === 0 || target.stat === null) throw rootProtected(display);
      const remover = new Remover(ws, display, signal);
      const stat = target.stat;
      if (stat.kind !== "directory") {
        await remover.removeEntry(target.parentHostPath, target.parentIdentity, target.hostPath, stat);
        return { path: display, kind: reportedKind(stat.kind), removed: 1 };
      }
      if (!input.recursive) {
        const entries = await ws.host.readdir(target.hostPath).catch((error) => {
          throw mapHostError(error, "delete", display);
        });
        if (entries.length > 0) {
          throw new WorkspaceError("DIRECTORY_NOT_EMPTY", `Cannot delete '${display}': the folder is not empty`, {
            path: display,
            hint: "pass recursive: true to delete the folder with everything in it",
          });
        }
        await remover.removeFolder(target.parentHostPath, target.parentIdentity, target.hostPath, stat);
        return { path: display, kind: "directory", removed: 1 };
      }
      // Count first, so that a tree over the limit is refused before anything is removed.
      const total = await remover.count(target.hostPath, stat, maxEntries);
      if (total > maxEntries) throw tooMany(display, maxEntries);
      const removed = await remover.removeTree(target.parentHostPath, target.parentIdentity, target.hostPath, stat, {
        left: maxEntries,
        max: maxEntries,
      });
      return { path: display, kind: "directory", removed };
    },
  });
}

function rootProtected(display: string): WorkspaceError {
  return new WorkspaceError("WORKSPACE_ROOT_PROTECTED", `Cannot delete '${display}': it is the workspace folder`, {
    path: display,
    hint: "name a file or folder inside the workspace",
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

// Removes entries one confined step at a time, re-checking before each step.
class Remover {
  constructor(
    private readonly ws: Workspace,
    private readonly display: string,
    private readonly signal: AbortSignal | undefined,
  ) {}

  private fail(error: unknown): unknown {
    return mapHostError(error, "delete", this.display);
  }

  private async expect(path: string, identity: Identity, kind?: HostStat["kind"]): Promise<void> {
    if (!(await stillSame(this.ws.host, path, identity, kind))) {
      throw new WorkspaceError(
        "PATH_CHANGED",
        `Cannot delete '${this.display}': an entry changed while it was deleted`,
        {
          path: this.display,
        },
      );
    }
  }

  // Before every removal: abort, root, the containing folder (still the same
  // real folder, not a link swapped in), and the entry itself.
  private async checkStep(parent: string, parentIdentity: Identity, path: string, stat: HostStat): Promise<void> {
    throwIfAborted(this.signal);
    await this.ws.checkRoot();
    await this.expect(parent, parentIdentity, "directory");
    await this.expect(path, stat, stat.kind);
  }

  async removeEntry(parent: string, parentIdentity: Identity, path: string, stat: HostStat): Promise<void> {
    await this.checkStep(parent, parentIdentity, path, stat);
    await this.ws.host.unlink(path).catch((error) => {
      throw this.fail(error);
    });
  }

  async removeFolder(parent: string, parentIdentity: Identity, path: string, stat: HostStat): Promise<void> {
    await this.checkStep(parent, parentIdentity, path, stat);
    await this.ws.host.rmdir(path).catch((error) => {
      throw this.fail(error);
    });
  }

  // Lists a real folder, checking that the listing did not go through a link swapped in.
  private async list(path: string, stat: HostStat): Promise<string[]> {
    await this.expect(path, stat, "directory");
    const entries = await this.ws.host.readdir(path).catch((error) => {
      throw this.fail(error);
    });
    await this.expect(path, stat, "directory");
    return entries.map((entry) => entry.name);
  }

  private async lstatChild(path: string): Promise<HostStat | null> {
    try {
      return await this.ws.host.lstat(path);
    } catch (error) {
      if (isHostError(error, "ENOENT")) return null; // removed by someone else meanwhile
      throw this.fail(error);
    }
  }

  /** Entries in the tree (the folder included), counting stops past `max`. */
  async count(path: string, stat: HostStat, max: number): Promise<number> {
    let total = 1;
    const pending: [string, HostStat][] = [[path, stat]];
    while (pending.length > 0 && total <= max) {
      throwIfAborted(this.signal);
      const [folder, folderStat] = pending.pop() as [string, HostStat];
      for (const name of await this.list(folder, folderStat)) {
        total++;
        if (total > max) break;
        const child = joinHostPath(this.ws.host.platform, folder, [name]);
        const childStat = await this.lstatChild(child);
        if (childStat?.kind === "directory") pending.push([child, childStat]);
      }
    }
    return total;
  }

  /** Removes a folder and everything in it, never following links; returns the entries removed. */
  async removeTree(
    parent: string,
    parentIdentity: Identity,
    path: string,
    stat: HostStat,
    budget: { left: number; max: number },
  ): Promise<number> {
    let removed = 0;
    for (const name of await this.list(path, stat)) {
      const child = joinHostPath(this.ws.host.platform, path, [name]);
      const childStat = await this.lstatChild(child);
      if (childStat === null) continue;
      if (childStat.kind === "directory") {
        removed += await this.removeTree(path, stat, child, childStat, budget);
      } else {
        if (--budget.left < 0) throw tooMany(this.display, budget.max); // entries appeared meanwhile
        await this.removeEntry(path, stat, child, childStat);
        removed++;
      }
    }
    if (--budget.left < 0) throw tooMany(this.display, budget.max); // entries appeared meanwhile
    await this.removeFolder(parent, parentIdentity, path, stat);
    return removed + 1;
  }
}
