/**
 * The stale-write guard's memory: per workspace, what the model last saw of
 * each file (identity, size, mtime from the host's stat of the handle that
 * read or wrote it). `read_file` records; `write_file`, `edit_file` and
 * `apply_patch` record what they wrote (a file the agent itself wrote counts
 * as read) and, with the guard on, check an existing target against it
 * before writing over it; `delete_path` checks a file before removing it, and
 * `move_path` a file before replacing it (`overwrite`), and carries what was
 * seen of what it moves to the new name.
 *
 * @module
 */
import type { HostStat } from "../../host.ts";
import { WorkspaceError } from "../errors.ts";
import { STALE_WRITE_MAX_REMEMBERED_LINES, STALE_WRITE_MAX_TRACKED_FILES } from "../limits.ts";
import { lineHashes } from "../text/line_hashes.ts";
import { sameIdentity } from "./same_identity.ts";
import type { Workspace } from "./workspace.ts";

/** What a read or a write saw of one file. */
export interface SeenVersion {
  /** Device id. */
  dev: number;
  /** Inode number. */
  ino: number;
  /** Birth time, where known (part of the identity). */
  birthtimeMs?: number;
  /** Size in bytes. */
  size: number;
  /** Last modification, in milliseconds. */
  mtimeMs: number;
  /** What the model saw of the text, line by line, when remembered (the region check's base). */
  lines?: SeenLines;
}

/** The lines one read showed (or one write made), as hashes. */
export interface SeenLines {
  /** The first line's number, 1-based. */
  first: number;
  /** One hash per line shown (`lineHashes`). */
  hashes: number[];
  /** Whether the lines shown reach the end of the file. */
  complete: boolean;
}

/** What a read showed of a file's text, for {@link ReadTracker.record}. */
export interface ShownText {
  /** The number of the first line shown, 1-based. */
  first: number;
  /** The text shown (whole lines). */
  text: string;
  /** Whether it reaches the end of the file. */
  complete: boolean;
}

/** Whether `now` is the same file, at the same size and modification time, as `seen`. */
export function sameVersion(now: HostStat, seen: SeenVersion): boolean {
  return sameIdentity(now, seen) && now.size === seen.size && now.mtimeMs === seen.mtimeMs;
}

/**
 * The files one workspace's tools have read or written, by canonical
 * workspace-relative path. Bounded: past
 * {@link STALE_WRITE_MAX_TRACKED_FILES} the least recently seen file is
 * forgotten, so a write over it needs a new read (never a skipped check).
 */
export class ReadTracker {
  readonly #seen = new Map<string, SeenVersion>();
  #lines = 0; // line hashes held, over all files

  /**
   * Makes an empty tracker.
   *
   * @param maxFiles Files remembered at most. @default 10000 ({@link STALE_WRITE_MAX_TRACKED_FILES})
   * @param maxLines Line hashes remembered at most, over all files. @default 1000000 ({@link STALE_WRITE_MAX_REMEMBERED_LINES})
   */
  constructor(
    private readonly maxFiles: number = STALE_WRITE_MAX_TRACKED_FILES,
    private readonly maxLines: number = STALE_WRITE_MAX_REMEMBERED_LINES,
  ) {}

  /**
   * Remembers what was read (or written) at `segments`, and, with `shown`,
   * the lines the model saw (the region check's base). A second window read
   * of the same version next to or over the first extends it.
   *
   * @param segments The file's canonical workspace-relative segments.
   * @param stat The host's stat of the handle that read or wrote it.
   * @param shown The text the read returned (or the write made), when there is one. @default undefined (no lines)
   */
  record(segments: readonly string[], stat: HostStat, shown?: ShownText): void {
    const key = segments.join("/");
    const before = this.#seen.get(key);
    this.#drop(key); // re-inserted last: the map's order is the recency
    const version: SeenVersion = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    if (stat.birthtimeMs) version.birthtimeMs = stat.birthtimeMs;
    if (shown !== undefined) {
      let lines: SeenLines = { first: shown.first, hashes: lineHashes(shown.text), complete: shown.complete };
      if (before?.lines !== undefined && sameVersion(stat, before)) lines = joined(before.lines, lines);
      if (lines.hashes.length <= this.maxLines) {
        version.lines = lines;
        this.#lines += lines.hashes.length;
      }
    }
    this.#seen.set(key, version);
    while (this.#seen.size > this.maxFiles) this.#drop(this.#seen.keys().next().value as string);
    // Past the line bound the least recently seen files keep their version, not their lines.
    for (const seen of this.#seen.values()) {
      if (this.#lines <= this.maxLines) break;
      if (seen.lines === undefined || seen === version) continue;
      this.#lines -= seen.lines.hashes.length;
      delete seen.lines;
    }
  }

  #drop(key: string): void {
    const seen = this.#seen.get(key);
    if (seen?.lines !== undefined) this.#lines -= seen.lines.hashes.length;
    this.#seen.delete(key);
  }

  /**
   * Forgets a file (deleted), or a folder's files.
   *
   * @param segments The file's or folder's canonical workspace-relative segments.
   */
  forget(segments: readonly string[]): void {
    const key = segments.join("/");
    this.#drop(key);
    for (const seen of [...this.#seen.keys()]) if (seen.startsWith(`${key}/`)) this.#drop(seen);
  }

  /**
   * Carries what was seen of a moved file (or of a moved folder's files) to
   * its new name: a rename keeps the inode and the modification time. What
   * was seen at the new name before is forgotten (it was replaced).
   *
   * @param from The canonical segments it had.
   * @param to The canonical segments it has now.
   */
  moved(from: readonly string[], to: readonly string[]): void {
    const fromKey = from.join("/");
    const carried = [...this.#seen].filter(([key]) => key === fromKey || key.startsWith(`${fromKey}/`));
    this.forget(from);
    this.forget(to);
    const toKey = to.join("/");
    for (const [key, version] of carried) {
      this.#seen.set(toKey + key.slice(fromKey.length), version);
      if (version.lines !== undefined) this.#lines += version.lines.hashes.length;
    }
    while (this.#seen.size > this.maxFiles) this.#drop(this.#seen.keys().next().value as string);
  }

  /**
   * What was last seen at `segments`, if anything.
   *
   * @param segments The file's canonical workspace-relative segments.
   * @returns The version seen, or `undefined`.
   */
  seen(segments: readonly string[]): SeenVersion | undefined {
    return this.#seen.get(segments.join("/"));
  }

  /**
   * Refuses to change an existing file the session has not seen as it is now.
   *
   * @param segments The file's canonical workspace-relative segments.
   * @param now The file's stat now (from the handle read, or the lstat inside the write's lock).
   * @param action What the tool was about to do ("write", "edit", "patch"), for the message.
   * @param display The path as shown in messages.
   * @throws {WorkspaceError} `FILE_NOT_READ` or `FILE_CHANGED_SINCE_READ`.
   */
  assertCurrent(segments: readonly string[], now: HostStat, action: string, display: string): void {
    const seen = this.seen(segments);
    if (seen === undefined) {
      throw new WorkspaceError(
        "FILE_NOT_READ",
        `Cannot ${action} '${display}': the file was not read in this session`,
        {
          path: display,
          hint: `read '${display}' with read_file first, then retry; nothing was changed`,
        },
      );
    }
    if (!sameVersion(now, seen)) {
      throw new WorkspaceError(
        "FILE_CHANGED_SINCE_READ",
        `Cannot ${action} '${display}': the file changed since it was last read`,
        {
          path: display,
          hint:
            `something else changed '${display}' since you read it; read it again and redo the change on its current content; nothing was changed`,
        },
      );
    }
  }
}

// Two windows of one version: one run of lines when they touch or overlap, else the later window alone.
function joined(a: SeenLines, b: SeenLines): SeenLines {
  const aEnd = a.first + a.hashes.length;
  const bEnd = b.first + b.hashes.length;
  if (b.first > aEnd || a.first > bEnd) return b;
  const first = Math.min(a.first, b.first);
  const hashes: number[] = [];
  for (let line = first; line < Math.max(aEnd, bEnd); line++) {
    hashes.push(line >= b.first && line < bEnd ? b.hashes[line - b.first] : a.hashes[line - a.first]);
  }
  return { first, hashes, complete: bEnd >= aEnd ? b.complete : a.complete };
}

/**
 * {@link ReadTracker.assertCurrent}'s rule, with the region check's way
 * through: a file that changed since its read, whose read lines are
 * remembered, is not refused here; its lines are returned, for `checkRegions`
 * to check the edit's region against once the edit is known.
 *
 * @param tracker The tracker.
 * @param segments The file's canonical workspace-relative segments.
 * @param now The file's stat now.
 * @param action What the tool was about to do, for the message.
 * @param display The path as shown in messages.
 * @returns The lines read, when the file changed since; `undefined` when it is the version read.
 * @throws {WorkspaceError} `FILE_NOT_READ`, or `FILE_CHANGED_SINCE_READ` when no lines are remembered.
 */
export function currentOrSeenLines(
  tracker: ReadTracker,
  segments: readonly string[],
  now: HostStat,
  action: string,
  display: string,
): SeenLines | undefined {
  const seen = tracker.seen(segments);
  if (seen !== undefined && seen.lines !== undefined && !sameVersion(now, seen)) return seen.lines;
  tracker.assertCurrent(segments, now, action, display);
  return undefined;
}

const TRACKERS = new WeakMap<Workspace, ReadTracker>();

/**
 * The one tracker of a workspace, shared by every tool over it.
 *
 * @param workspace The workspace.
 * @returns Its tracker (made on first use).
 *
 * @example Checking a file before a custom tool writes over it
 * ```ts
 * import type { Workspace } from "@paddock/tools";
 * import { readTrackerOf } from "@paddock/tools/extend";
 * declare const workspace: Workspace;
 * const seen = readTrackerOf(workspace).seen(["src", "app.ts"]); // undefined until read_file read it
 * ```
 */
export function readTrackerOf(workspace: Workspace): ReadTracker {
  let tracker = TRACKERS.get(workspace);
  if (tracker === undefined) TRACKERS.set(workspace, tracker = new ReadTracker());
  return tracker;
}
