// apply_patch's first phase: every file of the patch resolved, read, checked and patched in memory, before any change.
import { isWorkspaceError, rootProtected, WorkspaceError } from "../core/errors.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { openCheckedFile, readFully } from "../core/fs/open_checked_file.ts";
import { assertNotProtected, type Protection } from "../core/fs/protected_paths.ts";
import { currentOrSeenLines, type ReadTracker, type SeenLines } from "../core/fs/read_tracker.ts";
import { type ChangedLines, checkRegions } from "../core/fs/region_guard.ts";
import type { Resolved, Workspace } from "../core/fs/workspace.ts";
import { applyHunksWithin } from "../core/text/apply_hunks.ts";
import type { MatchBudget, SeekTolerance } from "../core/text/seek_lines.ts";
import type { PatchHunk } from "../core/text/parse_patch.ts";
import { encodeUtf8 } from "../core/text/utf8.ts";
import { decodeText } from "../core/text/decode_text.ts";
import { encodeText } from "../core/text/encode_text.ts";
import type { TextForm } from "../core/text/text_form.ts";
import type { HostStat } from "../host.ts";

/** One file of a patch, its paths checked by the grammar. */
export type PreparedPatchOperation =
  | { kind: "add"; display: string; segments: string[]; lines: string[] }
  | { kind: "delete"; display: string; segments: string[] }
  | {
    kind: "update";
    display: string;
    segments: string[];
    hunks: PatchHunk[];
    moveTo?: { display: string; segments: string[] };
  };

/** What the second phase does for one file; `target` is held until the patch is done. */
export type FilePlan =
  | {
    kind: "add";
    display: string;
    segments: string[];
    /** The canonical path it resolves to (links on the way followed), what identifies the file in the patch. */
    identity: string;
    data: Uint8Array;
    added: number;
  }
  | { kind: "delete"; display: string; target: Resolved & { name: string; stat: HostStat }; removed: number }
  | {
    kind: "update";
    display: string;
    target: Resolved;
    /** The version read (handle fstat); the write refuses any other. */
    read: HostStat;
    data: Uint8Array;
    /** The patched text (what the stale-write guard remembers as read once it is written). */
    text: string;
    /** With the guard, lines changed since the read outside the hunks (the region check let the patch through). */
    changedSinceRead?: ChangedLines[];
    added: number;
    removed: number;
    /** The loosest difference a hunk was matched past, when not exact. */
    tolerance?: SeekTolerance;
    moveTo?: { display: string; segments: string[]; identity: string };
  }
  | {
    /** The file is already as the patch would make it (a patch sent again): nothing is written. */
    kind: "unchanged";
    display: string;
    action: "added" | "updated" | "moved" | "deleted";
    /** The canonical paths the operation names. */
    identities: string[];
    destination?: string;
    /**
     * Set when nothing shows the change was made, only that its file is gone (a delete of a missing file, a move
     * whose source is missing): the error to give unless the rest of the patch is shown already applied.
     */
    unconfirmed?: unknown;
  };

/** What planning needs besides the operation. */
export interface PlanContext {
  workspace: Workspace;
  protectedPaths: Protection;
  /** The tracker to check existing files against, when the stale-write guard is on. */
  guard: ReadTracker | undefined;
  maxFileBytes: number;
  signal: AbortSignal | undefined;
  /** Targets resolved so far, released by the caller whatever happens. */
  held: Resolved[];
  /** The line comparisons left to locate hunks, shared by the patch's files. */
  budget: MatchBudget;
}

/**
 * Plans one file: resolves it confined, refuses a protected path, an added
 * file that exists, a missing file to change, a file the session has not
 * seen as it is now (with the guard); reads and patches it in memory.
 */
export async function planFile(operation: PreparedPatchOperation, context: PlanContext): Promise<FilePlan> {
  const { workspace, protectedPaths, maxFileBytes } = context;
  const { display } = operation;
  if (operation.kind === "add") {
    assertNotProtected(operation.segments, protectedPaths, "patch", display);
    const existing = await resolveIfPresent(workspace, operation.segments, display, context.held);
    const text = operation.lines.length === 0 ? "" : operation.lines.join("\n") + "\n";
    const data = encodeUtf8(text);
    if (existing !== undefined) {
      assertNotProtected(existing.segments, protectedPaths, "patch", display);
      if (existing.stat !== null) {
        // The same file added again (a patch sent twice) is already applied; any other is in the way.
        if (existing.stat.kind !== "file" || existing.stat.size !== data.length) throw fileExists(display, "add");
        const now = await readText(context, existing, display);
        if (now.text !== text) throw fileExists(display, "add");
        return { kind: "unchanged", display, action: "added", identities: [existing.segments.join("/")] };
      }
    }
    if (data.length > maxFileBytes) {
      throw tooLarge(display, `the new file would have ${data.length} bytes`, maxFileBytes);
    }
    const identity = existing?.segments.join("/") ??
      await identityOfMissing(workspace, operation.segments, display, context.held);
    return { kind: "add", display, segments: operation.segments, identity, data, added: operation.lines.length };
  }

  const target = await workspace.resolve(operation.segments, {
    action: "patch",
    display,
    followFinal: operation.kind === "update", // a link is deleted as a link, never its target
  });
  context.held.push(target);
  assertNotProtected(target.segments, protectedPaths, "patch", display);
  if (target.stat === null || target.name === null) throw rootProtected("patch", display);
  const held = target as Resolved & { name: string; stat: HostStat };
  if (operation.kind === "delete" && target.stat.kind === "symlink") {
    return { kind: "delete", display, target: held, removed: 0 };
  }
  if (target.stat.kind === "file" && target.stat.size > maxFileBytes) {
    throw tooLarge(display, `the file has ${target.stat.size} bytes`, maxFileBytes);
  }
  const { stat, text, form } = await readText(context, target, display);
  // The stale-write guard: a delete on the whole file; an update on its hunks' region (checked once patched).
  let seenLines: SeenLines | undefined;
  if (context.guard !== undefined) {
    if (operation.kind === "delete") context.guard.assertCurrent(target.segments, stat, "delete", display);
    else seenLines = currentOrSeenLines(context.guard, target.segments, stat, "patch", display);
  }
  if (operation.kind === "delete") {
    const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    return { kind: "delete", display, target: held, removed: lines };
  }

  // The BOM is the form's, not the text's: decodeText took it off.
  const patched = applyHunksWithin(text, operation.hunks, display, context.budget);
  const { added, removed, tolerance } = patched;
  const after = patched.text;
  const elsewhere = seenLines === undefined ? undefined : checkRegions(seenLines, text, after, "patch", display);
  // Written back in the file's own encoding and BOM; a character it cannot hold is refused.
  const data = encodeText(after, form, { display, action: "patch" });
  if (data.length > maxFileBytes) {
    throw tooLarge(display, `the patched file would have ${data.length} bytes`, maxFileBytes);
  }
  const plan: FilePlan & { kind: "update" } = {
    kind: "update",
    display,
    target,
    read: stat,
    data,
    text: after,
    added,
    removed,
  };
  if (tolerance !== undefined) plan.tolerance = tolerance;
  if (elsewhere !== undefined && elsewhere.changed.length > 0) plan.changedSinceRead = elsewhere.changed;
  const moveTo = operation.moveTo;
  if (moveTo !== undefined) {
    assertNotProtected(moveTo.segments, protectedPaths, "patch", moveTo.display);
    const destination = await resolveIfPresent(workspace, moveTo.segments, moveTo.display, context.held);
    const same = destination !== undefined && destination.segments.join("/") === target.segments.join("/");
    if (destination !== undefined && !same) {
      assertNotProtected(destination.segments, protectedPaths, "patch", moveTo.display);
      if (destination.stat !== null) throw fileExists(moveTo.display, "move to");
    }
    const identity = destination?.segments.join("/") ??
      await identityOfMissing(workspace, moveTo.segments, moveTo.display, context.held);
    if (!same) plan.moveTo = { ...moveTo, identity };
  }
  if (patched.alreadyApplied === true && plan.moveTo === undefined) {
    return { kind: "unchanged", display, action: "updated", identities: [target.segments.join("/")] };
  }
  return plan;
}

/**
 * A missing file's canonical path: the nearest folder above it that exists, resolved (links followed), and the
 * names below it as written. Two spellings of one new file through a linked folder give the same path.
 */
async function identityOfMissing(
  workspace: Workspace,
  segments: readonly string[],
  display: string,
  held: Resolved[],
): Promise<string> {
  for (let length = segments.length - 1; length > 0; length--) {
    const above = await resolveIfPresent(workspace, segments.slice(0, length), display, held);
    if (above !== undefined) return [...above.segments, ...segments.slice(length)].join("/");
  }
  return segments.join("/");
}

/** The canonical paths a plan changes (none when it is already applied): what is put back after a failure. */
export function changedPaths(plan: FilePlan): string[] {
  if (plan.kind === "unchanged") return [];
  if (plan.kind === "add") return [plan.identity];
  const own = plan.target.segments.join("/");
  return plan.kind === "update" && plan.moveTo !== undefined ? [own, plan.moveTo.identity] : [own];
}

/** The canonical paths a plan names, changed or not: no file may be named twice, however it is spelled. */
export function namedPaths(plan: FilePlan): string[] {
  return plan.kind === "unchanged" ? plan.identities : changedPaths(plan);
}

/** The target resolved (held in `held`), or `undefined` when a folder on the way is missing. */
async function resolveIfPresent(
  workspace: Workspace,
  segments: readonly string[],
  display: string,
  held: Resolved[],
): Promise<Resolved | undefined> {
  try {
    const found = await workspace.resolve(segments, { allowMissing: true, action: "patch", display });
    held.push(found);
    return found;
  } catch (error) {
    if (isWorkspaceError(error, "NOT_FOUND")) return undefined; // its folder does not exist yet
    throw error;
  }
}

async function readText(
  context: PlanContext,
  target: Resolved,
  display: string,
): Promise<{ stat: HostStat; text: string; form: TextForm }> {
  const { file, stat } = await openCheckedFile(context.workspace, target, "patch", display);
  try {
    // One byte more than fstat reported: getting it means the file grew meanwhile.
    const buffer = new Uint8Array(Math.min(stat.size, context.maxFileBytes) + 1);
    const length = await readFully(file, buffer, 0, context.signal);
    if (length !== stat.size) {
      throw new WorkspaceError("PATH_CHANGED", `Cannot patch '${display}': the file changed while it was read`, {
        path: display,
        hint: "read the file again and resend the patch",
      });
    }
    return { stat, ...decodeText(buffer.subarray(0, length), { display, action: "patch" }) };
  } catch (error) {
    throw mapHostError(error, "patch", display);
  } finally {
    await file.close().catch(() => {});
  }
}

function fileExists(display: string, action: string): WorkspaceError {
  return new WorkspaceError("PATCH_FILE_EXISTS", `Cannot ${action} '${display}': the file already exists`, {
    path: display,
    hint: `use '*** Update File: ${display}' to change it, or delete it first; nothing was changed`,
  });
}

function tooLarge(display: string, detail: string, maxBytes: number): WorkspaceError {
  return new WorkspaceError("FILE_TOO_LARGE", `Cannot patch '${display}': ${detail}, more than ${maxBytes}`, {
    path: display,
    hint: `apply_patch handles files up to ${maxBytes} bytes; nothing was changed`,
  });
}

/**
 * A delete whose file is missing, or a move whose source is missing (`error`, their `NOT_FOUND`): already
 * applied when the move's destination has every hunk in place; a delete, or a move without hunks, only when
 * the rest of the patch is shown already applied (`unconfirmed`). Any other case throws `error`.
 */
export async function replayedPlan(
  operation: PreparedPatchOperation,
  context: PlanContext,
  error: unknown,
): Promise<FilePlan> {
  const { display } = operation;
  if (operation.kind === "delete") {
    const identity = await identityOfMissing(context.workspace, operation.segments, display, context.held);
    return { kind: "unchanged", display, action: "deleted", identities: [identity], unconfirmed: error };
  }
  if (operation.kind !== "update" || operation.moveTo === undefined) throw error;
  const moveTo = operation.moveTo;
  const destination = await planFile(
    { kind: "update", display: moveTo.display, segments: moveTo.segments, hunks: operation.hunks },
    context,
  ).catch((failure: unknown) => {
    if (!isWorkspaceError(failure)) throw failure; // an abort is not a replay's answer
    return undefined;
  });
  const identities = destination === undefined ? [] : namedPaths(destination);
  const common = { kind: "unchanged", display, action: "moved", identities, destination: moveTo.display } as const;
  if (destination?.kind === "unchanged") return common;
  if (destination !== undefined && operation.hunks.length === 0) return { ...common, unconfirmed: error };
  throw error;
}
