// Where a run of lines that matched nowhere comes closest in a file: shared by edit_file's EDIT_NOT_FOUND and
// apply_patch's PATCH_HUNK_NOT_FOUND, which differ only in how lines compare and what a too-common line counts.

/** A line occurring more often than this in the file is too common to say where a run of lines was meant to go. */
export const NEAREST_MAX_OCCURRENCES = 64;

/** How {@link nearestWindow} compares and counts. */
export interface NearestWindowOptions {
  /** A line's comparison key: lines with equal keys match; a line whose key is `""` never votes. */
  key: (line: string) => string;
  /**
   * A pattern line found more than {@link NEAREST_MAX_OCCURRENCES} times in the file: `"ignore"` gives it no vote,
   * `"first"` lets its first occurrences vote (a `}` on every tenth line casts no more votes than that).
   */
  common: "ignore" | "first";
  /** Moves a window that would start before the file or run past its end inside it. */
  inside: boolean;
}

/**
 * The window of `lines` most like `pattern`: each pattern line found in the file votes for the start that would
 * put it there, and the start with most votes wins (the first one on a tie). Linear in the file and the pattern,
 * bounded per repeated line.
 *
 * @param lines The file's lines.
 * @param pattern The lines that were looked for.
 * @param options How lines compare and what a too-common line counts.
 * @returns The window's 0-based start (it may be negative without `inside`) and its votes, or `undefined` when no
 *   pattern line votes.
 *
 * @example
 * ```ts
 * nearestWindow(["a", "b", "c"], ["b", "x"], { key: (line) => line.trim(), common: "first", inside: true });
 * // { start: 1, votes: 1 }
 * ```
 */
export function nearestWindow(
  lines: readonly string[],
  pattern: readonly string[],
  options: NearestWindowOptions,
): { start: number; votes: number } | undefined {
  const { key, common, inside } = options;
  // 1. Where each pattern line occurs in the file (one more than the bound, to tell a too-common line).
  const wanted = new Set(pattern.map(key).filter((line) => line !== ""));
  const positions = new Map<string, number[]>();
  for (const [index, line] of lines.entries()) {
    const found = key(line);
    if (!wanted.has(found)) continue;
    const list = positions.get(found) ?? [];
    if (list.length <= NEAREST_MAX_OCCURRENCES) list.push(index);
    positions.set(found, list);
  }
  // 2. Each occurrence votes for the window that would put its pattern line there.
  const votes = new Map<number, number>();
  for (const [offset, line] of pattern.entries()) {
    let list = positions.get(key(line));
    if (list === undefined) continue;
    if (list.length > NEAREST_MAX_OCCURRENCES) {
      if (common === "ignore") continue;
      list = list.slice(0, NEAREST_MAX_OCCURRENCES);
    }
    for (const index of list) {
      const start = inside ? Math.max(0, Math.min(index - offset, lines.length - pattern.length)) : index - offset;
      votes.set(start, (votes.get(start) ?? 0) + 1);
    }
  }
  // 3. Most votes wins; the first start on a tie.
  let best: { start: number; votes: number } | undefined;
  for (const [start, count] of votes) {
    if (best === undefined || count > best.votes || (count === best.votes && start < best.start)) {
      best = { start, votes: count };
    }
  }
  return best;
}

/** A line with its whitespace visible: tabs as `→`, spaces as `·`, carriage returns as `␍`. */
export function visibleWhitespace(line: string): string {
  return line.replaceAll("\t", "→").replaceAll(" ", "·").replaceAll("\r", "␍");
}
