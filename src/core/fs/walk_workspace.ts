import type { EntryKind, Host, HostDirEntry } from "../../host.ts";
import { throwIfAborted } from "../errors.ts";
import { closeFolder, type Folder } from "./folder.ts";
import { FolderIgnores, type IgnoreFrame, isIgnored, loadIgnoreFrame } from "../search/ignore_frame.ts";
import { MAX_WALK_DEPTH, SEARCH_MAX_IGNORE_FILE_BYTES, SEARCH_MAX_WALK_ENTRIES } from "../limits.ts";
import { mapHostError } from "./map_host_error.ts";
import { yieldTurn } from "./yield_turn.ts";
import type { HeldFolder } from "./resolve_folder.ts";
import type { Workspace } from "./workspace.ts";
import { isPrivateEntry } from "./private_paths.ts";

/** Options of {@link walkWorkspace}. */
export interface WalkOptions {
  /** Also yield what `.gitignore` files exclude. @default false */
  includeIgnored?: boolean;
  /** Entries visited at most; the walk stops there and sets `limitReached`. @default 100000 ({@link SEARCH_MAX_WALK_ENTRIES}) */
  maxEntries?: number;
  /** Bytes of one `.gitignore` read at most; a larger one is not applied. @default 65536 ({@link SEARCH_MAX_IGNORE_FILE_BYTES}) */
  maxIgnoreFileBytes?: number;
  /**
   * Folder names below the start to step through before walking (a glob's
   * literal leading folders). Each must be a real, not ignored folder, else
   * the walk yields nothing, exactly as a full walk would.
   * @default []
   */
  prefix?: readonly string[];
  /**
   * Called for each entry that is not a folder, in walk order, while the
   * folder it was listed in is held (so the entry can be opened at it with
   * `workspace.childPath(folder, entry.name)`); returning `false` ends the walk.
   * @default undefined (entries are only collected)
   */
  onEntry?: (entry: WalkEntry, folder: Folder) => boolean | void | Promise<boolean | void>;
  /**
   * Called for each folder below the start as it is entered, held, with its
   * path (as in {@link WalkEntry}): its `stat` is what was opened.
   * @default undefined
   */
  onFolder?: (folder: Folder, path: string) => void;
  /**
   * A test of each entry that is not a folder, by its path (as in
   * {@link WalkEntry}), name and kind, asked before its `.gitignore` rules:
   * an entry it refuses is neither collected nor given to `onEntry`. The rules
   * are the dearer test, and most entries of a glob's walk fail the glob.
   * @default undefined (every entry)
   */
  wants?: (path: string, name: string, kind: EntryKind) => boolean;
  /** Keep the entries for the result (`false`: a visitor sees them and the result's `entries` is empty). @default true */
  collect?: boolean;
  /** Also yield folders (kind `directory`), in walk order, before what they hold. @default false */
  includeFolders?: boolean;
  /**
   * Folder levels below the start to enter: a folder at this depth is yielded
   * (with `includeFolders`) but not listed, and `depthReached` is set.
   * @default unbounded (only {@link MAX_WALK_DEPTH})
   */
  maxDepth?: number;
  /** Stops the walk with an AbortError. @default undefined (not cancellable) */
  signal?: AbortSignal;
  /** Called with the entries visited so far, at most every {@link WALK_PROGRESS_MS} while the walk runs. @default undefined */
  onProgress?: (visited: number) => void;
  /**
   * Asked when the walk is done with a folder it opened: a promise keeps the
   * folder held until it settles (another thread may still open names at it);
   * `null` lets the walk close it at once.
   * @default undefined (closed at once)
   */
  retain?: (folder: Folder) => Promise<void> | null;
}

/** One entry found by {@link walkWorkspace}: anything but a folder (folders too with `includeFolders`). */
export interface WalkEntry {
  /** The path relative to the start folder, `/`-separated. */
  path: string;
  /** Its name in its folder. */
  name: string;
  /** Its kind, links not followed (`symlink` for a link). */
  kind: EntryKind;
}

/** What {@link walkWorkspace} found. */
export interface WalkResult {
  /** Every file, link and other non-folder entry below the start visited, sorted by `path`. */
  entries: WalkEntry[];
  /** Whether the walk stopped at `maxEntries` or `MAX_WALK_DEPTH` (which entries were visited first is then unspecified). */
  limitReached: boolean;
  /** Whether `onEntry` ended the walk. */
  stopped: boolean;
  /** Whether a folder was not listed because it lies `maxDepth` levels below the start. */
  depthReached?: boolean;
  /** Entries left out because they are private (`WorkspaceOptions.privatePaths`; a private folder counts once, unentered); absent when none. */
  privateLeftOut?: number;
}

/** Work between two yields to the event loop, so a long walk never stalls it for long (grep's merge too). */
export const WALK_SLICE_MS = 8;
/** Time between two progress reports of a walk. */
export const WALK_PROGRESS_MS = 250;

/**
 * Lists everything below a held folder, depth first with names sorted in
 * each folder, and never follows a link: every folder is entered by opening
 * it at its held parent (no-follow, `O_DIRECTORY`), listed through its own
 * handle, and its entries are reached at it, so a folder swapped for a link
 * at any time is either the real folder (held) or not entered. At most one
 * handle per level is held. `.git` is skipped; `.gitignore` files apply to
 * their own folder and below (and those of the start's ancestors to the
 * start, except one that excludes the start itself: a folder asked for by
 * name is walked).
 *
 * The callbacks (`wants`, `onEntry`, `retain`, `onProgress`) are called as
 * methods of `options`: a class instance whose methods they are keeps the
 * same functions from walk to walk, which the runtime's compiler rewards.
 *
 * @param workspace The workspace (its root already checked).
 * @param start The folder to walk, held (the caller releases it).
 * @param options Ignore handling, bounds, prefix, a visitor, signal.
 * @returns The entries, sorted, and whether a bound was hit.
 * @throws {WorkspaceError} A mapped host error when the start cannot be
 * listed, `PATH_CHANGED` when a folder changes while it is listed (`paths` route).
 */
export async function walkWorkspace(
  workspace: Workspace,
  start: HeldFolder,
  options: WalkOptions = {},
): Promise<WalkResult> {
  const includeIgnored = options.includeIgnored ?? false;
  const walk = new TreeWalk(workspace, options, start.segments.join("/") || ".");
  // 1. Rules of the start's ancestors, then the prefix folders, one held step at a time.
  let frames: readonly IgnoreFrame[] = includeIgnored ? [] : await ancestorFrames(workspace, start.segments, walk);
  let first = start.folder;
  let firstPath = "";
  const opened: Folder[] = [];
  try {
    for (const name of options.prefix ?? []) {
      throwIfAborted(options.signal);
      if (!includeIgnored) {
        const own = await walk.readIgnore(first);
        if (own !== null) frames = [...frames, own];
      }
      const canonical = [...first.segments, name].join("/");
      if (name === ".git" || isIgnored(frames, canonical, true)) {
        return { entries: [], limitReached: false, stopped: false };
      }
      if (isPrivateEntry(first.segments, name, workspace.privatePaths ?? [])) {
        return { entries: [], limitReached: false, stopped: false, privateLeftOut: 1 };
      }
      const found = await workspace.openFolder(first, name).catch(() => null);
      if (found === null || found.kind !== "folder") return { entries: [], limitReached: false, stopped: false };
      opened.push(found.folder);
      first = found.folder;
      firstPath = firstPath === "" ? name : `${firstPath}/${name}`;
    }
    // 2. Walk.
    await walk.visit(first, firstPath, FolderIgnores.of(frames, first.segments.join("/")), opened.length === 0);
  } finally {
    for (const folder of opened.reverse()) await walk.release(folder);
  }
  const { entries, limitReached, stopped, depthReached, privateLeftOut } = walk;
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const result: WalkResult = depthReached
    ? { entries, limitReached, stopped, depthReached }
    : { entries, limitReached, stopped };
  if (privateLeftOut > 0) result.privateLeftOut = privateLeftOut;
  return result;
}

// One walk's state and steps. A class, not closures made per walk: its
// methods stay the same functions from walk to walk, so code the runtime
// optimized for one walk still fits the next.
class TreeWalk {
  readonly entries: WalkEntry[] = [];
  limitReached = false;
  stopped = false;
  depthReached = false;
  privateLeftOut = 0;
  readonly #private: readonly string[];
  readonly #workspace: Workspace;
  readonly #host: Host;
  readonly #options: WalkOptions;
  readonly #startDisplay: string;
  readonly #includeIgnored: boolean;
  readonly #maxEntries: number;
  readonly #maxIgnoreBytes: number;
  readonly #collect: boolean;
  readonly #includeFolders: boolean;
  readonly #maxDepth: number;
  readonly #signal: AbortSignal | undefined;
  readonly #visits: boolean;
  readonly #tests: boolean;
  #visited = 0;
  #sliceStart = Date.now();
  #reported = Date.now();

  constructor(workspace: Workspace, options: WalkOptions, startDisplay: string) {
    this.#workspace = workspace;
    this.#host = workspace.host;
    this.#options = options;
    this.#startDisplay = startDisplay;
    this.#includeIgnored = options.includeIgnored ?? false;
    this.#maxEntries = options.maxEntries ?? SEARCH_MAX_WALK_ENTRIES;
    this.#maxIgnoreBytes = options.maxIgnoreFileBytes ?? SEARCH_MAX_IGNORE_FILE_BYTES;
    this.#collect = options.collect ?? true;
    this.#includeFolders = options.includeFolders ?? false;
    this.#maxDepth = options.maxDepth ?? Infinity;
    this.#signal = options.signal;
    this.#visits = options.onEntry !== undefined;
    this.#tests = options.wants !== undefined;
    this.#private = workspace.privatePaths ?? [];
  }

  readIgnore(folder: Folder): Promise<IgnoreFrame | null> {
    return loadIgnoreFrame(this.#workspace, folder, this.#maxIgnoreBytes);
  }

  // Lets go of a folder the walk opened, once nothing uses it any more.
  async release(folder: Folder): Promise<void> {
    const until = this.#options.retain?.(folder) ?? null;
    if (until === null) await closeFolder(folder);
    else void until.then(() => closeFolder(folder));
  }

  // Between two entries: whether the slice is used up (the event loop is owed a turn).
  #sliceUsed(): boolean {
    return Date.now() - this.#sliceStart >= WALK_SLICE_MS;
  }

  async #breathe(): Promise<void> {
    throwIfAborted(this.#signal);
    if (!this.#sliceUsed()) return;
    const options = this.#options;
    if (options.onProgress !== undefined && Date.now() - this.#reported >= WALK_PROGRESS_MS) {
      this.#reported = Date.now();
      options.onProgress(this.#visited);
    }
    await yieldTurn();
    this.#sliceStart = Date.now();
    throwIfAborted(this.#signal);
  }

  // Lists one held folder and walks into its subfolders; false ends the walk.
  async visit(folder: Folder, path: string, ignores: FolderIgnores, isStart: boolean): Promise<boolean> {
    await this.#breathe();
    const workspace = this.#workspace;
    const options = this.#options;
    let listing;
    try {
      listing = await this.#host.readdir(folder.at);
    } catch (error) {
      if (isStart) throw mapHostError(error, "list", path || this.#startDisplay);
      return true; // vanished or unreadable below the start: skipped, as `find` and `rg` do
    }
    await workspace.confirm(folder);
    listing.sort(byName);
    if (!this.#includeIgnored && listing.some(isIgnoreFile)) {
      const own = await this.readIgnore(folder);
      if (own !== null) ignores = ignores.with(own);
    }
    const pathPrefix = path === "" ? "" : path + "/";
    for (const entry of listing) {
      if (entry.name === ".git") continue;
      if (++this.#visited > this.#maxEntries) {
        this.limitReached = true;
        return false;
      }
      let kind = entry.kind;
      // Some filesystems give no kinds in a listing: ask lstat (never stat), at the held folder.
      if (kind === "other") {
        kind = (await this.#host.lstat(workspace.childPath(folder, entry.name)).catch(() => null))?.kind ?? "other";
      }
      const entryPath = pathPrefix + entry.name;
      if (kind !== "directory" && this.#tests && !options.wants!(entryPath, entry.name, kind)) continue;
      if (ignores.ignores(entry.name, kind === "directory")) continue;
      // Private: left out (a folder unentered), counted; only what would have been shown counts.
      if (this.#private.length > 0 && isPrivateEntry(folder.segments, entry.name, this.#private)) {
        this.privateLeftOut++;
        continue;
      }
      if (kind !== "directory") {
        const found: WalkEntry = { path: entryPath, name: entry.name, kind };
        if (this.#collect) this.entries.push(found);
        throwIfAborted(this.#signal); // a property read per entry: an abort ends the walk at the next entry
        if (this.#visits) {
          if (this.#sliceUsed()) await this.#breathe();
          // Awaited only when it is a promise: a visitor answers most entries at once.
          const verdict = options.onEntry!(found, folder);
          if ((verdict instanceof Promise ? await verdict : verdict) === false) {
            this.stopped = true;
            return false;
          }
        }
        continue;
      }
      if (this.#includeFolders && this.#collect) this.entries.push({ path: entryPath, name: entry.name, kind });
      if (folder.segments.length + 1 > MAX_WALK_DEPTH) {
        this.limitReached = true;
        continue;
      }
      if (this.#maxDepth !== Infinity && entryPath.split("/").length >= this.#maxDepth) {
        this.depthReached = true;
        continue;
      }
      const child = await workspace.openFolder(folder, entry.name).catch(() => null);
      if (child === null || child.kind !== "folder") continue; // gone or replaced since it was listed: not entered
      options.onFolder?.(child.folder, entryPath);
      try {
        if (!(await this.visit(child.folder, entryPath, ignores.enter(entry.name), false))) return false;
      } finally {
        await this.release(child.folder);
      }
      await this.#breathe();
    }
    return true;
  }
}

function byName(a: HostDirEntry, b: HostDirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function isIgnoreFile(entry: HostDirEntry): boolean {
  return entry.name === ".gitignore" && entry.kind === "file";
}

// The .gitignore frames of the root and each folder above the start (not the
// start itself: its own file is read when it is listed), each read at its
// folder held on the way down. A frame that excludes the start is dropped:
// the caller asked for that folder by name.
async function ancestorFrames(
  workspace: Workspace,
  segments: readonly string[],
  walk: TreeWalk,
): Promise<IgnoreFrame[]> {
  const frames: IgnoreFrame[] = [];
  const startCanonical = segments.join("/");
  let folder = await workspace.rootFolder();
  const opened: Folder[] = [];
  try {
    for (let depth = 0; depth < segments.length; depth++) {
      const frame = await walk.readIgnore(folder);
      if (frame !== null && !isIgnored([frame], startCanonical, true)) frames.push(frame);
      if (depth === segments.length - 1) break;
      const found = await workspace.openFolder(folder, segments[depth]).catch(() => null);
      if (found === null || found.kind !== "folder") break;
      opened.push(found.folder);
      folder = found.folder;
    }
  } finally {
    for (const held of opened.reverse()) await closeFolder(held);
  }
  return frames;
}
