// Takes back one journaled change, through the confined walk and the atomic write (see restore_checkpoint.ts).
import { type ErrorCode, isWorkspaceError, WorkspaceError } from "../core/errors.ts";
import { atomicWrite, type AtomicWriteOptions } from "../core/fs/atomic_write.ts";
import { type JournalEntry, matchesStamp, type PreviousState } from "../core/fs/change_journal.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import type { Resolved, Workspace } from "../core/fs/workspace.ts";
import type { HostStat } from "../host.ts";
import type { RestoredChange, RestoreOptions } from "./restore_checkpoint.ts";
import { TreeRemover } from "./_tree_remover.ts";
import { renameConfirmed } from "./_rename_confirmed.ts";

// What restoring one change did; `left`: the file it wrote back, for the older entries there.
export type Outcome = Pick<RestoredChange, "status" | "code" | "message"> & { left?: HostStat };

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

/** Takes back one change (see {@link restore}); a refusal is an outcome, a failure of the walk or a step throws. */
export async function restoreOne(workspace: Workspace, entry: JournalEntry, options: RestoreOptions): Promise<Outcome> {
  const display = entry.segments.join("/");
  // A command's changes not all captured: what was is put back (forced, see restoreEntries), this is reported.
  if (entry.kind === "uncaptured") {
    return {
      status: "not_restorable",
      code: "CHANGES_INCOMPLETE",
      message: `Not all changes were captured: ${entry.reason}`,
    };
  }
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
          // Checked again in the name's queue, right before the unlink: a change that landed since the look
          // above (an append in place keeps the inode) is refused too.
          await remover.removeEntry(target.folder, target.name as string, current, undefined, (now) => {
            if (!force && !matchesStamp(now, entry.after)) throw changed(display);
          });
          return RESTORED;
        }
        return await writeBack(workspace, entry, target, options, {
          // Inside the write's lock: still what the change left (someone may have written since the look above).
          beforeWrite: (now) => {
            if (!force && !matchesStamp(now.stat, entry.after)) throw changed(display);
          },
        });
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
        return await writeBack(workspace, entry, target, options, { exclusive: !force });
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

// Puts the journaled copy back at the held target with the atomic write (not
// journaled itself), under the case's guard; what it left is the outcome.
async function writeBack(
  workspace: Workspace,
  entry: JournalEntry,
  target: Resolved,
  options: RestoreOptions,
  guard: Pick<AtomicWriteOptions, "beforeWrite" | "exclusive">,
): Promise<Outcome> {
  const display = entry.segments.join("/");
  const previous = entry.previous;
  if (previous.kind !== "file" || previous.content === null) return notRestorable(display, previous) as Outcome;
  // What the restore left is the file it wrote, as its own handle saw it: a look at the name afterwards could find
  // someone else's file saved there since, which the older entries would then take for the restore's own.
  const { stat } = await atomicWrite(workspace, entry.segments, previous.content, {
    target,
    display,
    mode: previous.mode,
    journal: false,
    statWritten: true,
    signal: options.signal,
    ...guard,
  });
  return stat === undefined ? RESTORED : { status: "restored", left: stat };
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
