import { LOOKALIKES } from "./tolerant_match.ts";
import { nearestWindow, visibleWhitespace } from "./nearest_window.ts";

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

// Lines of the region shown.
const SHOWN_LINES = 40;

// A line compared loosely: blanks trimmed and folded, look-alikes made ASCII.
function loose(line: string): string {
  let out = "";
  for (const char of line.replace(/\r$/, "").trim().replace(/[ \t\u00a0\u2007\u202f]+/g, " ")) {
    out += LOOKALIKES[char] ?? char;
  }
  return out;
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
  const window = nearestWindow(lines, wanted, { key: loose, common: "first", inside: false });
  if (window === undefined) return undefined;
  const best = window.start;
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
