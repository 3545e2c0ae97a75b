import { type ErrorCode, isAbortError, isWorkspaceError, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { atomicWrite } from "../core/fs/atomic_write.ts";
import { type JournalEntry, journalOf, matchesStamp, type PreviousState } from "../core/fs/change_journal.ts";
import { type Checkpoint, checkpointOwner } from "../core/fs/checkpoint.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import type { Resolved, Workspace } from "../core/fs/workspace.ts";
import type { HostStat } from "../host.ts";
import { TreeRemover } from "./_tree_remover.ts";
import { renameConfirmed } from "./_rename_confirmed.ts";

/** Options of {@link restore}. */
export interface RestoreOptions {
  /** Put back files someone else changed since (instead of refusing them with `CHANGED_SINCE_CHECKPOINT`). @default false */
  force?: boolean;
  /** Stops the restore between two files (the files done stay done). @default undefined (not cancellable) */
  signal?: AbortSignal;
}

/** What a restore did with one journaled change. */
export interface RestoredChange {
  /** The workspace-relative path the change was made at (a move: its destination). */
  path: string;
  /** A move: where the entry goes back to. */
  from?: string;
  /** The change taken back: a file written, an entry removed, a folder made, an entry moved. */
  change: "write" | "remove" | "mkdir" | "move";
  /**
   * `restored`: put back as it was; `kept`: a created folder left because it is
   * not empty; `refused`: someone else changed it since (`code`
   * `CHANGED_SINCE_CHECKPOINT`), or it could not be put back (`code` says why);
   * `not_restorable`: the journal holds no copy (`NOT_RESTORABLE`: a file over
   * `CHECKPOINT_FILE_BYTES`, a link or special file).
   */
  status: "restored" | "kept" | "refused" | "not_restorable";
  /** Why not `restored`. */
  code?: ErrorCode;
  /** The same in words. */
  message?: string;
}

/** Result of {@link restore}. */
export interface RestoreResult {
  /** Every change since the checkpoint was put back. */
  complete: boolean;
  /** Changes since the checkpoint were dropped from the journal to keep its bound (`CHECKPOINT_JOURNAL_BYTES`): those are not put back. */
  dropped: boolean;
  /** Each change, newest first (the order they were taken back in). */
  changes: RestoredChange[];
}

/**
 * Puts every file changed since `point` back as it was: rewritten files get
 * their old bytes and mode (one atomic write each), deleted files and folders
 * are recreated, created files removed, moved entries moved back and created
 * folders removed when empty. Changes are taken back newest first, each
 * through the same confined walk and atomic write as the tools (a folder
 * swapped for a link since stays unwritten: that change fails with the walk's
 * code). A path whose content or identity is no longer what the change left
 * is refused (`CHANGED_SINCE_CHECKPOINT`) and left untouched unless `force`.
 * Changes put back leave the journal; refused ones stay, for a later forced restore.
 *
 * @param workspace The workspace the checkpoint was made on.
 * @param point The checkpoint.
 * @param options Force, abort signal.
 * @returns One result per change.
 * @throws {WorkspaceError} `CHECKPOINT_UNKNOWN` for a checkpoint of another workspace.
 *
 * @example Refused, then forced
 * ```ts
 * import { checkpoint, openWorkspace, restore } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const point = checkpoint(workspace);
 * // … tools change files; a person edits one of them too …
 * const first = await restore(workspace, point);
 * if (!first.complete) await restore(workspace, point, { force: true });
 * ```
 */
export async function restore(
  workspace: Workspace,
  point: Checkpoint,
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  if (checkpointOwner(point) !== workspace) {
    throw new WorkspaceError("CHECKPOINT_UNKNOWN", "Cannot restore: the checkpoint was not made on this workspace");
  }
  const journal = journalOf(workspace);
  const result = await restoreEntries(workspace, journal.since(point.sequence), options);
  const dropped = journal.droppedThrough >= point.sequence;
  return { ...result, dropped, complete: result.complete && !dropped };
}

/**
 * Takes back journal entries, newest first, and forgets those put back.
 *
 * @param workspace The workspace.
 * @param entries Entries of its journal, oldest first.
 * @param options Force, abort signal.
 * @returns The results (`dropped` always false: the caller knows).
 */
export async function restoreEntries(
  workspace: Workspace,
  entries: readonly JournalEntry[],
  options: RestoreOptions = {},
): Promise<RestoreResult> {
  await workspace.checkRoot();
  const journal = journalOf(workspace);
  const changes: RestoredChange[] = [];
  const done: JournalEntry[] = [];
  for (const entry of [...entries].reverse()) {
    if (entry.settled !== true) continue; // still in flight (a concurrent call): not ours to take back yet
    throwIfAborted(options.signal);
    const outcome = await restoreOne(workspace, entry, options).catch((error) => {
      if (isAbortError(error) || !(error instanceof WorkspaceError)) throw error;
      return refusal(error.code, error.message);
    });
    const { left, ...reported } = outcome;
    const path = entry.segments.join("/");
    changes.push({
      path,
      ...(entry.kind === "move" ? { from: entry.from.join("/") } : {}),
      change: entry.kind,
      ...reported,
    });
    if (outcome.status !== "refused") done.push(entry);
    if (left !== undefined) journal.restamp(entry.seq, entry.segments, left);
  }
  journal.forget(done);
  return { complete: changes.every((change) => change.status === "restored"), dropped: false, changes };
}

// What restoring one change did; `left`: the file it wrote back, for the older entries there.
type Outcome = Pick<RestoredChange, "status" | "code" | "message"> & { left?: HostStat };

const RESTORED: Outcome = { status: "restored" };

function refusal(code: ErrorCode, message: string): Outcome {
  return { status: "refused", code, message };
}

function changedSince(display: string, detail: string): Outcome {
  return refusal(
    "CHANGED_SINCE_CHECKPOINT",
    `Cannot restore '${display}': ${detail} since the change (pass force to put it back anyway)`,
  );
}

async function restoreOne(workspace: Workspace, entry: JournalEntry, options: RestoreOptions): Promise<Outcome> {
  const display = entry.segments.join("/");
  const force = options.force === true;
  const previous = entry.previous;
  const unsaved = entry.kind === "write" || entry.kind === "remove" ? notRestorable(display, previous) : null;
  if (unsaved !== null) return unsaved;
  const target = await resolveExactly(workspace, entry.segments, display);
  if (target === null) return changedSince(display, "a folder on its path was replaced");
  try {
    const current = target.stat;
    const remover = new TreeRemover(workspace, display, options.signal, false);
    switch (entry.kind) {
      case "write": {
        if (!matchesStamp(current, entry.after) && !force) return changedSince(display, "it was changed");
        if (previous.kind === "missing") {
          if (current === null) return RESTORED;
          if (current.kind === "directory") return refusal("NOT_A_FILE", `Cannot restore '${display}': it is a folder`);
          await remover.removeEntry(target.folder, target.name as string, current);
          return RESTORED;
        }
        if (previous.kind !== "file" || previous.content === null) return notRestorable(display, previous) as Outcome;
        await atomicWrite(workspace, entry.segments, previous.content, {
          target,
          display,
          mode: previous.mode,
          journal: false,
          signal: options.signal,
          // Inside the write's lock: still what the change left (someone may have written since the look above).
          beforeWrite: (now) => {
            if (!force && !matchesStamp(now.stat, entry.after)) throw changed(display);
          },
        });
        return await written(workspace, target);
      }
      case "remove": {
        if (current !== null && !(previous.kind === "directory" && current.kind === "directory") && !force) {
          return changedSince(display, "something was put in its place");
        }
        if (previous.kind === "directory") {
          if (current?.kind === "directory") return RESTORED;
          await makeFolder(workspace, target, previous.mode, display);
          return RESTORED;
        }
        if (previous.kind !== "file" || previous.content === null) return notRestorable(display, previous) as Outcome;
        await atomicWrite(workspace, entry.segments, previous.content, {
          target,
          display,
          mode: previous.mode,
          journal: false,
          exclusive: !force,
          signal: options.signal,
        });
        return await written(workspace, target);
      }
      case "mkdir": {
        if (current === null) return RESTORED;
        if (!matchesStamp(current, entry.after) && !force) return changedSince(display, "it was replaced");
        if (current.kind !== "directory") {
          return refusal("NOT_A_DIRECTORY", `Cannot restore '${display}': not a folder`);
        }
        try {
          await remover.removeFolder(target.folder, target.name as string, current);
        } catch (error) {
          if (!isWorkspaceError(error, "DIRECTORY_NOT_EMPTY")) throw error;
          return { status: "kept", code: "DIRECTORY_NOT_EMPTY", message: `Kept '${display}': it is not empty` };
        }
        return RESTORED;
      }
      case "move": {
        if (current === null) return refusal("NOT_FOUND", `Cannot move '${display}' back: it is gone`);
        if (!matchesStamp(current, entry.after) && !force) return changedSince(display, "it was changed");
        return await moveBack(workspace, target, current, entry.from, force);
      }
    }
  } finally {
    await target.release();
  }
}

// Restored, and what the atomic write left at the held folder (a look only: a change after it is the next restore's to see).
async function written(workspace: Workspace, target: Resolved): Promise<Outcome> {
  const left = await workspace.host.lstat(target.hostPath).catch(() => null);
  return left === null ? RESTORED : { status: "restored", left };
}

// `not_restorable` for a change whose previous state the journal holds no copy of
// (a file over the bound, a link or special file); `null` when it can be put back.
function notRestorable(display: string, previous: PreviousState): Outcome | null {
  if (previous.kind === "file" && previous.content === null) {
    return notRestorableAs(display, `it was larger than the journal keeps (${previous.size} bytes)`);
  }
  return previous.kind === "other" ? notRestorableAs(display, `it was a ${previous.entry}`) : null;
}

function notRestorableAs(display: string, detail: string): Outcome {
  return { status: "not_restorable", code: "NOT_RESTORABLE", message: `Cannot restore '${display}': ${detail}` };
}

function changed(display: string): WorkspaceError {
  return new WorkspaceError(
    "CHANGED_SINCE_CHECKPOINT",
    `Cannot restore '${display}': it was changed since the change (pass force to put it back anyway)`,
    { path: display },
  );
}

// The final place of `segments`, a final link not followed; `null` when the
// walk lands elsewhere (a folder on the way is now a link inside the workspace).
// A link leading out fails in the walk itself (PATH_ESCAPES_WORKSPACE).
async function resolveExactly(
  workspace: Workspace,
  segments: readonly string[],
  display: string,
): Promise<Resolved | null> {
  const target = await workspace.resolve(segments, {
    followFinal: false,
    allowMissing: true,
    action: "restore",
    display,
  });
  if (target.name !== null && target.segments.join("/") === segments.join("/")) return target;
  await target.release();
  return null;
}

// Recreates a deleted folder at its held parent (mode as far as the umask allows).
async function makeFolder(workspace: Workspace, target: Resolved, mode: number, display: string): Promise<void> {
  await workspace.host.mkdir(target.hostPath, mode).catch((error) => {
    throw mapHostError(error, "restore", display);
  });
  // `paths` route only: a folder above swapped before the mkdir put it elsewhere: take it back and say so.
  await workspace.confirm(target.folder)?.catch(async (error) => {
    await workspace.host.rmdir(target.hostPath).catch(() => {});
    throw error;
  });
}

// Renames the entry at `target` back to `from`, both ends held, through move_path's confirmed rename.
async function moveBack(
  workspace: Workspace,
  target: Resolved,
  stat: NonNullable<Resolved["stat"]>,
  from: readonly string[],
  force: boolean,
): Promise<Outcome> {
  const fromDisplay = from.join("/");
  const back = await resolveExactly(workspace, from, fromDisplay);
  if (back === null) return changedSince(fromDisplay, "a folder on its path was replaced");
  try {
    if (back.stat !== null && (!force || back.stat.kind === "directory" || stat.kind === "directory")) {
      return changedSince(fromDisplay, "something was put in its place");
    }
    const fail = (code: ErrorCode, detail: string) =>
      new WorkspaceError(code, `Cannot move '${target.segments.join("/")}' back to '${fromDisplay}': ${detail}`);
    await renameConfirmed(workspace, target, back, stat, fail).catch((error) => {
      throw mapHostError(error, "restore", fromDisplay);
    });
    await workspace.syncFolder(back.folder).catch(() => {});
    return RESTORED;
  } finally {
    await back.release();
  }
}
