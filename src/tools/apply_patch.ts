import * as z from "zod";
import { isWorkspaceError, rootProtected, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { atomicWrite } from "../core/fs/atomic_write.ts";
import { lstatUnchanged } from "../core/fs/lstat_unchanged.ts";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { protectionFor } from "../core/fs/protection_for.ts";
import { readTrackerOf, sameVersion } from "../core/fs/read_tracker.ts";
import type { ChangedLines } from "../core/fs/region_guard.ts";
import type { Resolved, Workspace } from "../core/fs/workspace.ts";
import { type JournalEntry, journalOf } from "../core/fs/change_journal.ts";
import { currentCallGroup } from "../core/fs/call_scope.ts";
import {
  APPLY_PATCH_MAX_BYTES,
  APPLY_PATCH_MAX_FILE_BYTES,
  APPLY_PATCH_MAX_FILES,
  APPLY_PATCH_MAX_MATCH_STEPS,
} from "../core/limits.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { patchInvalid } from "../core/text/_patch_invalid.ts";
import { parsePatch } from "../core/text/parse_patch.ts";
import type { SeekTolerance } from "../core/text/seek_lines.ts";
import { utf8ByteLength } from "../core/text/utf8.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";
import {
  changedPaths,
  type FilePlan,
  namedPaths,
  planFile,
  type PreparedPatchOperation,
  replayedPlan,
} from "./_patch_plan.ts";
import { TreeRemover } from "./_tree_remover.ts";
import { restoreEntries } from "./restore_checkpoint.ts";

/** Options of {@link createApplyPatchTool}. */
export interface ApplyPatchToolOptions extends BaseToolOptions {
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`), replacing what is
   * in force for the workspace; `[]` protects nothing (see `DEFAULT_PROTECTED_PATHS`).
   * @default what is in force for the workspace at each call (`protectedPathsInForce`:
   *   the workspace's own list, and `DEFAULT_PROTECTED_PATHS` while a `shell` with an allow list exists over it)
   */
  protectedPaths?: readonly string[];
  /**
   * Refuse to change an existing file the session never read (`FILE_NOT_READ`) or that changed
   * since it was last read (`FILE_CHANGED_SINCE_READ`).
   * @default false (`createCodingTools` turns it on)
   */
  staleWriteGuard?: boolean;
  /** UTF-8 bytes of one patch. @default 262144 ({@link APPLY_PATCH_MAX_BYTES}) */
  maxPatchBytes?: number;
  /** Files one patch changes. @default 64 ({@link APPLY_PATCH_MAX_FILES}) */
  maxFiles?: number;
  /** Size of a file updated, and of each file written, in bytes. @default 1048576 ({@link APPLY_PATCH_MAX_FILE_BYTES}) */
  maxFileBytes?: number;
}

/** Arguments of `apply_patch` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface ApplyPatchArguments {
  /** The patch, `*** Begin Patch` … `*** End Patch` (or a unified diff of one file). */
  patch: string;
}

/** Arguments of `apply_patch`, validated: the files it changes, their paths checked. */
export interface ApplyPatchInput {
  /** The operations, in the patch's order. */
  operations: PreparedPatchOperation[];
}

/** One file `apply_patch` changed. */
export interface PatchedFile {
  /** The workspace-relative path (normalized); for a move, where it was. */
  path: string;
  /** What happened to it. */
  action: "added" | "updated" | "moved" | "deleted";
  /** A moved file's new path. */
  destination?: string;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** The file was already as the patch makes it (the patch was sent before): nothing was written, counts are 0. */
  alreadyApplied?: true;
  /** The loosest difference a hunk was matched past, when not every line matched exactly. */
  tolerance?: SeekTolerance;
  /** With the stale-write guard: lines of an updated file changed since it was read, outside the hunks, as they are now. */
  changedSinceRead?: ChangedLines[];
}

/** Result of `apply_patch`. */
export interface ApplyPatchOutput {
  /** Each file, in the patch's order. */
  files: PatchedFile[];
  /** Every file was already as the patch makes it: nothing was written, and there is nothing to undo. */
  alreadyApplied?: true;
}

const schema = z.object({
  patch: z.string().describe(
    "The patch: '*** Begin Patch', then per file '*** Add File: path' (lines starting with '+'), " +
      "'*** Delete File: path', or '*** Update File: path' (optionally '*** Move to: new/path') with hunks: " +
      "'@@' (or '@@ a line just above the change'), then lines starting with ' ' (context, about 3 before and after), " +
      "'-' (remove) or '+' (add); then '*** End Patch'",
  ),
}).strict();

/**
 * Creates `apply_patch` `{patch}` → `{files: [{path, action, added,
 * removed}]}`: applies one patch in the format of OpenAI Codex's
 * `apply_patch` (`*** Begin Patch` / `*** Add File:` / `*** Update File:` /
 * `*** Move to:` / `*** Delete File:` / `@@` hunks / `*** End Patch`), or a
 * unified diff of one file, to files inside the workspace.
 *
 * All or nothing up to the first change: the whole patch is parsed and its
 * paths checked by the path grammar, then every file is resolved confined,
 * read, checked (protected paths, an added file that exists
 * `PATCH_FILE_EXISTS`, and with `staleWriteGuard` a file not seen as it is now)
 * and patched in memory, every hunk located (`PATCH_HUNK_NOT_FOUND` names the
 * file, the hunk and the nearest lines); only then is anything changed. Each
 * file is written with the atomic write at its held folder, which refuses a
 * file that changed since it was read; a file is deleted as `delete_path`
 * deletes; a move writes the new file (refused if it exists) and removes the
 * old one. A failure while changing files (the disk, a race detected) stops
 * there and puts back the files already changed, from the change journal
 * (`details.restored`); `details.applied` lists the files left changed: all
 * of them when it cannot (the journal off, a file changed again by another
 * call), and any file someone else changed after the patch wrote it.
 * Files are identified by what they resolve to, so one file spelled two
 * ways (a link, a linked folder) is `PATCH_INVALID`. A file the patch finds
 * already as it would make it (the patch sent again) is `alreadyApplied` and
 * not written; with every file so, the result is `alreadyApplied: true` and
 * nothing is written or journaled.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limits, protected paths, the stale-write guard, name.
 * @returns The tool.
 *
 * @example Renaming a function in one patch
 * ```ts
 * import { createApplyPatchTool } from "@paddock/tools";
 * const applyPatch = createApplyPatchTool("./project");
 * const { files } = await applyPatch.execute({
 *   patch: "*** Begin Patch\n*** Update File: src/app.ts\n@@\n-function start() {\n+function run() {\n*** End Patch\n",
 * });
 * ```
 */
export function createApplyPatchTool(
  workspace: WorkspaceSource,
  options: ApplyPatchToolOptions = {},
): Tool<ApplyPatchInput, ApplyPatchOutput, ApplyPatchArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxPatchBytes = options.maxPatchBytes ?? APPLY_PATCH_MAX_BYTES;
  const maxFiles = options.maxFiles ?? APPLY_PATCH_MAX_FILES;
  const maxFileBytes = options.maxFileBytes ?? APPLY_PATCH_MAX_FILE_BYTES;
  const guarded = options.staleWriteGuard ?? false;
  return defineTool({
    name: options.name ?? "apply_patch",
    description: options.description ??
      "Apply a patch to files inside the workspace: add, update (with hunks of context lines), move and delete files " +
        "in one call, all or nothing: every file is checked before any changes, and a failure while writing puts back what was changed; a patch already applied says so (alreadyApplied) and changes nothing. Format: '*** Begin Patch' / '*** Update File: path' / '@@' / ' context' / " +
        "'-old' / '+new' / '*** End Patch' (also '*** Add File:', '*** Delete File:', '*** Move to:').",
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): ApplyPatchInput => {
      // UTF-8 never takes fewer bytes than UTF-16 units, so a huge patch fails before it is measured.
      if (args.patch.length > maxPatchBytes || utf8ByteLength(args.patch) > maxPatchBytes) {
        throw new WorkspaceError("CONTENT_TOO_LARGE", `The patch is larger than ${maxPatchBytes} bytes of UTF-8`, {
          hint: `send at most ${maxPatchBytes} bytes per call; split the change into several patches`,
        });
      }
      const { operations } = parsePatch(args.patch);
      if (operations.length > maxFiles) {
        throw patchInvalid(`the patch changes ${operations.length} files, more than ${maxFiles}`, "split it");
      }
      const seen = new Set<string>();
      const checked = (path: string): { display: string; segments: string[] } => {
        const segments = normalizeWorkspacePath(path);
        const display = segments.join("/");
        if (segments.length === 0) throw rootProtected("patch", path);
        if (seen.has(display)) throw patchInvalid(`'${display}' appears twice in the patch`, "give each file once");
        seen.add(display);
        return { display, segments };
      };
      return {
        operations: operations.map((operation): PreparedPatchOperation => {
          const { display, segments } = checked(operation.path);
          if (operation.kind === "add") return { kind: "add", display, segments, lines: operation.lines };
          if (operation.kind === "delete") return { kind: "delete", display, segments };
          const moveTo = operation.moveTo === undefined ? undefined : checked(operation.moveTo);
          return moveTo === undefined
            ? { kind: "update", display, segments, hunks: operation.hunks }
            : { kind: "update", display, segments, hunks: operation.hunks, moveTo };
        }),
      };
    },
    run: async (input, { signal }) => {
      const { workspace } = await beginCall(getWorkspace, [], signal);
      const tracker = readTrackerOf(workspace);
      // One place decides what is protected (change_policy.ts), asked once per call.
      const protectedPaths = await protectionFor(workspace, options.protectedPaths, signal);
      const held: Resolved[] = [];
      // A move that wrote its new file and then failed to remove the old one: the new file's path. Kept here, not
      // read off the journal's settled entries: with the journal off there are none, and the file must be named.
      let halfMovedTo: string | undefined;
      try {
        // 1. Plan every file: resolved, read, checked and patched in memory. Nothing changes yet.
        // One budget of line comparisons for the whole patch: 64 files may not take 64 times one file's.
        const budget = { stepsLeft: APPLY_PATCH_MAX_MATCH_STEPS };
        const guard = guarded ? tracker : undefined;
        const context = { workspace, protectedPaths, guard, maxFileBytes, signal, held, budget };
        const plans: FilePlan[] = [];
        const changed = new Set<string>();
        for (const operation of input.operations) {
          throwIfAborted(signal);
          const plan = await planFile(operation, context).catch((error: unknown) => {
            if (!isWorkspaceError(error, "NOT_FOUND")) throw error;
            return replayedPlan(operation, context, error);
          });
          for (const path of namedPaths(plan)) {
            // Two spellings of one file (through a link, a linked folder) would change it twice.
            if (changed.has(path)) throw patchInvalid(`'${operation.display}' names a file the patch already changes`);
            changed.add(path);
          }
          plans.push(plan);
        }
        // A file found gone (deleted, moved away) counts as applied only beside files shown already applied.
        const unconfirmed = plans.find((plan) => plan.kind === "unchanged" && plan.unconfirmed !== undefined);
        if (unconfirmed?.kind === "unchanged") {
          const shown = plans.some((plan) => plan.kind === "unchanged" && plan.unconfirmed === undefined);
          if (!shown || plans.some((plan) => plan.kind !== "unchanged")) throw unconfirmed.unconfirmed;
        }

        // 2. Apply, file by file. A failure after a change (the disk, a race: another writer made or changed a
        // file since its check) puts back what this patch changed, from its entries in the change journal.
        const journal = journalOf(workspace);
        const firstEntry = journal.nextSeq;
        const group = currentCallGroup();
        const files: PatchedFile[] = [];
        for (const plan of plans) {
          try {
            throwIfAborted(signal);
            files.push(await apply(plan));
          } catch (error) {
            // This call's own entries: another call's, made meanwhile, are not this patch's to put back.
            const ours = journal.since(firstEntry).filter((entry) => entry.group === group);
            // (A file already applied changed nothing: there is nothing of it to put back.)
            const applied: AppliedFile[] = files.map((file, done) => ({
              shown: file.destination ?? file.path,
              paths: changedPaths(plans[done]),
            })).filter((file) => file.paths.length > 0);
            if (halfMovedTo !== undefined) applied.push({ shown: halfMovedTo, paths: [halfMovedTo] });
            // The file that failed, when its change was made before the failure (its folder's sync after the rename).
            const listed = new Set(applied.flatMap((file) => file.paths));
            for (const path of changedPaths(plan)) {
              const made = ours.some((entry) => entry.settled === true && entry.segments.join("/") === path);
              if (made && !listed.has(path)) applied.push({ shown: path, paths: [path] });
            }
            if (applied.length === 0) throw error;
            throw await putBack(workspace, error, applied, ours);
          }
        }
        return files.every((file) => file.alreadyApplied === true) ? { files, alreadyApplied: true } : { files };
      } finally {
        for (const target of held) await target.release();
      }

      async function apply(plan: FilePlan): Promise<PatchedFile> {
        const { display } = plan;
        if (plan.kind === "unchanged") {
          const { action, destination } = plan;
          return {
            path: display,
            action,
            ...(destination === undefined ? {} : { destination }),
            added: 0,
            removed: 0,
            alreadyApplied: true,
          };
        }
        if (plan.kind === "add") {
          const written = await atomicWrite(workspace, plan.segments, plan.data, {
            signal,
            display,
            rootChecked: true,
            exclusive: true,
            statWritten: true,
            protectedPaths,
            beforeWrite: (target) => assertNotProtected(target.segments, protectedPaths, "patch", display),
          });
          if (written.stat !== undefined) tracker.record(written.segments, written.stat);
          return { path: display, action: "added", added: plan.added, removed: 0 };
        }
        if (plan.kind === "delete") {
          const { folder, name, stat } = plan.target;
          await new TreeRemover(workspace, display, signal).removeEntry(folder, name, stat);
          tracker.forget(plan.target.segments);
          return { path: display, action: "deleted", added: 0, removed: plan.removed };
        }
        const { target, read, data, moveTo } = plan;
        const counts = {
          added: plan.added,
          removed: plan.removed,
          ...(plan.tolerance === undefined ? {} : { tolerance: plan.tolerance }),
          ...(plan.changedSinceRead === undefined ? {} : { changedSinceRead: plan.changedSinceRead }),
        };
        const shown = { first: 1, text: plan.text, complete: true }; // a file the agent patched counts as read, whole
        if (moveTo === undefined) {
          const written = await atomicWrite(workspace, target.segments, data, {
            signal,
            display,
            target,
            statWritten: true,
            protectedPaths,
            sameVersion: true,
            beforeWrite: (now) => {
              if (now.stat === null || !sameVersion(now.stat, read)) throw changedWhile(display);
            },
          });
          if (written.stat !== undefined) tracker.record(written.segments, written.stat, shown);
          return { path: display, action: "updated", ...counts };
        }
        // A move: the old file must still be the version read; the new file first (refused if one
        // appeared), then the old one goes as delete_path removes it (by identity; a change in place
        // between this check and the removal is the window this leaves).
        if (!(await lstatUnchanged(workspace.host, target.hostPath, read, true).catch(() => false))) {
          throw changedWhile(display);
        }
        const written = await atomicWrite(workspace, moveTo.segments, data, {
          signal,
          display: moveTo.display,
          rootChecked: true,
          exclusive: true,
          statWritten: true,
          protectedPaths,
          beforeWrite: (now) => assertNotProtected(now.segments, protectedPaths, "patch", moveTo.display),
        });
        if (written.stat !== undefined) tracker.record(written.segments, written.stat, shown);
        halfMovedTo = written.segments.join("/");
        if (target.name === null || target.stat === null) throw rootProtected("patch", display);
        await new TreeRemover(workspace, display, signal).removeEntry(target.folder, target.name, target.stat);
        halfMovedTo = undefined;
        tracker.forget(target.segments);
        return { path: display, action: "moved", destination: moveTo.display, ...counts };
      }
    },
  });
}

// The file is not the one that was read: the patch would be applied to stale text.
function changedWhile(display: string): WorkspaceError {
  return new WorkspaceError("PATH_CHANGED", `Cannot patch '${display}': the file changed while it was patched`, {
    path: display,
    hint: "read the file again and resend the patch",
  });
}

/** A file the patch changed before it failed: its name as the result shows it, and the paths it changed. */
interface AppliedFile {
  shown: string;
  paths: string[];
}

/**
 * A failure after the patch changed files: they are put back as `restore`
 * puts back a change, from this call's entries in the change journal since
 * the patch began changing files. Only when each changed path has exactly
 * one entry there: a second (with no call scope registered, a concurrent
 * call's change shares the group), or none (the journal off, or over its
 * bound), and nothing is put back. A file changed since by someone else (a
 * concurrent call too) is left as it is now (as `restore` leaves it). Folders made for added files stay. The error says
 * which way each file went: `details.restored` (put back) and
 * `details.applied` (left changed).
 */
async function putBack(
  workspace: Workspace,
  error: unknown,
  applied: readonly AppliedFile[],
  entries: readonly JournalEntry[],
): Promise<unknown> {
  const paths = new Set(applied.flatMap((file) => file.paths));
  const ours = entries.filter((entry) => entry.kind !== "mkdir" && paths.has(entry.segments.join("/")));
  const once = ours.length === paths.size && new Set(ours.map((entry) => entry.segments.join("/"))).size === paths.size;
  const putBackPaths = new Set<string>();
  if (once && ours.every((entry) => entry.settled === true)) {
    const result = await restoreEntries(workspace, ours).catch(() => null);
    for (const change of result?.changes ?? []) if (change.status === "restored") putBackPaths.add(change.path);
  }
  if (!isWorkspaceError(error)) return error;
  const isBack = (file: AppliedFile) => file.paths.every((path) => putBackPaths.has(path));
  const restored = applied.filter(isBack).map((file) => file.shown);
  const left = applied.filter((file) => !isBack(file)).map((file) => file.shown);
  const list = (shown: readonly string[]) => shown.map((path) => `'${path}'`).join(", ");
  const said = left.length === 0
    ? `the files it had changed are put back: ${list(restored)}`
    : restored.length === 0
    ? `already applied: ${list(left)}`
    : `put back: ${list(restored)}; already applied: ${list(left)}`;
  return new WorkspaceError(error.code, `${error.message} (${said})`, {
    path: error.path,
    hint: error.hint,
    cause: error,
    details: {
      ...error.details,
      ...(restored.length > 0 ? { restored } : {}),
      ...(left.length > 0 ? { applied: left } : {}),
    },
  });
}
