import { LOOKALIKES } from "./tolerant_match.ts";

/** Where an `old_string` that matched nowhere comes closest, for `EDIT_NOT_FOUND`'s details. */
export interface NearestRegion {
  /** The region's first line, 1-based. */
  startLine: number;
  /** Its last line. */
  endLine: number;
  /** Lines of `old_string` found there as they are (exactly). */
  matchedLines: number;
  /** Lines of `old_string`. */
  oldLines: number;
  /** The first line that differs, with tabs (`→`), spaces (`·`) and carriage returns (`␍`) made visible. */
  firstDifference?: { line: number; expected: string; found: string };
  /** The region's text as it is (its first {@link SHOWN_LINES} lines). */
  text: string;
}

// Lines of the region shown; occurrences of one line value followed (a `}` on every tenth line casts no more votes).
const SHOWN_LINES = 40;
const MAX_OCCURRENCES = 64;

// A line compared loosely: blanks trimmed and folded, look-alikes made ASCII.
function loose(line: string): string {
  let out = "";
  for (const char of line.replace(/\r$/, "").trim().replace(/[ \t\u00a0\u2007\u202f]+/g, " ")) {
    out += LOOKALIKES[char] ?? char;
  }
  return out;
}

/** A line with its whitespace visible. */
export function visibleWhitespace(line: string): string {
  return line.replaceAll("\t", "→").replaceAll(" ", "·").replaceAll("\r", "␍");
}

/**
 * The region of `text` most like `needle`: each needle line found (loosely:
 * blanks and look-alikes folded) in the text votes for the region that would
 * put it there; the region with most votes wins. Linear in the text and the
 * needle, bounded per repeated line.
 *
 * @param text The file's text.
 * @param needle The `old_string` that was not found.
 * @returns The nearest region, or `undefined` when no line of the needle is in the text.
 */
export function nearestRegion(text: string, needle: string): NearestRegion | undefined {
  const lines = text.split("\n");
  const wanted = needle.split("\n");
  if (wanted.length > 1 && wanted[wanted.length - 1] === "") wanted.pop();
  const where = new Map<string, number[]>();
  for (const [index, line] of lines.entries()) {
    const key = loose(line);
    if (key === "") continue;
    const at = where.get(key);
    if (at === undefined) where.set(key, [index]);
    else if (at.length < MAX_OCCURRENCES) at.push(index);
  }
  const votes = new Map<number, number>();
  let best = -1;
  let bestVotes = 0;
  for (const [j, line] of wanted.entries()) {
    for (const index of where.get(loose(line)) ?? []) {
      const start = index - j;
      const count = (votes.get(start) ?? 0) + 1;
      votes.set(start, count);
      if (count > bestVotes || (count === bestVotes && start < best)) [best, bestVotes] = [start, count];
    }
  }
  if (bestVotes === 0) return undefined;
  const from = Math.max(0, best);
  const to = Math.min(lines.length, best + wanted.length);
  let matchedLines = 0;
  let firstDifference: NearestRegion["firstDifference"];
  for (let j = 0; j < wanted.length; j++) {
    const index = best + j;
    const found = index >= 0 && index < lines.length ? lines[index] : undefined;
    if (found !== undefined && found.replace(/\r$/, "") === wanted[j].replace(/\r$/, "")) matchedLines++;
    else if (firstDifference === undefined) {
      firstDifference = {
        line: index + 1,
        expected: visibleWhitespace(wanted[j]),
        found: found === undefined ? "(past the end of the file)" : visibleWhitespace(found),
      };
    }
  }
  const region: NearestRegion = {
    startLine: from + 1,
    endLine: Math.max(from + 1, to),
    matchedLines,
    oldLines: wanted.length,
    text: lines.slice(from, Math.min(to, from + SHOWN_LINES)).join("\n"),
  };
  if (firstDifference !== undefined) region.firstDifference = firstDifference;
  return region;
}
