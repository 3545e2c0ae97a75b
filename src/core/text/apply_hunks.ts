/**
 * Applies the hunks of one `*** Update File:` to a file's text, in memory:
 * every hunk is located (in order, each after the previous) before anything
 * is replaced, so a hunk that matches nowhere fails the whole file.
 *
 * @module
 */
import type { PatchHunk } from "./parse_patch.ts";
import { APPLY_PATCH_MAX_MATCH_STEPS } from "../limits.ts";
import {
  INDENTATION_PASS,
  LineIndex,
  type MatchBudget,
  SEEK_TOLERANCES,
  SeekBudgetExceeded,
  seekLines,
  type SeekResult,
  type SeekTolerance,
} from "./seek_lines.ts";
import { joinFileLines, type OutputLine, splitFileLines } from "./_file_lines.ts";
import { type HunkOp, hunkOps, newSide, oldSide, replacementLines, withoutTrailingBlank } from "./_hunk_ops.ts";
import {
  hunkAmbiguous,
  hunkBudgetExceeded,
  type HunkLabel,
  hunkNotFound,
  hunksPartlyApplied,
} from "./_hunk_not_found.ts";

/** The patched text and what changed. */
export interface AppliedHunks {
  /** The new text (line ends and a final newline as the file had them). */
  text: string;
  /** Lines added. */
  added: number;
  /** Lines removed. */
  removed: number;
  /** Whether a hunk matched only with a whitespace- or look-alike-tolerant comparison. */
  fuzzy: boolean;
  /** The loosest difference a hunk (or its `@@` line) was matched past; absent for exact matches. */
  tolerance?: SeekTolerance;
  /**
   * `true` when every hunk was applied already: each one's new lines are in the file and its old ones are not
   * (a patch sent twice). `text` is then the file's text, unchanged, and the counts are 0.
   */
  alreadyApplied?: boolean;
}

/**
 * Applies `hunks` to `text`. Lines are compared as in {@link seekLines};
 * a hunk that matches only with its indentation ignored must match at one
 * place, and its added lines are indented as the file indents. Lines the
 * patch keeps (` `) are the file's own, with their own line ends; new lines
 * get the file's usual one (CRLF when most lines have it), and a final
 * newline is kept or left out as before. A hunk of added lines only goes
 * after its `@@` line, at its unified diff line number, or else at the end
 * of the file (and the next hunk is still looked for after the previous one).
 *
 * @param text The file's current text (no BOM).
 * @param hunks The hunks, in file order.
 * @param display The file's path, for messages.
 * @returns The new text and the counts.
 * @throws {WorkspaceError} `PATCH_HUNK_NOT_FOUND`, naming the hunk, the nearest lines that almost match and the first that differs.
 *
 * @example Changing one line
 * ```ts
 * import { applyHunks } from "@paddock/tools/patch";
 * const { text } = applyHunks("a\nb\nc\n", [{ oldLines: ["b"], newLines: ["B"], endOfFile: false }], "x.txt");
 * text; // "a\nB\nc\n"
 * ```
 */
export function applyHunks(text: string, hunks: readonly PatchHunk[], display: string): AppliedHunks {
  return applyHunksWithin(text, hunks, display, { stepsLeft: APPLY_PATCH_MAX_MATCH_STEPS });
}

/** Where one hunk goes: the file lines it replaces, and what it puts there. */
interface Placement {
  start: number;
  length: number;
  out: OutputLine[];
  added: number;
  removed: number;
}

/**
 * {@link applyHunks} spending steps from `budget`, which the files of one patch share
 * (`apply_patch` gives each call {@link APPLY_PATCH_MAX_MATCH_STEPS}).
 *
 * @param text The file's current text (no BOM).
 * @param hunks The hunks, in file order.
 * @param display The file's path, for messages.
 * @param budget The steps left (line comparisons and lines folded); spent here.
 * @returns The new text and the counts.
 * @throws {WorkspaceError} `PATCH_HUNK_NOT_FOUND`, also when the budget runs out.
 */
export function applyHunksWithin(
  text: string,
  hunks: readonly PatchHunk[],
  display: string,
  budget: MatchBudget,
): AppliedHunks {
  const file = splitFileLines(text);
  const { lines, ends } = file;
  const index = new LineIndex(lines, budget);

  // 1. Locate every hunk; nothing is replaced until all are found.
  const placements: Placement[] = [];
  /** Hunks whose new lines are in place and old lines gone, with where they are; and the added-only hunks. */
  const applied: { number: number; start: number }[] = [];
  const addOnly: { number: number; lines: string[] }[] = [];
  let at = 0;
  let loosest = 0;
  for (const [number, hunk] of hunks.entries()) {
    const label: HunkLabel = { display, number: number + 1, total: hunks.length };
    if (hunk.context !== undefined && hunk.context.trim() !== "") {
      const found = seek(label, () => seekLines(index, [hunk.context as string], at, false));
      if (found === undefined) throw hunkNotFound(label, lines, [hunk.context], "its '@@' context line", at);
      loosest = Math.max(loosest, found.pass ?? 0);
      at = found.index + 1;
    }
    let ops = hunkOps(hunk);
    if (ops.every((op) => op.mark === "+")) {
      // Only additions: after the '@@' line, at the unified diff's line, or at the end of the file, which does
      // not move where the next hunk is looked for (as Codex places them).
      const start = hunk.context !== undefined
        ? at
        : hunk.oldStart !== undefined
        ? Math.min(Math.max(hunk.oldStart, at), lines.length)
        : lines.length;
      const out = ops.map((op): OutputLine => ({ text: op.text }));
      placements.push({ start, length: 0, out, added: out.length, removed: 0 });
      addOnly.push({ number: number + 1, lines: newSide(ops) });
      if (hunk.context !== undefined || hunk.oldStart !== undefined) at = start;
      continue;
    }
    let found = seek(label, () => locate(index, oldSide(ops), at, hunk));
    if (found === undefined) {
      // A trailing blank line in the hunk stands for the file's final newline.
      const trimmed = withoutTrailingBlank(ops);
      if (trimmed !== undefined && trimmed.some((op) => op.mark !== "+")) {
        found = seek(label, () => locate(index, oldSide(trimmed), at, hunk));
        if (found !== undefined) ops = trimmed;
      }
    }
    if (found !== undefined && found.also !== undefined) throw hunkAmbiguous(label, found.index, found.also);
    if (found === undefined) {
      const replayed = seek(label, () => appliedAlready(index, ops, at));
      if (replayed === undefined) throw hunkNotFound(label, lines, hunk.oldLines, "its lines", at);
      applied.push({ number: number + 1, start: replayed });
      at = replayed + newSide(ops).length;
      continue;
    }
    const pass = found.pass ?? (found.tolerant ? 1 : 0);
    loosest = Math.max(loosest, pass);
    placements.push(place(ops, file, found.index, pass >= INDENTATION_PASS));
    at = found.index + oldSide(ops).length;
  }

  // 2. A patch sent again: every hunk already in place (nothing changes), or some in place and others missing.
  if (applied.length > 0) {
    const missing = placements.length - addOnly.length;
    const addsThere = addOnly.every((hunk) =>
      seek({ display, number: hunk.number, total: hunks.length }, () => seekLines(index, hunk.lines, 0, false)) !==
        undefined
    );
    if (missing > 0 || !addsThere) {
      const first = applied[0];
      throw hunksPartlyApplied(
        { display, number: first.number, total: hunks.length },
        applied.map((hunk) => hunk.number),
        first.start + 1,
      );
    }
    return { text, added: 0, removed: 0, fuzzy: false, alreadyApplied: true };
  }

  // 3. Replace, last first, so earlier indices stay valid (added-only hunks at the end sort after the rest).
  const out: OutputLine[] = lines.map((line, offset) => ({ text: line, end: ends[offset] }));
  let added = 0;
  let removed = 0;
  const ordered = placements.map((placement, order) => ({ placement, order }))
    .sort((a, b) => a.placement.start - b.placement.start || a.order - b.order);
  for (const { placement } of ordered.reverse()) {
    out.splice(placement.start, placement.length, ...placement.out);
    added += placement.added;
    removed += placement.removed;
  }
  const tolerance = SEEK_TOLERANCES[loosest];
  return {
    text: joinFileLines(out, file),
    added,
    removed,
    fuzzy: loosest > 0,
    ...(tolerance === undefined ? {} : { tolerance }),
  };
}

/** The hunk at `start`: the file lines it covers, what replaces them, and its counts. */
function place(
  ops: readonly HunkOp[],
  file: { lines: string[]; ends: string[] },
  start: number,
  reindent: boolean,
): Placement {
  const length = ops.filter((op) => op.mark !== "+").length;
  return {
    start,
    length,
    out: replacementLines(ops, file.lines, file.ends, start, reindent),
    added: ops.filter((op) => op.mark === "+").length,
    removed: ops.filter((op) => op.mark === "-").length,
  };
}

/**
 * Where the hunk's new lines are at or after `at` (exactly, at one place), when its old lines are nowhere in the
 * file (the hunk was applied already); `undefined` otherwise, and for a hunk whose new side is empty or its old
 * side.
 */
function appliedAlready(index: LineIndex, ops: readonly HunkOp[], at: number): number | undefined {
  const after = newSide(ops);
  if (after.length === 0 || !ops.some((op) => op.mark !== " ")) return undefined;
  // Exactly, and at one place: lines that occur all over the file say nothing about this hunk.
  const found = seekLines(index, after, at, false);
  if (found === undefined || (found.pass ?? 0) > 0) return undefined;
  const again = seekLines(index, after, found.index + 1, false);
  if (again !== undefined && (again.pass ?? 0) === 0) return undefined;
  return seekLines(index, oldSide(ops), 0, false) === undefined ? found.index : undefined;
}

/** A search, its budget running out said as the hunk not found (the file is left as it was). */
function seek<T>(label: HunkLabel, search: () => T): T {
  try {
    return search();
  } catch (error) {
    if (!(error instanceof SeekBudgetExceeded)) throw error;
    throw hunkBudgetExceeded(label);
  }
}

function locate(lines: LineIndex, pattern: readonly string[], at: number, hunk: PatchHunk): SeekResult | undefined {
  // A unified diff's line number is where to look first; the patch's order is the fallback.
  if (hunk.oldStart !== undefined && hunk.oldStart - 1 > at) {
    const near = seekLines(lines, pattern, hunk.oldStart - 1, hunk.endOfFile, true);
    if (near !== undefined) return near;
  }
  return seekLines(lines, pattern, at, hunk.endOfFile, true);
}
