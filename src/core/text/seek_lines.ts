// Where a run of lines occurs in a file's lines: exact first, then ever more tolerant (as Codex's seek_sequence).
import { LOOKALIKES } from "./tolerant_match.ts";

const LOOKALIKE = new RegExp(`[${Object.keys(LOOKALIKES).join("")}]`, "g");

/** Comparisons tried in turn; the first that finds the run wins. */
const PASSES: readonly ((line: string) => string)[] = [
  (line) => line,
  (line) => line.trimEnd(),
  (line) => line.trim(),
  normalizeLine,
];

/** A line for the loosest comparison: trimmed, look-alike quotes, dashes and spaces made ASCII. */
export function normalizeLine(line: string): string {
  return line.trim().replace(LOOKALIKE, (char) => LOOKALIKES[char]);
}

/** Where {@link seekLines} found the run, and whether only a tolerant comparison matched. */
export interface SeekResult {
  /** Index of the first matching line. */
  index: number;
  /** `false` for an exact match. */
  tolerant: boolean;
}

/**
 * Finds `pattern` in `lines` at or after `from`: compared exactly, then
 * ignoring trailing whitespace, then ignoring leading and trailing
 * whitespace, then also look-alike characters. With `endOfFile`, a run that
 * ends the file is tried first.
 *
 * @param lines The file's lines.
 * @param pattern The lines to find (not empty).
 * @param from The first index a match may start at.
 * @param endOfFile Try the run at the end of the file first.
 * @returns The first match, or `undefined`.
 */
export function seekLines(
  lines: readonly string[],
  pattern: readonly string[],
  from: number,
  endOfFile: boolean,
): SeekResult | undefined {
  const last = lines.length - pattern.length;
  if (last < from) return undefined;
  for (const [pass, fold] of PASSES.entries()) {
    const wanted = pattern.map(fold);
    const folded = pass === 0 ? lines : lines.map(fold);
    const matchesAt = (start: number) => wanted.every((line, offset) => folded[start + offset] === line);
    if (endOfFile && matchesAt(last)) return { index: last, tolerant: pass > 0 };
    for (let start = from; start <= last; start++) {
      if (matchesAt(start)) return { index: start, tolerant: pass > 0 };
    }
  }
  return undefined;
}
