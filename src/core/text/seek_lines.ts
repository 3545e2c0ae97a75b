// Where a run of lines occurs in a file's lines: exact first, then ever more tolerant (as Codex's seek_sequence).
// Linear per search (Knuth-Morris-Pratt over interned lines), the file folded once per pass, and one budget of
// steps that both count (comparisons, and the folding of each line): a file of identical lines and a hunk of many
// of them cannot cost quadratic time, and 64 large files folded four times each cannot cost more than the budget.
import { APPLY_PATCH_MAX_MATCH_STEPS } from "../limits.ts";
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

/** What each pass of {@link seekLines} tolerates, in order (`undefined`: nothing, an exact match). */
export const SEEK_TOLERANCES: readonly (SeekTolerance | undefined)[] = [
  undefined,
  "trailing whitespace",
  "indentation",
  "look-alike characters",
];

/** The difference a tolerant pass of {@link seekLines} looked past. */
export type SeekTolerance = "trailing whitespace" | "indentation" | "look-alike characters";

/** The first pass that ignores leading whitespace: its matches must be unique to count (see {@link seekLines}). */
export const INDENTATION_PASS = 2;

/**
 * Steps folding one line costs, besides one per UTF-16 unit of it: interning a line (a map look-up, a trim, a
 * regular expression on the loosest pass) measured at 16 to 20 times one comparison of two ids.
 */
const FOLD_STEPS_PER_LINE = 16;

/** Where {@link seekLines} found the run, and whether only a tolerant comparison matched. */
export interface SeekResult {
  /** Index of the first matching line. */
  index: number;
  /** `false` for an exact match. */
  tolerant: boolean;
  /** The pass that matched: an index into {@link SEEK_TOLERANCES}. */
  pass?: number;
  /**
   * With `unique`, on a pass that ignores indentation: the index of a second match at or after `from`
   * (the match is then ambiguous).
   */
  also?: number;
}

/** The search ran out of its comparison budget (`APPLY_PATCH_MAX_MATCH_STEPS`). */
export class SeekBudgetExceeded extends Error {
  constructor() {
    super("line search budget exhausted");
  }
}

/** Line comparisons a search may still spend; one budget may serve every file of a patch. */
export interface MatchBudget {
  /** Comparisons left before searches throw {@link SeekBudgetExceeded}. */
  stepsLeft: number;
}

/** One file's lines, folded and interned per pass on first use, and the comparisons left. */
export class LineIndex {
  private readonly folded: ({ ids: Int32Array; intern: Map<string, number> } | undefined)[] = [];
  /** The comparisons left, spent by every search of this index (and of others sharing it). */
  readonly budget: MatchBudget;

  constructor(readonly lines: readonly string[], budget: MatchBudget = { stepsLeft: APPLY_PATCH_MAX_MATCH_STEPS }) {
    this.budget = budget;
  }

  /** The file's lines as ids for `pass` (equal folded lines, equal ids); the first use spends the folding. */
  pass(pass: number): { ids: Int32Array; intern: Map<string, number> } {
    let entry = this.folded[pass];
    if (entry === undefined) {
      // Spent before the work: a file too large for what is left costs nothing more.
      let units = 0;
      for (const line of this.lines) units += line.length;
      this.spend(this.lines.length * FOLD_STEPS_PER_LINE + units);
      const fold = PASSES[pass];
      const intern = new Map<string, number>();
      const ids = new Int32Array(this.lines.length);
      for (const [index, line] of this.lines.entries()) {
        const key = fold(line);
        let id = intern.get(key);
        if (id === undefined) {
          id = intern.size;
          intern.set(key, id);
        }
        ids[index] = id;
      }
      entry = { ids, intern };
      this.folded[pass] = entry;
    }
    return entry;
  }

  spend(steps: number): void {
    this.budget.stepsLeft -= steps;
    if (this.budget.stepsLeft < 0) throw new SeekBudgetExceeded();
  }
}

/**
 * Finds `pattern` in `lines` at or after `from`: compared exactly, then
 * ignoring trailing whitespace, then ignoring leading and trailing
 * whitespace, then also look-alike characters. With `endOfFile`, a run that
 * ends the file is tried first.
 *
 * @param lines The file's lines, or a {@link LineIndex} of them (shared by the searches of one file).
 * @param pattern The lines to find (not empty).
 * @param from The first index a match may start at.
 * @param endOfFile Try the run at the end of the file first.
 * @param unique On a pass that ignores indentation, also look for a second match (`also`). @default false
 * @returns The first match, or `undefined`.
 * @throws {SeekBudgetExceeded} When the index's comparison budget runs out.
 */
export function seekLines(
  lines: readonly string[] | LineIndex,
  pattern: readonly string[],
  from: number,
  endOfFile: boolean,
  unique = false,
): SeekResult | undefined {
  const index = lines instanceof LineIndex ? lines : new LineIndex(lines);
  const length = index.lines.length;
  const last = length - pattern.length;
  if (last < from) return undefined;
  if (pattern.length === 0) return { index: endOfFile ? last : from, tolerant: false, pass: 0 };
  for (const [pass, fold] of PASSES.entries()) {
    const { ids, intern } = index.pass(pass);
    // A pattern line that no line of the file folds to: no match in this pass, at no cost.
    const wanted = new Int32Array(pattern.length);
    let absent = false;
    for (const [offset, line] of pattern.entries()) {
      const id = intern.get(fold(line));
      if (id === undefined) {
        absent = true;
        break;
      }
      wanted[offset] = id;
    }
    index.spend(pattern.length);
    if (absent) continue;
    if (endOfFile) {
      // Anchored at the end: the anchor makes it unique.
      index.spend(pattern.length);
      if (wanted.every((id, offset) => ids[last + offset] === id)) return { index: last, tolerant: pass > 0, pass };
    }
    const found = firstOccurrence(ids, wanted, from, index);
    if (found === undefined) continue;
    const result: SeekResult = { index: found, tolerant: pass > 0, pass };
    if (unique && pass >= INDENTATION_PASS) {
      const also = firstOccurrence(ids, wanted, found + 1, index);
      if (also !== undefined) result.also = also;
    }
    return result;
  }
  return undefined;
}

/** Knuth-Morris-Pratt: the first start at or after `from` where `pattern` occurs in `text`; O(text + pattern). */
function firstOccurrence(text: Int32Array, pattern: Int32Array, from: number, index: LineIndex): number | undefined {
  const m = pattern.length;
  const failure = new Int32Array(m);
  for (let i = 1, k = 0; i < m; i++) {
    while (k > 0 && pattern[i] !== pattern[k]) k = failure[k - 1];
    if (pattern[i] === pattern[k]) k++;
    failure[i] = k;
  }
  index.spend(2 * m);
  let k = 0;
  let steps = 0;
  for (let i = from; i < text.length; i++) {
    while (k > 0 && text[i] !== pattern[k]) {
      k = failure[k - 1];
      steps++;
    }
    if (text[i] === pattern[k]) k++;
    steps++;
    if (k === m) {
      index.spend(steps);
      return i - m + 1;
    }
    if (steps >= 65_536) {
      index.spend(steps);
      steps = 0;
    }
  }
  index.spend(steps);
  return undefined;
}
