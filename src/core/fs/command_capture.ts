/**
 * What a command (`shell`, `node_process`) changed in the workspace, journaled
 * as one undo group like any tool call. The workspace is walked before the
 * command starts — each entry's identity (device, inode, size, modification
 * time) and the content of its files, kept between commands so that only
 * files changed since are read again — and walked again after it ended; the
 * difference is journaled: files written or made, entries removed, folders
 * made. A command running in the background is journaled when it ends, in a
 * group of its own.
 *
 * Bounds: {@link COMMAND_CAPTURE_MAX_ENTRIES} entries walked,
 * {@link COMMAND_CAPTURE_MAX_BYTES} of contents kept per workspace, each file
 * up to the journal's per-file bound. When a walk stops at its bound, or the
 * command changed or removed a file whose content was not kept (or a link,
 * a FIFO), the group holds an `uncaptured` entry: an undo refuses it
 * (`CHANGES_INCOMPLETE`) unless forced. Not seen at all: `.git` (never
 * walked), private paths, and whatever the command did outside the workspace.
 * A change made during the command by a journaled tool call is that call's,
 * not the command's; a change made meanwhile by anyone else (an editor) is
 * taken for the command's.
 *
 * @module
 */
import type { HostStat } from "../../host.ts";
import { COMMAND_CAPTURE_MAX_BYTES, COMMAND_CAPTURE_MAX_ENTRIES } from "../limits.ts";
import { currentCallGroup, newChangeGroup } from "./call_scope.ts";
import {
  type ChangeJournal,
  type JournalEntry,
  journalOf,
  matchesStamp,
  type PreviousState,
  previousState,
  type Stamp,
  stampOf,
} from "./change_journal.ts";
import type { Folder } from "./folder.ts";
import { walkWorkspace } from "./walk_workspace.ts";
import type { Workspace } from "./workspace.ts";

/** A command's capture, taken before it started. */
export interface CommandCapture {
  /**
   * The command ended: journals what it changed, in the running call's group
   * (a background command: a group of its own). Never throws: a capture that
   * fails leaves the group marked incomplete.
   */
  finish(): Promise<void>;
}

/** Options of {@link startCommandCapture}. */
export interface CaptureOptions {
  /** The command runs in the background: its changes are a group of their own when it ends. @default false */
  background?: boolean;
  /** Cancels the walk (the command is then not run). */
  signal?: AbortSignal;
  /** Workspace paths that are not the command's changes (`node_process`'s own script files). @default [] */
  exclude?: readonly string[];
  /** The bounds. @default the documented limits */
  limits?: CaptureLimits;
}

/** The bounds of a capture (the defaults are the documented limits). */
export interface CaptureLimits {
  /** Entries walked at most. @default 20000 ({@link COMMAND_CAPTURE_MAX_ENTRIES}) */
  maxEntries: number;
  /** Bytes of contents kept per workspace. @default 33554432 ({@link COMMAND_CAPTURE_MAX_BYTES}) */
  maxBytes: number;
}

const DEFAULT_LIMITS: CaptureLimits = { maxEntries: COMMAND_CAPTURE_MAX_ENTRIES, maxBytes: COMMAND_CAPTURE_MAX_BYTES };

// One walk: every entry below the root by its path, with what lstat (folders: the held handle) saw.
type Tree = Map<string, HostStat>;

// File contents kept per workspace between commands, each with the identity it was read at.
class ContentStore {
  readonly #files = new Map<string, { stamp: Stamp; content: Uint8Array }>();
  #bytes = 0;

  get(path: string, stat: HostStat): Uint8Array | null {
    const kept = this.#files.get(path);
    return kept !== undefined && matchesStamp(stat, kept.stamp) ? kept.content : null;
  }

  has(path: string, stat: HostStat): boolean {
    return this.get(path, stat) !== null;
  }

  set(path: string, stat: HostStat, content: Uint8Array): void {
    this.delete(path);
    this.#files.set(path, { stamp: stampOf(stat), content });
    this.#bytes += content.length;
  }

  delete(path: string): void {
    const kept = this.#files.get(path);
    if (kept === undefined) return;
    this.#bytes -= kept.content.length;
    this.#files.delete(path);
  }

  // Forgets what is not in `tree` as it was read.
  keepOnly(tree: Tree): void {
    for (const [path, kept] of this.#files) {
      const stat = tree.get(path);
      if (stat === undefined || !matchesStamp(stat, kept.stamp)) this.delete(path);
    }
  }

  get bytes(): number {
    return this.#bytes;
  }
}

const stores = new WeakMap<object, ContentStore>();

function storeOf(workspace: object): ContentStore {
  let store = stores.get(workspace);
  if (store === undefined) stores.set(workspace, store = new ContentStore());
  return store;
}

/**
 * Walks the workspace before a command starts (see the module's notes).
 *
 * @param workspace The workspace the command runs in.
 * @param options Background or not, a cancel signal, the bounds.
 * @returns The capture to finish once the command ended, or `null` when the journal (or its `commands`) is off.
 *
 * @example
 * ```ts ignore
 * const capture = await startCommandCapture(workspace);
 * try {
 *   await runTheCommand();
 * } finally {
 *   await capture?.finish();
 * }
 * ```
 */
export async function startCommandCapture(
  workspace: Workspace,
  options: CaptureOptions = {},
): Promise<CommandCapture | null> {
  const { signal, limits = DEFAULT_LIMITS } = options;
  const journal = journalOf(workspace);
  if (!journal.limits.enabled || !journal.limits.commands) return null;
  const store = storeOf(workspace);
  // Before the walk: a tool's change or a restore while it runs is not the command's either.
  const firstSeq = journal.nextSeq;
  // File times come from the kernel's coarse clock, a tick (up to 10 ms) behind Date.now(): a file the
  // command makes at once can be born "before" it started by that much.
  const startedMs = Date.now() - FILE_CLOCK_SLACK_MS;
  const before = await walkTree(workspace, limits.maxEntries, signal, async (path, stat, at, folder) => {
    if (stat.kind !== "file" || stat.size > journal.limits.fileBytes || store.has(path, stat)) return;
    if (store.bytes + stat.size > limits.maxBytes) return;
    const previous = await previousState(workspace.host, at, stat, journal.limits.fileBytes);
    if (previous.kind !== "file" || previous.content === null) return;
    // On the `paths` route a folder swapped for a link while the file was read would have the bytes of
    // what the link leads to: kept only when the folder's chain is still what the walk entered.
    const still = await Promise.resolve(workspace.confirm(folder)).then(() => true, () => false);
    if (still) store.set(path, stat, previous.content);
  });
  store.keepOnly(before.tree);
  // The group: the running call's (a foreground command), else one taken when it ends.
  const callGroup = options.background === true ? undefined : currentCallGroup();
  return {
    finish: async () => {
      const group = callGroup ?? newChangeGroup();
      try {
        const after = await walkTree(workspace, limits.maxEntries, undefined);
        for (const path of options.exclude ?? []) {
          before.tree.delete(path);
          after.tree.delete(path);
        }
        journalDifference(journal, group, { firstSeq, startedMs }, before, after, store, limits);
      } catch {
        journal.record({
          kind: "uncaptured",
          segments: [],
          previous: MISSING,
          reason: "the workspace could not be walked after the command",
        }, group)
          ?.done();
      }
    },
  };
}

const MISSING: PreviousState = { kind: "missing" };

// How far a file's birth time may lag the clock the capture started by (see startedMs).
const FILE_CLOCK_SLACK_MS = 25;

interface Walked {
  tree: Tree;
  limitReached: boolean;
}

async function walkTree(
  workspace: Workspace,
  maxEntries: number,
  signal: AbortSignal | undefined,
  onFile?: (path: string, stat: HostStat, at: string, folder: Folder) => Promise<void>,
): Promise<Walked> {
  const tree: Tree = new Map();
  const host = workspace.host;
  await workspace.checkRoot();
  const root = await workspace.rootFolder();
  const visitor = {
    onFolder(folder: Folder, path: string) {
      tree.set(path, folder.stat);
    },
    async onEntry(entry: { path: string; name: string }, folder: Folder) {
      const at = workspace.childPath(folder, entry.name);
      const stat = await host.lstat(at).catch(() => null);
      if (stat === null) return; // gone since it was listed
      tree.set(entry.path, stat);
      if (onFile !== undefined) await onFile(entry.path, stat, at, folder);
    },
  };
  const walked = await walkWorkspace(workspace, { folder: root, segments: [], release: () => Promise.resolve() }, {
    includeIgnored: true,
    collect: false,
    maxEntries,
    signal,
    onFolder: (folder, path) => visitor.onFolder(folder, path),
    onEntry: (entry, folder) => visitor.onEntry(entry, folder),
  });
  return { tree, limitReached: walked.limitReached };
}

// What journaled tool calls did to a path meanwhile: the first and the newest such entry there.
function toolChanges(
  journal: ChangeJournal,
  firstSeq: number,
): Map<string, { first: JournalEntry; last: JournalEntry }> {
  const changes = new Map<string, { first: JournalEntry; last: JournalEntry }>();
  const note = (path: string, entry: JournalEntry) => {
    const known = changes.get(path);
    if (known === undefined) changes.set(path, { first: entry, last: entry });
    else known.last = entry;
  };
  for (const entry of journal.since(firstSeq)) {
    if (entry.kind === "uncaptured") continue;
    note(entry.segments.join("/"), entry);
    if (entry.kind === "move") note(entry.from.join("/"), entry);
  }
  return changes;
}

// Whether what a tool call found at a path (its entry's previous state) is not what the walk before the
// command saw there: the command changed it first, and the tool's change then stands on the command's.
function changedBeforeTool(entry: JournalEntry, path: string, was: HostStat | undefined): boolean {
  if (entry.kind === "move" && entry.from.join("/") === path && entry.segments.join("/") !== path) {
    return was === undefined; // moved away by the tool: the command had made it
  }
  const previous = entry.previous;
  if (previous.kind === "missing") return was !== undefined;
  if (was === undefined) return true;
  if (previous.kind === "file") return was.kind !== "file" || was.size !== previous.size;
  if (previous.kind === "directory") return was.kind !== "directory";
  return was.kind !== previous.entry;
}

// Whether what is at `path` now (`stat`, null: nothing) is what a tool call left there.
function leftByTool(entry: JournalEntry | undefined, path: string, stat: HostStat | undefined): boolean {
  if (entry === undefined) return false;
  if (entry.kind === "move" && entry.from.join("/") === path && entry.segments.join("/") !== path) {
    return stat === undefined;
  }
  if (entry.kind === "remove") return stat === undefined;
  return stat !== undefined && matchesStamp(stat, entry.after);
}

function journalDifference(
  journal: ChangeJournal,
  group: number,
  window: { firstSeq: number; startedMs: number },
  before: Walked,
  after: Walked,
  store: ContentStore,
  limits: CaptureLimits,
): void {
  const byTools = toolChanges(journal, window.firstSeq);
  const byRestores = journal.restoredSince(window.firstSeq);
  const lost: string[] = [];
  // Paths a tool call or an undo changed while the command ran are theirs; where the command had changed the
  // path first, its own change cannot be told apart: the group is incomplete.
  const mixed: string[] = [];
  const others = (path: string, was: HostStat | undefined, now: HostStat | undefined): boolean => {
    if (byRestores.has(path)) return true;
    const tool = byTools.get(path);
    if (tool === undefined) return false;
    if (changedBeforeTool(tool.first, path, was)) mixed.push(path);
    return leftByTool(tool.last, path, now) || changedBeforeTool(tool.first, path, was);
  };
  // What is there after but was never seen before — moved in from where the walk does not look (a private
  // path, `.git`, outside, a folder it could not enter) — is not the command's to take back: an undo would
  // delete it. Told by its birth time, before the command started, and an inode the walk before never saw.
  const seenInodes = new Set<string>();
  for (const stat of before.tree.values()) seenInodes.add(`${stat.dev}:${stat.ino}`);
  const movedIn: string[] = [];
  const isMovedIn = (path: string, now: HostStat): boolean => {
    const born = now.birthtimeMs ?? 0;
    if (born <= 0 || born >= window.startedMs || seenInodes.has(`${now.dev}:${now.ino}`)) return false;
    movedIn.push(path);
    return true;
  };
  const removed: Array<[string, HostStat]> = [];
  const made: Array<[string, HostStat, HostStat | undefined]> = [];
  for (const [path, was] of before.tree) {
    const now = after.tree.get(path);
    if (others(path, was, now)) continue;
    if (now !== undefined && now.kind !== "directory" && (now.ino !== was.ino || now.dev !== was.dev)) {
      // Replaced: by something made by the command (kept), or by something moved in (not ours to overwrite).
      if (isMovedIn(path, now)) continue;
    }
    if (now === undefined) {
      // Past the walk's bound it may still be there.
      if (!after.limitReached) removed.push([path, was]);
    } else if (was.kind !== now.kind) {
      removed.push([path, was]);
      made.push([path, now, undefined]);
    } else if (was.kind !== "directory" && (!matchesStamp(now, stampOf(was)) || now.mode !== was.mode)) {
      // A mode changed in place (chmod) keeps the stamp: the write entry puts the old mode back with the bytes.
      made.push([path, now, was]);
    }
  }
  for (const [path, now] of after.tree) {
    if (before.tree.has(path) || others(path, undefined, now)) continue;
    // Below a folder moved in: the folder is reported, not each entry.
    if (movedIn.some((folder) => path.startsWith(`${folder}/`))) continue;
    if (isMovedIn(path, now)) continue;
    if (!before.limitReached) made.push([path, now, undefined]);
  }
  if (movedIn.length > 0) {
    lost.push(
      `${movedIn.length} entr${movedIn.length === 1 ? "y" : "ies"} appeared that existed before the command, ` +
        `moved in from where the capture does not look (${describe(movedIn)}): left as they are`,
    );
  }
  if (mixed.length > 0) {
    lost.push(`a tool call changed what the command had changed while it ran (${describe(mixed)})`);
  }
  if (before.limitReached || after.limitReached) {
    lost.push(`the workspace has more than ${limits.maxEntries} entries, so not all were compared`);
  }
  const record = (entry: Parameters<ChangeJournal["record"]>[0], left?: HostStat): void => {
    journal.record(entry, group)?.done(left);
  };
  const unkept: string[] = [];
  const previousOf = (path: string, was: HostStat): PreviousState => {
    if (was.kind === "directory") return { kind: "directory", mode: was.mode & 0o7777 };
    if (was.kind !== "file") {
      unkept.push(path);
      return { kind: "other", entry: was.kind };
    }
    const content = store.get(path, was);
    if (content === null) unkept.push(path);
    return { kind: "file", mode: was.mode & 0o7777, size: was.size, content };
  };
  // Removals deepest first, then what was made or written, parents first: an undo goes newest first, so it
  // takes back what was made (children before their folder), then puts back what was removed (folders first).
  const entries: Array<() => void> = [];
  removed.sort(([a], [b]) => (a < b ? 1 : a > b ? -1 : 0));
  for (const [path, was] of removed) {
    const previous = previousOf(path, was);
    entries.push(() => record({ kind: "remove", segments: path.split("/"), previous }));
  }
  made.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [path, now, was] of made) {
    const previous = was === undefined ? MISSING : previousOf(path, was);
    const kind = now.kind === "directory" ? "mkdir" : "write";
    entries.push(() => record({ kind, segments: path.split("/"), previous }, now));
  }
  if (unkept.length > 0) {
    lost.push(
      `${unkept.length} changed or removed entr${unkept.length === 1 ? "y was" : "ies were"} not kept before it ran (${
        describe(unkept)
      })`,
    );
  }
  if (entries.length === 0 && lost.length === 0) return;
  // The marker first: the group is known incomplete before any of its changes is looked at.
  if (lost.length > 0) record({ kind: "uncaptured", segments: [], previous: MISSING, reason: lost.join("; ") });
  for (const add of entries) add();
  for (const [path] of made) store.delete(path);
}

// A few of the paths, for a reason's message.
function describe(paths: readonly string[]): string {
  return paths.slice(0, 3).join(", ") + (paths.length > 3 ? ", …" : "");
}
