/**
 * Applies the hunks of one `*** Update File:` to a file's text, in memory:
 * every hunk is located (in order, each after the previous) before anything
 * is replaced, so a hunk that matches nowhere fails the whole file.
 *
 * @module
 */
import { WorkspaceError } from "../errors.ts";
import type { PatchHunk } from "./parse_patch.ts";
import { APPLY_PATCH_MAX_MATCH_STEPS } from "../limits.ts";
import {
  LineIndex,
  type MatchBudget,
  normalizeLine,
  SeekBudgetExceeded,
  seekLines,
  type SeekResult,
} from "./seek_lines.ts";

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
}

/** Lines of the file shown around a near match in a `PATCH_HUNK_NOT_FOUND` error. */
const NEAREST_SHOWN_LINES = 12;
/** A line that occurs more often than this in the file gives no clue where a hunk was meant to go. */
const NEAREST_MAX_OCCURRENCES = 64;

/**
 * Applies `hunks` to `text`. Lines are compared as in {@link seekLines};
 * lines kept keep their own line ends, new lines get the file's usual one
 * (CRLF when most lines have it), and a final newline is kept or left out as
 * before.
 *
 * @param text The file's current text (no BOM).
 * @param hunks The hunks, in file order.
 * @param display The file's path, for messages.
 * @returns The new text and the counts.
 * @throws {WorkspaceError} `PATCH_HUNK_NOT_FOUND`, naming the hunk and the nearest lines that almost match.
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

/**
 * {@link applyHunks} spending line comparisons from `budget`, which the files of one patch share
 * (`apply_patch` gives each call {@link APPLY_PATCH_MAX_MATCH_STEPS}).
 *
 * @param text The file's current text (no BOM).
 * @param hunks The hunks, in file order.
 * @param display The file's path, for messages.
 * @param budget The comparisons left; spent here.
 * @returns The new text and the counts.
 * @throws {WorkspaceError} `PATCH_HUNK_NOT_FOUND`, also when the budget runs out.
 */
export function applyHunksWithin(
  text: string,
  hunks: readonly PatchHunk[],
  display: string,
  budget: MatchBudget,
): AppliedHunks {
  const finalNewline = text === "" || text.endsWith("\n");
  // Each line with its own line end (`raw`, for the lines kept) and without it (`lines`, compared).
  const raw = text === "" ? [] : text.split("\n");
  if (text.endsWith("\n")) raw.pop();
  const lines = raw.map((line) => line.endsWith("\r") ? line.slice(0, -1) : line);
  // New lines get the file's usual line end: CRLF when most lines have it.
  const crlf = raw.filter((line) => line.endsWith("\r")).length * 2 > raw.length;

  // 1. Locate every hunk; nothing is replaced until all are found.
  const index = new LineIndex(lines, budget);
  const replacements: { start: number; length: number; oldLines: string[]; lines: string[] }[] = [];
  let at = 0;
  let fuzzy = false;
  for (const [number, hunk] of hunks.entries()) {
    const label = { display, number: number + 1, total: hunks.length };
    if (hunk.context !== undefined && hunk.context.trim() !== "") {
      const found = seek(label, () => seekLines(index, [hunk.context as string], at, false));
      if (found === undefined) throw notFound(label, lines, [hunk.context], "its '@@' context line");
      fuzzy ||= found.tolerant;
      at = found.index + 1;
    }
    if (hunk.oldLines.length === 0) {
      // Only additions: after the context line, at the unified diff's line, or at the end of the file.
      const start = hunk.context !== undefined
        ? at
        : hunk.oldStart !== undefined
        ? Math.min(Math.max(hunk.oldStart, at), lines.length)
        : lines.length;
      replacements.push({ start, length: 0, oldLines: [], lines: hunk.newLines });
      at = start;
      continue;
    }
    let oldLines = hunk.oldLines;
    let newLines = hunk.newLines;
    let found = seek(label, () => locate(index, oldLines, at, hunk));
    if (found === undefined && oldLines[oldLines.length - 1] === "") {
      // A trailing blank line in the hunk stands for the file's final newline.
      oldLines = oldLines.slice(0, -1);
      newLines = newLines[newLines.length - 1] === "" ? newLines.slice(0, -1) : newLines;
      if (oldLines.length > 0) found = seek(label, () => locate(index, oldLines, at, hunk));
    }
    if (found === undefined) throw notFound(label, lines, hunk.oldLines, "its lines");
    fuzzy ||= found.tolerant;
    replacements.push({ start: found.index, length: oldLines.length, oldLines, lines: newLines });
    at = found.index + oldLines.length;
  }

  // 2. Replace, last first, so earlier indices stay valid.
  let added = 0;
  let removed = 0;
  for (const replacement of [...replacements].reverse()) {
    const { head, tail } = sharedEnds(replacement.oldLines, replacement.lines);
    // Context kept at either end keeps the file's own text (a tolerant match must not re-indent it).
    const fresh = replacement.lines.map((line, offset) =>
      offset < head
        ? raw[replacement.start + offset]
        : offset >= replacement.lines.length - tail
        ? raw[replacement.start + replacement.length - (replacement.lines.length - offset)]
        : crlf
        ? line + "\r"
        : line
    );
    const old = raw.splice(replacement.start, replacement.length, ...fresh);
    const counts = { added: replacement.lines.length - head - tail, removed: old.length - head - tail };
    added += counts.added;
    removed += counts.removed;
  }
  // A file without a final newline keeps none (its last line's `\r`, if any, stays as it was).
  const body = raw.join("\n");
  return { text: raw.length > 0 && finalNewline ? body + "\n" : body, added, removed, fuzzy };
}

/** Lines the hunk keeps unchanged at its start (`head`) and end (`tail`): its leading and trailing context. */
function sharedEnds(old: readonly string[], replacement: readonly string[]): { head: number; tail: number } {
  let head = 0;
  while (head < old.length && head < replacement.length && old[head] === replacement[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head && tail < replacement.length - head &&
    old[old.length - 1 - tail] === replacement[replacement.length - 1 - tail]
  ) tail++;
  return { head, tail };
}

/** A search, its budget running out said as the hunk not found (the file is left as it was). */
function seek(label: HunkLabel, search: () => SeekResult | undefined): SeekResult | undefined {
  try {
    return search();
  } catch (error) {
    if (!(error instanceof SeekBudgetExceeded)) throw error;
    const { display, number, total } = label;
    throw new WorkspaceError(
      "PATCH_HUNK_NOT_FOUND",
      `Cannot apply patch to '${display}': hunk ${number} of ${total} not found within ${APPLY_PATCH_MAX_MATCH_STEPS} line comparisons (the patch's hunks together)`,
      {
        path: display,
        hint:
          "give each hunk a few distinctive context lines (or an '@@' line near the change), and split very large hunks; nothing was changed",
        details: { path: display, hunk: number },
      },
    );
  }
}

function locate(lines: LineIndex, pattern: readonly string[], at: number, hunk: PatchHunk) {
  // A unified diff's line number is where to look first; the patch's order is the fallback.
  if (hunk.oldStart !== undefined && hunk.oldStart - 1 > at) {
    const near = seekLines(lines, pattern, hunk.oldStart - 1, hunk.endOfFile);
    if (near !== undefined) return near;
  }
  return seekLines(lines, pattern, at, hunk.endOfFile);
}

interface HunkLabel {
  display: string;
  number: number;
  total: number;
}

/** The window of the file most like `pattern` (lines equal after trimming), found by voting. */
function nearest(
  lines: readonly string[],
  pattern: readonly string[],
): { start: number; matching: number } | undefined {
  const positions = new Map<string, number[]>();
  const wanted = new Set(pattern.map(normalizeLine).filter((line) => line !== ""));
  for (const [index, line] of lines.entries()) {
    const key = normalizeLine(line);
    if (!wanted.has(key)) continue;
    const list = positions.get(key) ?? [];
    if (list.length <= NEAREST_MAX_OCCURRENCES) list.push(index);
    positions.set(key, list);
  }
  const votes = new Map<number, number>();
  for (const [offset, line] of pattern.entries()) {
    const list = positions.get(normalizeLine(line));
    if (list === undefined || list.length > NEAREST_MAX_OCCURRENCES) continue;
    for (const index of list) {
      const start = Math.max(0, Math.min(index - offset, lines.length - pattern.length));
      votes.set(start, (votes.get(start) ?? 0) + 1);
    }
  }
  let best: { start: number; matching: number } | undefined;
  for (const [start, count] of votes) {
    if (best === undefined || count > best.matching || (count === best.matching && start < best.start)) {
      best = { start, matching: count };
    }
  }
  return best;
}

function notFound(
  label: HunkLabel,
  lines: readonly string[],
  pattern: readonly string[],
  what: string,
): WorkspaceError {
  const { display, number, total } = label;
  const head =
    `Cannot apply patch to '${display}': hunk ${number} of ${total} not found, ${what} match nowhere in the file`;
  const near = nearest(lines, pattern);
  const hint =
    `read '${display}' again and resend the whole patch with context and '-' lines exactly as the file has them (nothing was changed)`;
  if (near === undefined) {
    const wanted = new Set(pattern.map(normalizeLine).filter((line) => line !== ""));
    const detail = lines.length === 0
      ? "the file is empty"
      : lines.some((line) => wanted.has(normalizeLine(line)))
      ? `each line of the hunk that the file has occurs in it more than ${NEAREST_MAX_OCCURRENCES} times`
      : "no line of the hunk occurs in the file";
    return new WorkspaceError("PATCH_HUNK_NOT_FOUND", `${head} (${detail})`, {
      path: display,
      hint,
      details: { path: display, hunk: number },
    });
  }
  const shown = Math.min(Math.max(pattern.length, 1), NEAREST_SHOWN_LINES, lines.length - near.start);
  const nearLines = lines.slice(near.start, near.start + shown).map((line, offset) => ({
    line: near.start + offset + 1,
    text: line,
  }));
  const range = `${near.start + 1}-${near.start + shown}`;
  const listing = nearLines.map((entry) => `${entry.line}: ${entry.text}`).join("\n");
  return new WorkspaceError(
    "PATCH_HUNK_NOT_FOUND",
    `${head}; nearest lines ${range} (${near.matching} of ${pattern.length} lines match):\n${listing}`,
    {
      path: display,
      hint,
      details: {
        path: display,
        hunk: number,
        nearest: { startLine: near.start + 1, matching: near.matching, lines: nearLines },
      },
    },
  );
}
