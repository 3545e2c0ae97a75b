import * as z from "zod";
import { WorkspaceError } from "../core/errors.ts";
import { type ChangeJournal, journalOf } from "../core/fs/change_journal.ts";
import { callRunning } from "../core/fs/call_scope.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";
import { restoreEntries, type RestoreResult } from "./restore_checkpoint.ts";

/** Options of {@link createUndoLastChangeTool}. */
export type UndoLastChangeToolOptions = BaseToolOptions;

/** Arguments of `undo_last_change` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface UndoLastChangeArguments {
  /** Put back files someone else changed since, instead of refusing them. @default false */
  force?: boolean;
}

/** Arguments of `undo_last_change`, validated. */
export interface UndoLastChangeInput {
  /** Put back files changed since by someone else. */
  force: boolean;
}

/** Result of `undo_last_change`: what {@link restore} reports, for the last tool call's changes. */
export type UndoLastChangeOutput = Omit<RestoreResult, "dropped">;

const schema = z.object({
  force: z.boolean().optional().describe(
    "Put back files someone else changed since the last change, instead of refusing them (default false)",
  ),
}).strict();

/**
 * Creates `undo_last_change` `{force?}` → `{complete, changes}`: takes back
 * the changes of the last tool call that changed files (write, edit, delete,
 * move, folder creation), newest first, as {@link restore} does. Called again,
 * it takes back the call before. Calls that ran at the same time are taken
 * back one at a time (with `registerCallScope`'s scope, which the package
 * entries register; else they count as one).
 * A file changed since by someone else is refused (`CHANGED_SINCE_CHECKPOINT`
 * in its entry of `changes`) and stays in the journal unless `force`. Nothing
 * left to undo is `NOTHING_TO_UNDO`. What a command (`shell`,
 * `node_process`) changed in the workspace is a group too; one not captured
 * whole is refused (`CHANGES_INCOMPLETE`) unless `force`.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Name and description.
 * @returns The tool.
 *
 * @example Undoing a write
 * ```ts
 * import { createUndoLastChangeTool, createWriteTool, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * await createWriteTool(workspace).execute({ path: "a.txt", content: "new\n" });
 * await createUndoLastChangeTool(workspace).execute({}); // a.txt as it was before
 * ```
 */
export function createUndoLastChangeTool(
  workspace: WorkspaceSource,
  options: UndoLastChangeToolOptions = {},
): Tool<UndoLastChangeInput, UndoLastChangeOutput, UndoLastChangeArguments> {
  const getWorkspace = workspaceGetter(workspace);
  return defineTool({
    name: options.name ?? "undo_last_change",
    description: options.description ??
      "Undo the file changes of the last tool call that changed files (write, edit, delete, move, create folder, and what a shell command or node_process script changed in the workspace); call again to undo the one before. Files changed since by someone else are refused unless force: true.",
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): UndoLastChangeInput => ({ force: args.force ?? false }),
    run: async (input, { signal }) => {
      const workspace = await getWorkspace();
      const journal = journalOf(workspace);
      // A call still running is not taken back half-way, and a group another undo is taking back is not taken twice.
      const undoing = undoingOf(journal);
      const entries = journal.lastGroup((group) => callRunning(group) || undoing.has(group));
      if (entries.length === 0) {
        const running = journal.lastGroup().length > 0;
        throw new WorkspaceError(
          "NOTHING_TO_UNDO",
          running
            ? "Cannot undo: the only changes are those of calls still running"
            : "Cannot undo: no tool call changed a file in this session",
          {
            hint: running
              ? "undo once they have ended"
              : "nothing to take back: no tool call or command has changed a file in this workspace",
          },
        );
      }
      const group = entries[0].group;
      // Part of the group was dropped to keep the journal's bound: put back half a call only when asked.
      if (journal.wasTrimmed(group) && !input.force) {
        throw new WorkspaceError(
          "CHANGES_INCOMPLETE",
          `Cannot undo: the last call's changes were more than the journal holds (CHECKPOINT_JOURNAL_BYTES), ` +
            `so the oldest of them are gone; nothing was put back`,
          { hint: `pass force: true to put back the ${entries.length} change(s) still journaled, or undo by hand` },
        );
      }
      undoing.add(group);
      try {
        const { complete, changes } = await restoreEntries(workspace, entries, { force: input.force, signal });
        return { complete, changes };
      } finally {
        undoing.delete(group);
      }
    },
  });
}

// The groups an undo of this process is taking back now, per journal.
const undoingGroups = new WeakMap<ChangeJournal, Set<number>>();

function undoingOf(journal: ChangeJournal): Set<number> {
  let groups = undoingGroups.get(journal);
  if (groups === undefined) undoingGroups.set(journal, groups = new Set());
  return groups;
}
