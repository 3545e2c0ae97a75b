import { WorkspaceError } from "../errors.ts";
import { findTolerantMatches, LOOKALIKES, type TextRange } from "./tolerant_match.ts";
import { nearestRegion } from "./nearest_region.ts";
import { reindent } from "./reindent.ts";

/** One replacement. */
export interface EditOperation {
  /** The text to find (non-empty). */
  oldString: string;
  /** Its replacement. */
  newString: string;
  /** Replace every match instead of requiring exactly one. */
  replaceAll: boolean;
}

/** What {@link applyEdits} gives: the new text and what it did. */
export interface AppliedEdits {
  /** The text after every edit. */
  text: string;
  /** Matches replaced, over all edits. */
  replacements: number;
  /** Whether an edit matched only with the whitespace- and quote-tolerant comparison. */
  fuzzy: boolean;
  /**
   * What the tolerant matches tolerated, when there were any: `indentation` (tabs for spaces, another depth:
   * the replacement took the file's), `whitespace` (blanks inside or after lines), `lookalikes` (curly quotes,
   * dashes), joined with `+`.
   */
  tolerance?: string;
  /** Edits skipped because their `old_string` is gone and their `new_string` is already there. */
  alreadyApplied: number;
}

// What a tolerant match differs in from the needle.
function toleranceOf(needle: string, matched: string): string[] {
  const found: string[] = [];
  const a = needle.split("\n");
  const b = matched.split("\n");
  const indentOf = (line: string) => /^[ \t]*/.exec(line)?.[0] ?? "";
  if (a.some((line, i) => b[i] !== undefined && line.trim() !== "" && indentOf(line) !== indentOf(b[i]))) {
    found.push("indentation");
  }
  const ascii = (line: string) => [...line].map((char) => LOOKALIKES[char] ?? char).join("");
  const blanks = (line: string) => line.trim().replace(/[ \t\u00a0\u2007\u202f]+/g, " ");
  if (
    a.some((line, i) =>
      b[i] !== undefined && blanks(line) !== blanks(b[i]) && blanks(ascii(line)) === blanks(ascii(b[i]))
    )
  ) {
    found.push("lookalikes");
  }
  if (
    a.some((line, i) => b[i] !== undefined && line.trimStart() !== b[i].trimStart() && blanks(line) === blanks(b[i]))
  ) {
    found.push("whitespace");
  }
  return found;
}

/** How an error names edit `index`: `old_string` for a single edit, `edits[i].old_string` among several. */
export function editLabel(edits: readonly EditOperation[], index: number): string {
  return edits.length === 1 ? "old_string" : `edits[${index}].old_string`;
}

// The file's line ending: CRLF when most line breaks are CRLF, LF when it has
// any other, none for a single line.
function lineEndingOf(text: string): "\r\n" | "\n" | null {
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) {
    if (at > 0 && text[at - 1] === "\r") crlf++;
    else lf++;
  }
  if (crlf === 0 && lf === 0) return null;
  return crlf > lf ? "\r\n" : "\n";
}

function withLineEnding(text: string, eol: "\r\n" | "\n" | null): string {
  if (eol === null) return text;
  return eol === "\r\n" ? text.replace(/\r?\n/g, "\r\n") : text.replace(/\r\n/g, "\n");
}

function exactMatches(text: string, needle: string): TextRange[] {
  const ranges: TextRange[] = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) {
    ranges.push({ start: at, end: at + needle.length });
  }
  return ranges;
}

// Line numbers of an ambiguous old_string's matches quoted in EDIT_NOT_UNIQUE.
const SHOWN_MATCH_LINES = 20;

function lineNumbers(text: string, ranges: readonly TextRange[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let scanned = 0;
  for (const { start } of ranges) {
    for (let at = text.indexOf("\n", scanned); at >= 0 && at < start; at = text.indexOf("\n", at + 1)) {
      line++;
      scanned = at + 1;
    }
    lines.push(line);
  }
  return lines;
}

/**
 * Applies `edits` in order to `text`, each to the result of the one before, all
 * or nothing; pure: no I/O. An `oldString` is matched exactly, else with the
 * whitespace- and quote-tolerant comparison (only the matched range is
 * replaced); both strings take the text's line ending (CRLF or LF).
 *
 * @param text The file's text, without a byte order mark.
 * @param edits The replacements.
 * @param display The workspace-relative path, for error messages.
 * @returns The new text, the number of replacements and whether any was tolerant.
 * @throws {WorkspaceError} `EDIT_NOT_FOUND` when an `oldString` is not there;
 * `EDIT_NOT_UNIQUE` when it matches more than once without `replaceAll`,
 * naming the lines.
 *
 * @example Replacing one line
 * ```ts
 * const { text } = applyEdits("a\r\nb\r\n", [{ oldString: "b\n", newString: "c\n", replaceAll: false }], "f.txt");
 * text; // "a\r\nc\r\n"
 * ```
 */
export function applyEdits(
  text: string,
  edits: readonly EditOperation[],
  display: string,
): AppliedEdits {
  const eol = lineEndingOf(text);
  let replacements = 0;
  let fuzzy = false;
  let alreadyApplied = 0;
  const tolerated = new Set<string>();
  for (const [index, edit] of edits.entries()) {
    const label = editLabel(edits, index);
    const needle = withLineEnding(edit.oldString, eol);
    const replacement = withLineEnding(edit.newString, eol);
    let ranges = exactMatches(text, needle);
    if (ranges.length === 0 && needle !== edit.oldString) ranges = exactMatches(text, edit.oldString); // mixed endings
    let tolerant = false;
    if (ranges.length === 0) {
      ranges = findTolerantMatches(text, needle);
      tolerant = ranges.length > 0;
      if (tolerant) fuzzy = true;
    }
    if (ranges.length === 0) {
      // Replayed: the old text is gone and the new one is there. Nothing to do.
      if (replacement.trim() !== "" && (text.includes(replacement) || text.includes(edit.newString))) {
        alreadyApplied++;
        continue;
      }
      throw notFound(text, needle, label, index, display);
    }
    if (ranges.length > 1 && !edit.replaceAll) {
      const lines = lineNumbers(text, ranges);
      const shown = lines.slice(0, SHOWN_MATCH_LINES).join(", ") + (lines.length > SHOWN_MATCH_LINES ? ", …" : "");
      throw new WorkspaceError(
        "EDIT_NOT_UNIQUE",
        `Cannot edit '${display}': ${label} matches ${ranges.length} times (lines ${shown})`,
        {
          path: display,
          hint:
            `include more surrounding lines in ${label} so it matches once, or set replace_all to replace all ${ranges.length}`,
        },
      );
    }
    const parts: string[] = [];
    let from = 0;
    for (const range of ranges) {
      let own = replacement;
      if (tolerant) {
        // The file's own indentation for the replacement (from the matched lines' start).
        const lineStart = text.lastIndexOf("\n", range.start - 1) + 1;
        const matched = text.slice(lineStart, range.end);
        const kinds = toleranceOf(needle, matched);
        for (const kind of kinds) tolerated.add(kind);
        if (kinds.includes("indentation")) {
          own = reindent(needle, matched, replacement);
          // A needle that starts mid-line keeps its first line as given (the file's indentation stays before it).
          if (lineStart < range.start) {
            own = replacement.split("\n")[0] + own.slice(own.indexOf("\n") < 0 ? own.length : own.indexOf("\n"));
          }
        }
      }
      parts.push(text.slice(from, range.start), own);
      from = range.end;
    }
    parts.push(text.slice(from));
    text = parts.join("");
    replacements += ranges.length;
  }
  const result: AppliedEdits = { text, replacements, fuzzy, alreadyApplied };
  if (tolerated.size > 0) result.tolerance = [...tolerated].join("+");
  return result;
}

// EDIT_NOT_FOUND, with the nearest region in its details.
function notFound(text: string, needle: string, label: string, index: number, display: string): WorkspaceError {
  const nearest = nearestRegion(text, needle);
  const where = nearest === undefined
    ? "no line of it is in the file"
    : `lines ${nearest.startLine}-${nearest.endLine} come closest (${nearest.matchedLines} of ${nearest.oldLines} lines match exactly` +
      (nearest.firstDifference === undefined
        ? ")"
        : `; line ${nearest.firstDifference.line} differs, see details.nearest)`);
  return new WorkspaceError("EDIT_NOT_FOUND", `Cannot edit '${display}': ${label} was not found`, {
    path: display,
    hint:
      `${where}; copy old_string from the file's current text, including whitespace; read the file again if it changed` +
      (index > 0 ? " (earlier edits in this call are applied first)" : ""),
    details: nearest === undefined ? { nearest: null } : { nearest },
  });
}
