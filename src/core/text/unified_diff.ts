import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";

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
 * changed region costs.
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
  const patch = structuredPatch(
    name,
    name,
    a.slice(from, a.length - cut).join(""),
    b.slice(from, b.length - cut).join(""),
    undefined,
    undefined,
    { context: CONTEXT_LINES },
  );
  for (const hunk of patch.hunks) {
    hunk.oldStart += from;
    hunk.newStart += from;
  }
  return formatPatch(patch, FILE_HEADERS_ONLY);
}
