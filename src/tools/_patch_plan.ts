// apply_patch's first phase: every file of the patch resolved, read, checked and patched in memory, before any change.
import { isWorkspaceError, rootProtected, WorkspaceError } from "../core/errors.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { openCheckedFile, readFully } from "../core/fs/open_checked_file.ts";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { currentOrSeenLines, type ReadTracker, type SeenLines } from "../core/fs/read_tracker.ts";
import { type ChangedLines, checkRegions } from "../core/fs/region_guard.ts";
import type { Resolved, Workspace } from "../core/fs/workspace.ts";
import { applyHunksWithin } from "../core/text/apply_hunks.ts";
import type { MatchBudget } from "../core/text/seek_lines.ts";
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
  | { kind: "add"; display: string; segments: string[]; data: Uint8Array; added: number }
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
    moveTo?: { display: string; segments: string[] };
  };

/** What planning needs besides the operation. */
export interface PlanContext {
  workspace: Workspace;
  protectedPaths: readonly string[];
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
    if (existing !== undefined) {
      assertNotProtected(existing.segments, protectedPaths, "patch", display);
      if (existing.stat !== null) throw fileExists(display, "add");
    }
    const text = operation.lines.length === 0 ? "" : operation.lines.join("\n") + "\n";
    const data = encodeUtf8(text);
    if (data.length > maxFileBytes) {
      throw tooLarge(display, `the new file would have ${data.length} bytes`, maxFileBytes);
    }
    return { kind: "add", display, segments: operation.segments, data, added: operation.lines.length };
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

  const { text: after, added, removed } = applyHunksWithin(
    text,
    operation.hunks,
    display,
    context.budget,
  );
  const elsewhere = seenLines === undefined ? undefined : checkRegions(seenLines, text, after, "patch", display);
  // Written back in the file's own encoding and BOM; a character it cannot hold is refused.
  const data = encodeText(after, form, { display, action: "patch" });
  if (data.length > maxFileBytes) {
    throw tooLarge(display, `the patched file would have ${data.length} bytes`, maxFileBytes);
  }
  const plan: FilePlan = { kind: "update", display, target, read: stat, data, text: after, added, removed };
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
    if (!same) plan.moveTo = moveTo;
  }
  return plan;
}

/** The canonical segments every plan changes, for the check that no file is changed twice. */
export function changedPaths(plan: FilePlan): string[] {
  if (plan.kind === "add") return [plan.segments.join("/")];
  const own = plan.target.segments.join("/");
  return plan.kind === "update" && plan.moveTo !== undefined ? [own, plan.moveTo.segments.join("/")] : [own];
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
