// apply_patch's errors for a hunk that cannot be placed: what a model needs to fix its patch in one more try.
import { WorkspaceError } from "../errors.ts";
import { APPLY_PATCH_MAX_MATCH_STEPS } from "../limits.ts";
import { normalizeLine } from "./seek_lines.ts";
import { NEAREST_MAX_OCCURRENCES, nearestWindow, visibleWhitespace } from "./nearest_window.ts";

/** Which hunk of which file, for messages. */
export interface HunkLabel {
  display: string;
  /** 1-based. */
  number: number;
  total: number;
}

/** Lines of the file shown around a near match in a `PATCH_HUNK_NOT_FOUND` error. */
const NEAREST_SHOWN_LINES = 12;

const RESEND =
  "read '{path}' again and resend the whole patch with context and '-' lines exactly as the file has them (nothing was changed)";

/**
 * `PATCH_HUNK_NOT_FOUND` for lines that match nowhere at or after `from`: the nearest region of the file (its
 * line numbers, how many lines match), the first line of it that differs (whitespace made visible), and, when
 * the lines are all there but above where the search started, that the hunks are out of order.
 */
export function hunkNotFound(
  label: HunkLabel,
  lines: readonly string[],
  pattern: readonly string[],
  what: string,
  from: number,
): WorkspaceError {
  const { display, number, total } = label;
  const where = from > 0 ? `at or after line ${from + 1} (where the previous hunk or its '@@' line ended)` : "";
  const head = `Cannot apply patch to '${display}': hunk ${number} of ${total} not found, ${what} match nowhere` +
    (where === "" ? " in the file" : ` ${where}`);
  const hint = RESEND.replace("{path}", display);
  const base = { path: display, hunk: number, ...(from > 0 ? { searchedFromLine: from + 1 } : {}) };
  const near = nearestWindow(lines, pattern, { key: normalizeLine, common: "ignore", inside: true });
  if (near === undefined) {
    const wanted = new Set(pattern.map(normalizeLine).filter((line) => line !== ""));
    const detail = lines.length === 0
      ? "the file is empty"
      : lines.some((line) => wanted.has(normalizeLine(line)))
      ? `each line of the hunk that the file has occurs in it more than ${NEAREST_MAX_OCCURRENCES} times`
      : "no line of the hunk occurs in the file";
    return new WorkspaceError("PATCH_HUNK_NOT_FOUND", `${head} (${detail})`, { path: display, hint, details: base });
  }
  const shown = Math.min(Math.max(pattern.length, 1), NEAREST_SHOWN_LINES, lines.length - near.start);
  const nearLines = lines.slice(near.start, near.start + shown).map((line, offset) => ({
    line: near.start + offset + 1,
    text: line,
  }));
  const range = `${near.start + 1}-${near.start + shown}`;
  const listing = nearLines.map((entry) => `${entry.line}: ${entry.text}`).join("\n");
  const difference = firstDifference(lines, pattern, near.start);
  const nearest_ = { startLine: near.start + 1, matching: near.votes, lines: nearLines };
  const details = {
    ...base,
    nearest: nearest_,
    ...(difference === undefined ? {} : { firstDifference: difference }),
  };
  if (difference === undefined || (near.votes === pattern.length && near.start < from)) {
    // Every line is there, above where the search began: the hunks are not in the file's order.
    return new WorkspaceError(
      "PATCH_HUNK_NOT_FOUND",
      `${head}; its lines are at lines ${range}, above that: give the hunks in the order their lines have in the file:\n${listing}`,
      { path: display, hint: `${hint}; order the hunks as the file's lines`, details },
    );
  }
  const found = difference.file === null ? "the file ends there" : `the file has '${difference.file}'`;
  return new WorkspaceError(
    "PATCH_HUNK_NOT_FOUND",
    `${head}; nearest lines ${range} (${near.votes} of ${pattern.length} lines match), first difference at line ${difference.line} (${difference.kind}): the patch has '${difference.patch}', ${found}:\n${listing}`,
    { path: display, hint, details },
  );
}

/** The first line of the region at `start` that differs from the pattern exactly, said with whitespace visible. */
function firstDifference(lines: readonly string[], pattern: readonly string[], start: number):
  | { line: number; hunkLine: number; kind: string; patch: string; file: string | null }
  | undefined {
  for (const [offset, wanted] of pattern.entries()) {
    const have = lines[start + offset];
    if (have === wanted) continue;
    const common = { line: start + offset + 1, hunkLine: offset + 1, patch: visibleWhitespace(wanted) };
    if (have === undefined) return { ...common, kind: "past the end of the file", file: null };
    const kind = have.trimEnd() === wanted.trimEnd()
      ? "trailing whitespace"
      : have.trim() === wanted.trim()
      ? "indentation"
      : normalizeLine(have) === normalizeLine(wanted)
      ? "look-alike characters or inner whitespace"
      : "text";
    return { ...common, kind, file: visibleWhitespace(have) };
  }
  return undefined;
}

/** `PATCH_HUNK_NOT_FOUND` for a hunk that matches in two places once indentation is ignored. */
export function hunkAmbiguous(label: HunkLabel, first: number, second: number): WorkspaceError {
  const { display, number, total } = label;
  return new WorkspaceError(
    "PATCH_HUNK_NOT_FOUND",
    `Cannot apply patch to '${display}': hunk ${number} of ${total} matches only with its indentation ignored, and then at more than one place (lines ${
      first + 1
    } and ${second + 1})`,
    {
      path: display,
      hint:
        `read '${display}' again and resend the patch with the lines indented exactly as the file has them, or more context lines (nothing was changed)`,
      details: { path: display, hunk: number, ambiguous: { startLines: [first + 1, second + 1] } },
    },
  );
}

/** `PATCH_HUNK_NOT_FOUND` for a search that ran out of the patch's budget of steps. */
export function hunkBudgetExceeded(label: HunkLabel): WorkspaceError {
  const { display, number, total } = label;
  return new WorkspaceError(
    "PATCH_HUNK_NOT_FOUND",
    `Cannot apply patch to '${display}': hunk ${number} of ${total} not found within ${APPLY_PATCH_MAX_MATCH_STEPS} line comparisons (the patch's hunks together, the folding of each file's lines included)`,
    {
      path: display,
      hint:
        "give each hunk a few distinctive context lines (or an '@@' line near the change), split very large hunks, and patch fewer large files per call; nothing was changed",
      details: { path: display, hunk: number },
    },
  );
}

/** `PATCH_HUNK_NOT_FOUND` for a file some of whose hunks look applied already and others do not. */
export function hunksPartlyApplied(label: HunkLabel, applied: readonly number[], startLine: number): WorkspaceError {
  const { display, number, total } = label;
  const which = applied.length > 1
    ? `hunks ${applied.join(", ")} of ${total} look`
    : `hunk ${number} of ${total} looks`;
  return new WorkspaceError(
    "PATCH_HUNK_NOT_FOUND",
    `Cannot apply patch to '${display}': ${which} applied already (hunk ${number}'s new lines are at line ${startLine}, its old ones nowhere), but not the others: the file was changed another way`,
    {
      path: display,
      hint:
        `read '${display}' again and resend only the changes it still lacks, with its lines as they are now (nothing was changed)`,
      details: { path: display, hunk: number, alreadyAppliedHunks: applied },
    },
  );
}
