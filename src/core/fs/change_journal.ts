// The change journal behind checkpoints: what every tool change replaced, kept
// in memory beside the workspace (never in it), bounded in bytes.
import type { Host, HostStat } from "../../host.ts";
import { readRegularFile } from "./read_regular_file.ts";
import { CHECKPOINT_FILE_BYTES, CHECKPOINT_JOURNAL_BYTES } from "../limits.ts";
import { changeGroup } from "./call_scope.ts";

/** What was at a path before a change: enough to put it back, or why not. */
export type PreviousState =
  /** Nothing: the change created it. */
  | { kind: "missing" }
  /** A regular file; `content` is `null` when it was larger than the bound or could not be read (not restorable). */
  | { kind: "file"; mode: number; size: number; content: Uint8Array | null }
  /** A folder (its entries are journaled one by one). */
  | { kind: "directory"; mode: number }
  /** A symbolic link, a FIFO, a device…: recorded, never restorable (no host primitive makes one). */
  | { kind: "other"; entry: HostStat["kind"] };

/** The identity of what a change left at a path, to tell a later change by someone else. */
export interface Stamp {
  /** The object's kind. */
  kind: HostStat["kind"];
  /** Device and inode: a replaced file has another one. */
  dev: number;
  ino: number;
  /** Size and modification time: an in-place rewrite changes them. */
  size: number;
  mtimeMs: number;
}

/** What every journal entry has. */
interface EntryBase {
  /** Its place in the journal. */
  seq: number;
  /** The tool call it belongs to. */
  group: number;
  /** The canonical path it changed (a move: its destination). */
  segments: string[];
  /** What was there before. */
  previous: PreviousState;
  /** What the change left there (removals: nothing). */
  after?: Stamp;
  /** The change happened (set by {@link Pending.done}); an unsettled entry is still in flight. */
  settled?: true;
}

/** One journaled change, oldest first. */
export type JournalEntry =
  /** A file written (created or replaced) by an atomic write. */
  | EntryBase & { kind: "write" }
  /** An entry removed (delete_path, or the destination a move replaced). */
  | EntryBase & { kind: "remove" }
  /** A folder created. */
  | EntryBase & { kind: "mkdir" }
  /** An entry renamed from `from` to `segments`. */
  | EntryBase & { kind: "move"; from: string[] }
  /**
   * A command's group is not whole (`segments` empty): what it changed could
   * not all be told or kept (`reason`), so an undo refuses the group unless forced.
   */
  | EntryBase & { kind: "uncaptured"; reason: string };

/** A change about to happen: {@link Pending.done} once it did, {@link Pending.cancel} if it did not. */
export interface Pending {
  /** The change happened; `after` is what it left (for a removal, nothing). */
  done(after?: HostStat): void;
  /** The change did not happen: forget it. */
  cancel(): void;
}

/** The bounds of one workspace's journal. */
export interface JournalLimits {
  /** Bytes of previous content kept per file. @default 1048576 ({@link CHECKPOINT_FILE_BYTES}) */
  fileBytes: number;
  /** Bytes the journal holds. @default 33554432 ({@link CHECKPOINT_JOURNAL_BYTES}) */
  journalBytes: number;
  /** Whether changes are journaled at all. @default true */
  enabled: boolean;
  /**
   * Whether what commands (`shell`, `node_process`) change is journaled too:
   * the workspace is walked before and after each command (see the README's
   * "Commands' changes" for the cost). @default true
   */
  commands: boolean;
}

// Restored paths remembered for the captures of commands running meanwhile.
const RESTORED_LOG_PATHS = 4_096;

// A fixed cost per entry beside its content, so a flood of small changes is bounded too.
const ENTRY_OVERHEAD_BYTES = 256;

/**
 * What is at `path` now, for the journal: a file's content up to the bound.
 * The file is opened no-follow and non-blocking and must be the object the
 * caller looked at (`stat`), else it is recorded as not restorable.
 *
 * @param host The workspace's host.
 * @param path The host path at the held folder.
 * @param stat What the caller's lstat found there (`null`: nothing).
 * @param fileBytes The bound.
 * @returns The previous state.
 */
export async function previousState(
  host: Host,
  path: string,
  stat: HostStat | null,
  fileBytes: number,
): Promise<PreviousState> {
  if (stat === null) return { kind: "missing" };
  if (stat.kind === "directory") return { kind: "directory", mode: stat.mode & 0o7777 };
  if (stat.kind !== "file") return { kind: "other", entry: stat.kind };
  const file = { kind: "file", mode: stat.mode & 0o7777, size: stat.size } as const;
  if (stat.size > fileBytes) return { ...file, content: null };
  const read = await readRegularFile(host, path, fileBytes, stat).catch(() => null);
  // Bytes copied: a host may hand back a view of a buffer it reuses.
  return { ...file, content: read?.kind === "read" ? read.bytes.slice() : null };
}

/** The change journal of one workspace (see {@link journalOf}). */
export class ChangeJournal {
  /** The bounds; change them with {@link configureCheckpoints}. */
  readonly limits: JournalLimits = {
    fileBytes: CHECKPOINT_FILE_BYTES,
    journalBytes: CHECKPOINT_JOURNAL_BYTES,
    enabled: true,
    commands: true,
  };
  #entries: JournalEntry[] = [];
  #bytes = 0;
  #nextSeq = 1;
  /** Entries dropped so far to keep the bound: every `seq` up to this one is gone. */
  #droppedThrough = 0;
  /** Groups that lost entries to the bound: an undo of one would be half of it. */
  readonly #trimmedGroups = new Set<number>();
  /** Paths a restore put back, with the sequence number then: a command running meanwhile did not change them. */
  #restored: Array<{ seq: number; path: string }> = [];

  /** The sequence number the next entry gets (a checkpoint is one of these). */
  get nextSeq(): number {
    return this.#nextSeq;
  }

  /** The highest sequence number dropped to keep the bound (0: none). */
  get droppedThrough(): number {
    return this.#droppedThrough;
  }

  /** Entries with `seq >= from`, oldest first. */
  since(from: number): JournalEntry[] {
    return this.#entries.filter((entry) => entry.seq >= from);
  }

  /**
   * The entries of the newest group that `skip` does not pass over, oldest first (none when there is none).
   *
   * @param skip Groups to pass over (a call still running, a group another undo is taking back). @default none
   * @returns The entries.
   */
  lastGroup(skip: (group: number) => boolean = () => false): JournalEntry[] {
    for (let index = this.#entries.length - 1; index >= 0; index--) {
      const { group } = this.#entries[index];
      if (!skip(group)) return this.#entries.filter((entry) => entry.group === group);
    }
    return [];
  }

  /**
   * A restore put back what was at `segments` before entry `seq`: the newest
   * older entry there now finds its own result again (what the restore left).
   */
  restamp(seq: number, segments: readonly string[], left: HostStat): void {
    const path = segments.join("/");
    for (let index = this.#entries.length - 1; index >= 0; index--) {
      const entry = this.#entries[index];
      if (entry.seq >= seq || entry.segments.join("/") !== path) continue;
      if (entry.after !== undefined) entry.after = stampOf(left);
      return;
    }
  }

  /** Whether `group` lost entries to the journal's bound (its undo would put back only part of it). */
  wasTrimmed(group: number): boolean {
    return this.#trimmedGroups.has(group);
  }

  /**
   * Notes what a restore put back (and where moved entries came from), so
   * that a command's capture running meanwhile does not take it for the
   * command's change.
   */
  noteRestored(entries: readonly JournalEntry[]): void {
    const seq = this.#nextSeq;
    for (const entry of entries) {
      this.#restored.push({ seq, path: entry.segments.join("/") });
      if (entry.kind === "move") this.#restored.push({ seq, path: entry.from.join("/") });
    }
    // Bounded: a capture older than the last RESTORED_LOG_PATHS restored paths may miss some.
    if (this.#restored.length > RESTORED_LOG_PATHS) this.#restored = this.#restored.slice(-RESTORED_LOG_PATHS);
  }

  /** The paths a restore put back since `seq` was next. */
  restoredSince(seq: number): Set<string> {
    return new Set(this.#restored.filter((restored) => restored.seq >= seq).map((restored) => restored.path));
  }

  /** Forgets entries (restored ones). */
  forget(entries: readonly JournalEntry[]): void {
    const gone = new Set(entries);
    this.#entries = this.#entries.filter((entry) => {
      if (!gone.has(entry)) return true;
      this.#bytes -= cost(entry);
      return false;
    });
  }

  /**
   * Records a change before it happens.
   *
   * @param change The change, without its sequence number and group.
   * @param group Its group. @default the running call's, else a group of its own
   * @returns The pending entry, or `null` when journaling is off.
   */
  record(change: DistributiveOmit<JournalEntry, "seq" | "group">, group: number = changeGroup()): Pending | null {
    if (!this.limits.enabled) return null;
    const entry = { ...change, seq: this.#nextSeq++, group } as JournalEntry;
    this.#entries.push(entry);
    this.#bytes += cost(entry);
    this.#trim();
    return {
      done: (after) => {
        if (after !== undefined) entry.after = stampOf(after);
        entry.settled = true;
      },
      cancel: () => this.forget([entry]),
    };
  }

  // Drops the oldest entries until the journal fits (the newest one always stays).
  #trim(): void {
    while (this.#bytes > this.limits.journalBytes && this.#entries.length > 1) {
      const oldest = this.#entries.shift() as JournalEntry;
      this.#bytes -= cost(oldest);
      this.#trimmedGroups.add(oldest.group);
      this.#droppedThrough = Math.max(this.#droppedThrough, oldest.seq);
    }
  }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function cost(entry: JournalEntry): number {
  const content = entry.previous.kind === "file" ? entry.previous.content?.length ?? 0 : 0;
  return ENTRY_OVERHEAD_BYTES + content;
}

/** The {@link Stamp} of a stat. */
export function stampOf(stat: HostStat): Stamp {
  return { kind: stat.kind, dev: stat.dev, ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs };
}

/** Whether `stat` is still what a change left (`stamp`). */
export function matchesStamp(stat: HostStat | null, stamp: Stamp | undefined): boolean {
  return stat !== null && stamp !== undefined && stat.kind === stamp.kind && stat.dev === stamp.dev &&
    stat.ino === stamp.ino &&
    (stat.kind === "directory" || (stat.size === stamp.size && stat.mtimeMs === stamp.mtimeMs));
}

// One journal per workspace object, held beside it: never a file in the workspace.
const journals = new WeakMap<object, ChangeJournal>();

/**
 * The change journal of a workspace (made on first use).
 *
 * @param workspace The workspace.
 * @returns Its journal.
 */
export function journalOf(workspace: object): ChangeJournal {
  let journal = journals.get(workspace);
  if (journal === undefined) journals.set(workspace, journal = new ChangeJournal());
  return journal;
}

/**
 * Sets the bounds of a workspace's change journal (see {@link CHECKPOINT_FILE_BYTES},
 * {@link CHECKPOINT_JOURNAL_BYTES}), or turns journaling off.
 *
 * @param workspace The workspace.
 * @param limits The bounds to change; the others stay.
 * @returns Nothing.
 *
 * @example A journal of at most 4 MiB, files up to 256 KiB
 * ```ts
 * import { configureCheckpoints, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * configureCheckpoints(workspace, { fileBytes: 262_144, journalBytes: 4_194_304 });
 * ```
 */
export function configureCheckpoints(workspace: object, limits: Partial<JournalLimits>): void {
  Object.assign(journalOf(workspace).limits, limits);
}

/**
 * Journals a change before it happens: what is at `path` now (`stat`, as the
 * caller just looked) is kept so that a restore can put it back.
 *
 * @param workspace The workspace (its host reads the previous content).
 * @param change What is about to change.
 * @param path The host path at the held folder (unused when `stat` is `null`).
 * @param stat What is there now.
 * @returns The pending entry, or `null` when journaling is off or `skip`.
 */
export async function recordChange(
  workspace: { readonly host: Host },
  change: { kind: JournalEntry["kind"]; segments: readonly string[]; from?: readonly string[] },
  path: string,
  stat: HostStat | null,
  skip = false,
): Promise<Pending | null> {
  const journal = journalOf(workspace);
  if (skip || !journal.limits.enabled) return null;
  const previous = await previousState(workspace.host, path, stat, journal.limits.fileBytes);
  const from = change.from === undefined ? {} : { from: [...change.from] };
  return journal.record({ kind: change.kind, segments: [...change.segments], previous, ...from } as JournalEntryInput);
}

type JournalEntryInput = DistributiveOmit<JournalEntry, "seq" | "group">;
