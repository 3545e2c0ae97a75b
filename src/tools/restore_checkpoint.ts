import { type ErrorCode, isAbortError, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { type JournalEntry, journalOf } from "../core/fs/change_journal.ts";
import { type Checkpoint, checkpointOwner } from "../core/fs/checkpoint.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import { type Outcome, restoreOne } from "./_restore_change.ts";

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
  /**
   * The change taken back: a file written, an entry removed, a folder made, an
   * entry moved; `uncaptured`: a command changed more than was captured (path
   * `.`, status `not_restorable`, code `CHANGES_INCOMPLETE`).
   */
  change: "write" | "remove" | "mkdir" | "move" | "uncaptured";
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
  refuseUncaptured(entries, options);
  const changes: RestoredChange[] = [];
  const done: JournalEntry[] = [];
  // Paths a newer change to which was refused: an older change there is refused too (unless `force`), else a
  // removal taken back would make again what someone deleted since (a file replaced by a move, then deleted).
  const blocked = new Set<string>();
  try {
    for (const entry of [...entries].reverse()) {
      if (entry.settled !== true) continue; // still in flight (a concurrent call): not ours to take back yet
      throwIfAborted(options.signal);
      const path = entry.segments.join("/") || ".";
      const outcome: Outcome = blocked.has(path) && options.force !== true
        ? {
          status: "refused",
          code: "CHANGED_SINCE_CHECKPOINT",
          message:
            `Cannot restore '${path}': a later change to it could not be taken back, it changed since (pass force to put it back anyway)`,
        }
        : await restoreOne(workspace, entry, options).catch((error) => {
          if (isAbortError(error) || !(error instanceof WorkspaceError)) throw error;
          return { status: "refused" as const, code: error.code, message: error.message };
        });
      if (outcome.status === "refused") {
        blocked.add(path);
        if (entry.kind === "move") blocked.add(entry.from.join("/"));
      }
      const { left, ...reported } = outcome;
      changes.push({
        path,
        ...(entry.kind === "move" ? { from: entry.from.join("/") } : {}),
        change: entry.kind,
        ...reported,
      });
      if (outcome.status !== "refused") done.push(entry);
      if (left !== undefined) journal.restamp(entry.seq, entry.segments, left);
    }
  } finally {
    // Also when aborted or failed part-way: what was put back is not in the journal any more.
    journal.forget(done);
    journal.noteRestored(done);
  }
  return { complete: changes.every((change) => change.status === "restored"), dropped: false, changes };
}

// A command whose changes were not all captured (see command_capture.ts) is not taken back half-way unless forced:
// a half-undone command leaves a tree no one made.
function refuseUncaptured(entries: readonly JournalEntry[], options: RestoreOptions): void {
  if (options.force === true) return;
  const uncaptured = entries.filter((entry) => entry.kind === "uncaptured");
  if (uncaptured.length === 0) return;
  const restorable = entries.filter((entry) => entry.kind !== "uncaptured").length;
  throw new WorkspaceError(
    "CHANGES_INCOMPLETE",
    `Cannot undo: a command changed more than was captured (${
      uncaptured.map((entry) => entry.kind === "uncaptured" ? entry.reason : "").join("; ")
    }); nothing was put back`,
    {
      hint: `pass force: true to put back the ${restorable} captured change(s) and leave the rest, ` +
        "or undo the command's changes by hand (git restore, or write_file)",
    },
  );
}
