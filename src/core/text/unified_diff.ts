import { FILE_HEADERS_ONLY, formatPatch, type StructuredPatch, structuredPatch } from "diff";
import { EDIT_FILE_MAX_DIFF_EDITS } from "../limits.ts";

/** Lines of context around each change in a diff. */
const CONTEXT_LINES = 3;

// Splits after every "\n", keeping it (a "\r" before it stays on the line).
function linesOf(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    lines.push(text.slice(start, at + 1));
    start = at + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/**
 * A unified diff of `before` → `after` (headers `--- name` / `+++ name`, three
 * lines of context), the same text as the `diff` package's `createPatch`.
 * Lines that both texts share at the start and at the end are left out of the
 * comparison (beyond the context), so an edit in a large file costs what its
 * changed region costs. A region that needs more than
 * {@link EDIT_FILE_MAX_DIFF_EDITS} line edits is shown as one hunk: its old
 * lines removed, its new lines added (still a diff that applies; the search
 * for a shorter one would cost the edit count times the region's length).
 *
 * @param name The file name for the headers.
 * @param before The old text.
 * @param after The new text.
 * @returns The diff; only the headers when nothing changed.
 */
export function unifiedDiff(name: string, before: string, after: string): string {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const from = Math.max(0, head - CONTEXT_LINES);
  const cut = Math.max(0, tail - CONTEXT_LINES);
  const oldLines = a.slice(from, a.length - cut);
  const newLines = b.slice(from, b.length - cut);
  const patch = structuredPatch(name, name, oldLines.join(""), newLines.join(""), undefined, undefined, {
    context: CONTEXT_LINES,
    maxEditLength: EDIT_FILE_MAX_DIFF_EDITS,
  }) ?? wholeRegion(name, oldLines, newLines, head - from, tail - cut);
  for (const hunk of patch.hunks) {
    hunk.oldStart += from;
    hunk.newStart += from;
  }
  return formatPatch(patch, FILE_HEADERS_ONLY);
}

// One hunk over the region: `lead` shared lines, the old lines removed, the new ones added, `trail` shared lines.
function wholeRegion(name: string, before: string[], after: string[], lead: number, trail: number): StructuredPatch {
  const lines: string[] = [];
  const push = (mark: string, line: string) => {
    if (line.endsWith("\n")) lines.push(mark + line.slice(0, -1));
    else lines.push(mark + line, "\\ No newline at end of file");
  };
  for (const line of before.slice(0, lead)) push(" ", line);
  for (const line of before.slice(lead, before.length - trail)) push("-", line);
  for (const line of after.slice(lead, after.length - trail)) push("+", line);
  for (const line of before.slice(before.length - trail)) push(" ", line);
  return {
    oldFileName: name,
    newFileName: name,
    oldHeader: undefined,
    newHeader: undefined,
    hunks: [{
      // The region's first line on each side (formatPatch writes the line before for a side with none).
      oldStart: 1,
      oldLines: before.length,
      newStart: 1,
      newLines: after.length,
      lines,
    }],
  };
}
