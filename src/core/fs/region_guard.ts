/**
 * The stale-write guard on the region, not the file: an edit of a file that
 * changed since the model read it goes through when every line it replaces
 * is one the model saw, unchanged; the lines that changed elsewhere are
 * returned, to correct the model's picture. A changed line inside the edit,
 * or one the model never saw, refuses it.
 *
 * @module
 */
import { diffArrays } from "diff";
import { WorkspaceError } from "../errors.ts";
import { STALE_WRITE_MAX_DIFF_EDITS, STALE_WRITE_MAX_SHOWN_LINES } from "../limits.ts";
import { lineHashes } from "../text/line_hashes.ts";
import type { SeenLines } from "./read_tracker.ts";

/** Lines of the file that changed since the model read it, as they are now. */
export interface ChangedLines {
  /** The first line (its number now, 1-based). */
  startLine: number;
  /** The last line; `startLine - 1` when lines were only removed there. */
  endLine: number;
  /** Lines read that are gone from here. */
  removed: number;
  /** The current text of `startLine`..`endLine` (cut at `STALE_WRITE_MAX_SHOWN_LINES` lines over the list). */
  text: string;
}

/** What {@link checkRegions} found: the changes elsewhere. */
export interface RegionCheck {
  /** Lines changed since the read, outside the edit. */
  changed: ChangedLines[];
  /** Whether `changed` was cut to the bound. */
  truncated: boolean;
}

// What the model knows of each current line.
const SAME = 0; // seen, unchanged
const CHANGED = 1; // changed (or added) since the read
const UNSEEN = 2; // outside the lines the read showed

/**
 * Checks that an edit of `current` into `next` replaces only lines that are
 * as the model read them (`seen`).
 *
 * @param seen The lines the model read.
 * @param current The file's text now.
 * @param next The text after the edit.
 * @param action The tool's action, for the message ("edit", "patch").
 * @param display The path as shown.
 * @returns The changes elsewhere since the read.
 * @throws {WorkspaceError} `FILE_CHANGED_SINCE_READ` when a replaced line changed (or was not shown), its
 *   `details` holding the edit's region as it is now; also when the change is too large to follow.
 */
export function checkRegions(
  seen: SeenLines,
  current: string,
  next: string,
  action: string,
  display: string,
): RegionCheck {
  const now = lineHashes(current);
  const lines = splitLines(current);
  // 1. What each current line is, against what was read.
  const known = knownLines(seen, now, action, display);
  // 2. The lines the edit replaces (and, for a pure insertion, the lines on both sides).
  const edit = diffArrays(now, lineHashes(next), { maxEditLength: STALE_WRITE_MAX_DIFF_EDITS });
  if (edit === undefined) throw wholeFile(action, display);
  let at = 0;
  for (const [index, part] of edit.entries()) {
    if (part.added) {
      // A pure insertion replaces nothing: the lines on both sides must be as read.
      if (edit[index - 1]?.removed !== true) checkRange(Math.max(0, at - 1), Math.min(now.length, at + 1));
      continue;
    }
    if (part.removed) checkRange(at, at + part.count);
    at += part.count;
  }
  // 3. The changes elsewhere, as they are now.
  return changesOf(known, lines, now);

  function checkRange(from: number, to: number): void {
    for (let line = from; line < to; line++) {
      if (known.status[line] === SAME) continue;
      const region = lines.slice(from, to);
      const shown = region.slice(0, STALE_WRITE_MAX_SHOWN_LINES).join("");
      const why = known.status[line] === CHANGED ? "changed since it was read" : "was not in what was read";
      throw new WorkspaceError(
        "FILE_CHANGED_SINCE_READ",
        `Cannot ${action} '${display}': line ${line + 1}, which the ${action} replaces, ${why}`,
        {
          path: display,
          hint: `the ${action}'s region (lines ${
            from + 1
          }-${to}) is not what you read; details.current shows it now: redo the ${action} on that text, or read it again; nothing was changed`,
          details: {
            region: { startLine: from + 1, endLine: to },
            current: shown,
            ...(region.length > STALE_WRITE_MAX_SHOWN_LINES ? { currentTruncated: true } : {}),
          },
        },
      );
    }
  }
}

interface Known {
  status: Uint8Array;
  /** Per current line: lines read that were removed just before it (index `now.length`: at the end). */
  removedBefore: Uint32Array;
}

// Each current line SAME, CHANGED or UNSEEN, by a line diff of what was read against now.
function knownLines(seen: SeenLines, now: number[], action: string, display: string): Known {
  const status = new Uint8Array(now.length).fill(CHANGED);
  const removedBefore = new Uint32Array(now.length + 1);
  const parts = diffArrays(seen.hashes, now, { maxEditLength: STALE_WRITE_MAX_DIFF_EDITS });
  if (parts === undefined) throw wholeFile(action, display);
  let at = 0;
  let firstSame = -1;
  let lastSameEnd = -1;
  for (const part of parts) {
    if (part.removed) {
      removedBefore[at] += part.count;
      continue;
    }
    if (!part.added) {
      status.fill(SAME, at, at + part.count);
      if (firstSame < 0) firstSame = at;
      lastSameEnd = at + part.count;
    }
    at += part.count;
  }
  // Lines before the first line read, or after the last when the read stopped short of the end, were not shown.
  if (firstSame < 0) {
    // Nothing read is left: everything is changed, or (a window) unseen.
    if (seen.first > 1 || !seen.complete) status.fill(UNSEEN);
    return { status, removedBefore };
  }
  if (seen.first > 1) {
    status.fill(UNSEEN, 0, firstSame);
    removedBefore.fill(0, 0, firstSame + 1);
  }
  if (!seen.complete) {
    status.fill(UNSEEN, lastSameEnd);
    removedBefore.fill(0, lastSameEnd);
  }
  return { status, removedBefore };
}

// The runs of changed lines (and removals), as they are now, bounded.
function changesOf(known: Known, lines: string[], now: number[]): RegionCheck {
  const changed: ChangedLines[] = [];
  let shown = 0;
  let truncated = false;
  for (let line = 0; line <= now.length;) {
    const removed = known.removedBefore[line];
    let end = line;
    while (end < now.length && known.status[end] === CHANGED) end++;
    if (removed === 0 && end === line) {
      line++;
      continue;
    }
    const room = STALE_WRITE_MAX_SHOWN_LINES - shown;
    if (room <= 0) {
      truncated = true;
      break;
    }
    if (end - line > room) truncated = true;
    const text = lines.slice(line, line + Math.min(room, end - line)).join("");
    shown += end - line;
    changed.push({ startLine: line + 1, endLine: end, removed, text });
    line = end === line ? line + 1 : end;
  }
  return { changed, truncated };
}

// The lines of `text`, each with its ending (as lineHashes counts them).
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function wholeFile(action: string, display: string): WorkspaceError {
  return new WorkspaceError(
    "FILE_CHANGED_SINCE_READ",
    `Cannot ${action} '${display}': the file changed since it was last read`,
    {
      path: display,
      hint:
        `something else changed '${display}' since you read it, too much to follow line by line; read it again and redo the change on its current content; nothing was changed`,
    },
  );
}
