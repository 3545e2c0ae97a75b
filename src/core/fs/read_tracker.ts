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
import { STALE_WRITE_MAX_TRACKED_FILES } from "../limits.ts";
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

  /**
   * Makes an empty tracker.
   *
   * @param maxFiles Files remembered at most. @default 10000 ({@link STALE_WRITE_MAX_TRACKED_FILES})
   */
  constructor(private readonly maxFiles: number = STALE_WRITE_MAX_TRACKED_FILES) {}

  /**
   * Remembers what was read (or written) at `segments`.
   *
   * @param segments The file's canonical workspace-relative segments.
   * @param stat The host's stat of the handle that read or wrote it.
   */
  record(segments: readonly string[], stat: HostStat): void {
    const key = segments.join("/");
    this.#seen.delete(key); // re-inserted last: the map's order is the recency
    const version: SeenVersion = { dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
    if (stat.birthtimeMs) version.birthtimeMs = stat.birthtimeMs;
    this.#seen.set(key, version);
    while (this.#seen.size > this.maxFiles) this.#seen.delete(this.#seen.keys().next().value as string);
  }

  /**
   * Forgets a file (deleted), or a folder's files.
   *
   * @param segments The file's or folder's canonical workspace-relative segments.
   */
  forget(segments: readonly string[]): void {
    const key = segments.join("/");
    this.#seen.delete(key);
    for (const seen of [...this.#seen.keys()]) if (seen.startsWith(`${key}/`)) this.#seen.delete(seen);
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
    for (const [key, version] of carried) this.#seen.set(toKey + key.slice(fromKey.length), version);
    while (this.#seen.size > this.maxFiles) this.#seen.delete(this.#seen.keys().next().value as string);
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
