// A hunk's body as the patch marked it (` ` kept, `-` removed, `+` added), and the new lines it makes at a match.
import type { PatchHunk } from "./parse_patch.ts";
import type { OutputLine } from "./_file_lines.ts";

/** One line of a hunk's body: kept (`" "`), removed (`"-"`) or added (`"+"`). */
export interface HunkOp {
  mark: " " | "-" | "+";
  text: string;
}

/**
 * The hunk's body from its marks. A hunk without marks (built by hand) takes the lines its old and new lists
 * share at each end as its context, the rest as removed and added.
 */
export function hunkOps(hunk: PatchHunk): HunkOp[] {
  const { oldLines, newLines, marks } = hunk;
  if (marks !== undefined && consistent(marks, oldLines.length, newLines.length)) {
    const ops: HunkOp[] = [];
    let old = 0;
    let added = 0;
    for (const mark of marks) {
      if (mark === " ") {
        ops.push({ mark, text: oldLines[old++] });
        added++;
      } else if (mark === "-") ops.push({ mark, text: oldLines[old++] });
      else ops.push({ mark: "+", text: newLines[added++] });
    }
    return ops;
  }
  let head = 0;
  while (head < oldLines.length && head < newLines.length && oldLines[head] === newLines[head]) head++;
  let tail = 0;
  while (
    tail < oldLines.length - head && tail < newLines.length - head &&
    oldLines[oldLines.length - 1 - tail] === newLines[newLines.length - 1 - tail]
  ) tail++;
  return [
    ...oldLines.slice(0, head).map((text): HunkOp => ({ mark: " ", text })),
    ...oldLines.slice(head, oldLines.length - tail).map((text): HunkOp => ({ mark: "-", text })),
    ...newLines.slice(head, newLines.length - tail).map((text): HunkOp => ({ mark: "+", text })),
    ...oldLines.slice(oldLines.length - tail).map((text): HunkOp => ({ mark: " ", text })),
  ];
}

function consistent(marks: string, olds: number, news: number): boolean {
  let old = 0;
  let added = 0;
  for (const mark of marks) {
    if (mark === " ") {
      old++;
      added++;
    } else if (mark === "-") old++;
    else if (mark === "+") added++;
    else return false;
  }
  return old === olds && added === news;
}

/** The lines the file has now (`" "` and `"-"`). */
export function oldSide(ops: readonly HunkOp[]): string[] {
  return ops.filter((op) => op.mark !== "+").map((op) => op.text);
}

/** The lines the file gets (`" "` and `"+"`). */
export function newSide(ops: readonly HunkOp[]): string[] {
  return ops.filter((op) => op.mark !== "-").map((op) => op.text);
}

/**
 * The hunk without the blank line it ends with, which stands for the file's final newline: its last old-side
 * line when blank, and a blank added line after it. `undefined` when the old side does not end blank.
 */
export function withoutTrailingBlank(ops: readonly HunkOp[]): HunkOp[] | undefined {
  const last = lastIndex(ops, (op) => op.mark !== "+");
  if (last < 0 || ops[last].text !== "") return undefined;
  const out = [...ops.slice(0, last), ...ops.slice(last + 1)];
  if (ops[last].mark === "-") {
    const added = lastIndex(out, (op) => op.mark !== "-");
    if (added >= last && out[added].mark === "+" && out[added].text === "") out.splice(added, 1);
  }
  return out;
}

/**
 * The lines that replace the match at `start`: a kept line is the file's own (its text and line end), a removed
 * one goes, an added one is the patch's, re-indented in the file's style when `reindent` (the match ignored
 * indentation).
 */
export function replacementLines(
  ops: readonly HunkOp[],
  lines: readonly string[],
  ends: readonly string[],
  start: number,
  reindent: boolean,
): OutputLine[] {
  const shift = reindent ? indentShift(ops, lines, start) : undefined;
  const out: OutputLine[] = [];
  let at = start;
  for (const [index, op] of ops.entries()) {
    if (op.mark === " ") {
      out.push({ text: lines[at], end: ends[at] });
      at++;
    } else if (op.mark === "-") at++;
    else out.push({ text: shift === undefined ? op.text : shift(index, op.text) });
  }
  return out;
}

/** How an added line's indentation is written in the file's: from the old-side lines nearest it. */
function indentShift(
  ops: readonly HunkOp[],
  lines: readonly string[],
  start: number,
): ((index: number, text: string) => string) | undefined {
  // 1. Each non-blank old-side line: its indentation in the patch and in the file.
  const pairs: { op: number; patch: string; file: string }[] = [];
  let at = start;
  for (const [index, op] of ops.entries()) {
    if (op.mark === "+") continue;
    if (op.text.trim() !== "") pairs.push({ op: index, patch: indentOf(op.text), file: indentOf(lines[at]) });
    at++;
  }
  if (pairs.length === 0 || pairs.every((pair) => pair.patch === pair.file)) return undefined;
  // 2. Tabs for spaces (or spaces for tabs, or 4 spaces a level for 2): the width of one level on each side.
  const fileTabs = pairs.some((pair) => pair.file.includes("\t"));
  const measuredPatch = spaceUnit(pairs.map((pair) => pair.patch));
  const measuredFile = spaceUnit(pairs.map((pair) => pair.file));
  const patchUnit = measuredPatch ?? 4;
  const fileUnit = measuredFile ?? 4;
  const restyle = pairs.some((pair) => hasMixedStyles(pair.patch, pair.file)) ||
    (!fileTabs && measuredPatch !== undefined && measuredFile !== undefined && measuredPatch !== measuredFile);
  const levels = (indent: string, unit: number) =>
    [...indent].reduce((sum, char) => sum + (char === "\t" ? unit : 1), 0) / unit;
  const render = (level: number) =>
    fileTabs ? "\t".repeat(Math.max(0, Math.round(level))) : " ".repeat(Math.max(0, Math.round(level * fileUnit)));
  // 3. An added line: its indentation past its anchor's in the patch, put after the anchor's in the file.
  return (index, text) => {
    const before = lastIndex(pairs, (pair) => pair.op < index);
    const anchor = pairs[Math.max(before, 0)];
    const indent = indentOf(text);
    const body = text.slice(indent.length);
    if (indent.startsWith(anchor.patch)) {
      const rest = indent.slice(anchor.patch.length);
      return anchor.file + (restyle ? render(levels(rest, patchUnit)) : rest) + body;
    }
    const level = levels(anchor.file, fileUnit) - (levels(anchor.patch, patchUnit) - levels(indent, patchUnit));
    return render(level) + body;
  };
}

function lastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let index = items.length - 1; index >= 0; index--) if (test(items[index])) return index;
  return -1;
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}

function hasMixedStyles(a: string, b: string): boolean {
  return (a.includes(" ") && b.includes("\t")) || (a.includes("\t") && b.includes(" "));
}

/** The width of one indentation level among space indents: the smallest step between them (`undefined`: none). */
function spaceUnit(indents: readonly string[]): number | undefined {
  const widths = [...new Set(indents.filter((indent) => !indent.includes("\t")).map((indent) => indent.length))]
    .sort((a, b) => a - b);
  let unit = 0;
  for (const [index, width] of widths.entries()) {
    const step = index === 0 ? width : width - widths[index - 1];
    if (step > 0 && (unit === 0 || step < unit)) unit = step;
  }
  return unit === 0 ? undefined : unit;
}
