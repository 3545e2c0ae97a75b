// The removals of delete_path, one confined step at a time.
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { randomSuffix, TEMP_FILE_PREFIX } from "../core/fs/atomic_write.ts";
import { closeFolder, type Folder } from "../core/fs/folder.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { recordChange } from "../core/fs/change_journal.ts";
import { holdTransientName, isTransientName, runInTargetQueue, targetKey } from "../core/fs/run_in_target_queue.ts";
import { stillNamesObject } from "../core/fs/still_names_object.ts";
import { sameIdentity, type Workspace } from "../core/fs/workspace.ts";
import { type HostStat, isHostError } from "../host.ts";
import { isPrivateEntry } from "../core/fs/private_paths.ts";

/** `TOO_MANY_ENTRIES` for a recursive delete over `maxEntries`. */
export function tooMany(display: string, maxEntries: number): WorkspaceError {
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
export class TreeRemover {
  constructor(
    private readonly workspace: Workspace,
    private readonly display: string,
    private readonly signal: AbortSignal | undefined,
    /** Journal each removal for checkpoints (a restore's own removals are not). */
    private readonly journal = true,
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
    await this.workspace.checkRoot();
    await this.workspace.confirm(folder);
    if (!(await stillNamesObject(this.workspace.host, this.workspace.childPath(folder, name), stat, stat.kind))) {
      throw this.changed();
    }
  }

  /**
   * Removes one file or link, in the name's write queue: a write of this process to it runs before the check or
   * after the removal, never between them (else the removal would take the written file). `journal: false` for a
   * temp file left behind (a crashed writer's): an undo never puts one back. `check` is called with the entry's
   * lstat inside the queue, before anything is removed (it throws to refuse).
   */
  async removeEntry(
    folder: Folder,
    name: string,
    stat: HostStat,
    journal: boolean = this.journal,
    check?: (now: HostStat) => void,
  ): Promise<void> {
    await runInTargetQueue(targetKey(folder, name), async () => {
      // The caller's own check (the stale-write guard) on the entry as it is now, inside the queue.
      if (check !== undefined) {
        const now = await this.workspace.host.lstat(this.workspace.childPath(folder, name)).catch((error) => {
          throw this.fail(error);
        });
        if (now.kind !== stat.kind || !sameIdentity(now, stat)) throw this.changed();
        check(now);
      }
      await this.checkStep(folder, name, stat);
      await this.remove(folder, name, stat, (path) => this.workspace.host.unlink(path), journal);
    });
  }

  async removeFolder(folder: Folder, name: string, stat: HostStat): Promise<void> {
    await this.checkStep(folder, name, stat);
    await this.remove(folder, name, stat, (path) => this.workspace.host.rmdir(path), this.journal);
  }

  // One removal, journaled before it happens (a file's content up to the
  // bound) and forgotten if it does not happen.
  private async remove(
    folder: Folder,
    name: string,
    stat: HostStat,
    remove: (path: string) => Promise<void>,
    journal: boolean,
  ): Promise<void> {
    const path = this.workspace.childPath(folder, name);
    const change = { kind: "remove", segments: [...folder.segments, name] } as const;
    const journaled = await recordChange(this.workspace, change, path, stat, !journal);
    await this.removeAt(folder, path, stat, remove).catch((error) => {
      journaled?.cancel();
      throw error;
    });
    journaled?.done();
  }

  // One removal. At a held folder (`handles`): the name is removed there. On the
  // `paths` route, where a folder above can be swapped between the last check
  // and the removal, the entry is first renamed to a random name in the same
  // folder, the chain and the renamed entry are confirmed, and only that random
  // name is removed: a swap before the rename is undone by renaming back (the
  // outside entry keeps its name), and a swap after it leaves the removal
  // looking for a name that exists nowhere else, so nothing outside is deleted.
  private async removeAt(
    folder: Folder,
    path: string,
    stat: HostStat,
    remove: (path: string) => Promise<void>,
  ): Promise<void> {
    if (folder.handle !== null) {
      await remove(path).catch((error) => {
        throw this.fail(error);
      });
      return;
    }
    const asideName = `${TEMP_FILE_PREFIX}delete-${randomSuffix()}`;
    const aside = this.workspace.childPath(folder, asideName);
    const letAsideGo = holdTransientName(targetKey(folder, asideName));
    try {
      await this.workspace.host.rename(path, aside).catch((error) => {
        throw this.fail(error);
      });
      try {
        await this.workspace.confirm(folder);
        if (!(await stillNamesObject(this.workspace.host, aside, stat, stat.kind))) throw this.changed();
      } catch (error) {
        await this.workspace.host.rename(aside, path).catch(() => {});
        throw error;
      }
      await remove(aside).catch((error) => {
        throw this.fail(error);
      });
    } finally {
      letAsideGo();
    }
  }

  // Holds the folder `name` at `folder` (it must still be the one looked at) while `use` runs.
  async withFolder<T>(folder: Folder, name: string, stat: HostStat, use: (held: Folder) => Promise<T>): Promise<T> {
    const found = await this.workspace.openFolder(folder, name).catch((error) => {
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
    const entries = await this.workspace.host.readdir(folder.at).catch((error) => {
      throw this.fail(error);
    });
    await this.workspace.confirm(folder);
    return entries.map((entry) => entry.name);
  }

  private async lstatChild(folder: Folder, name: string): Promise<HostStat | null> {
    try {
      return await this.workspace.host.lstat(this.workspace.childPath(folder, name));
    } catch (error) {
      if (isHostError(error, "ENOENT")) return null; // removed by someone else meanwhile
      throw this.fail(error);
    }
  }

  /**
   * Entries in the tree (the folder included), counting stops past `max`.
   * @throws {WorkspaceError} `PATH_PRIVATE` when the tree holds a private path (named nowhere): a
   *   recursive delete does not take private files with it.
   */
  async count(folder: Folder, max: number, total = 1): Promise<number> {
    const privatePaths = this.workspace.privatePaths ?? [];
    for (const name of await this.list(folder)) {
      throwIfAborted(this.signal);
      if (privatePaths.length > 0 && isPrivateEntry(folder.segments, name, privatePaths)) {
        throw new WorkspaceError("PATH_PRIVATE", `Cannot delete '${this.display}': it holds a private path`, {
          path: this.display,
        });
      }
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
        // A temp file or aside another call of this process is using: its maker renames or removes it (if it is
        // still here at the end, the folder's removal fails, and nothing of that call's is lost).
        const ours = child.startsWith(TEMP_FILE_PREFIX);
        if (ours && isTransientName(targetKey(folder, child))) continue;
        const childStat = await this.lstatChild(folder, child);
        if (childStat === null) continue;
        if (childStat.kind === "directory") {
          count += await this.removeTree(folder, child, childStat, budget);
        } else {
          if (--budget.left < 0) throw tooMany(this.display, budget.max); // entries appeared meanwhile
          await this.removeEntry(folder, child, childStat, this.journal && !ours);
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
