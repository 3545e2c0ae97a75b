import type { EntryKind } from "../../host.ts";
import { throwIfAborted } from "../errors.ts";
import { closeFolder, type Folder } from "./folder.ts";
import { FolderIgnores, type IgnoreFrame, isIgnored, loadIgnoreFrame } from "../search/ignore_frame.ts";
import { MAX_WALK_DEPTH, SEARCH_MAX_IGNORE_FILE_BYTES, SEARCH_MAX_WALK_ENTRIES } from "../limits.ts";
import { mapHostError } from "./map_host_error.ts";
import { yieldTurn } from "./yield_turn.ts";
import type { HeldFolder } from "./resolve_folder.ts";
import type { Workspace } from "./workspace.ts";

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
  const host = workspace.host;
  const includeIgnored = options.includeIgnored ?? false;
  const maxEntries = options.maxEntries ?? SEARCH_MAX_WALK_ENTRIES;
  const maxIgnoreBytes = options.maxIgnoreFileBytes ?? SEARCH_MAX_IGNORE_FILE_BYTES;
  const { signal, onEntry, wants } = options;
  const collect = options.collect ?? true;
  const includeFolders = options.includeFolders ?? false;
  const maxDepth = options.maxDepth ?? Infinity;
  let depthReached = false;
  const startDisplay = start.segments.join("/") || ".";
  const readIgnore = (folder: Folder) => loadIgnoreFrame(workspace, folder, maxIgnoreBytes);
  // Lets go of a folder the walk opened, once nothing uses it any more.
  const release = async (folder: Folder): Promise<void> => {
    const until = options.retain?.(folder) ?? null;
    if (until === null) await closeFolder(folder);
    else void until.then(() => closeFolder(folder));
  };
  const entries: WalkEntry[] = [];
  let visited = 0;
  let limitReached = false;
  let stopped = false;
  let sliceStart = Date.now();
  // Between two entries: gives the event loop a turn once the slice is used up.
  const sliceUsed = (): boolean => Date.now() - sliceStart >= WALK_SLICE_MS;
  let reported = Date.now();
  const breathe = async (): Promise<void> => {
    throwIfAborted(signal);
    if (!sliceUsed()) return;
    if (options.onProgress !== undefined && Date.now() - reported >= WALK_PROGRESS_MS) {
      reported = Date.now();
      options.onProgress(visited);
    }
    await yieldTurn();
    sliceStart = Date.now();
    throwIfAborted(signal);
  };

  // Lists one held folder and walks into its subfolders; false ends the walk.
  const visit = async (
    folder: Folder,
    path: string,
    ignores: FolderIgnores,
    isStart: boolean,
  ): Promise<boolean> => {
    await breathe();
    let listing;
    try {
      listing = await host.readdir(folder.at);
    } catch (error) {
      if (isStart) throw mapHostError(error, "list", path || startDisplay);
      return true; // vanished or unreadable below the start: skipped, as `find` and `rg` do
    }
    await workspace.confirm(folder);
    listing.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (!includeIgnored && listing.some((entry) => entry.name === ".gitignore" && entry.kind === "file")) {
      const own = await readIgnore(folder);
      if (own !== null) ignores = ignores.with(own);
    }
    const pathPrefix = path === "" ? "" : path + "/";
    for (const entry of listing) {
      if (entry.name === ".git") continue;
      if (++visited > maxEntries) {
        limitReached = true;
        return false;
      }
      let kind = entry.kind;
      // Some filesystems give no kinds in a listing: ask lstat (never stat), at the held folder.
      if (kind === "other") {
        kind = (await host.lstat(workspace.childPath(folder, entry.name)).catch(() => null))?.kind ?? "other";
      }
      const entryPath = pathPrefix + entry.name;
      if (kind !== "directory" && wants !== undefined && !wants(entryPath, entry.name, kind)) continue;
      if (ignores.ignores(entry.name, kind === "directory")) continue;
      if (kind !== "directory") {
        const found: WalkEntry = { path: entryPath, name: entry.name, kind };
        if (collect) entries.push(found);
        throwIfAborted(signal); // a property read per entry: an abort ends the walk at the next entry
        if (onEntry !== undefined && sliceUsed()) await breathe();
        if (onEntry !== undefined) {
          // Awaited only when it is a promise: a visitor answers most entries at once.
          const verdict = onEntry(found, folder);
          if ((verdict instanceof Promise ? await verdict : verdict) === false) {
            stopped = true;
            return false;
          }
        }
        continue;
      }
      if (includeFolders && collect) entries.push({ path: entryPath, name: entry.name, kind });
      if (folder.segments.length + 1 > MAX_WALK_DEPTH) {
        limitReached = true;
        continue;
      }
      if (maxDepth !== Infinity && entryPath.split("/").length >= maxDepth) {
        depthReached = true;
        continue;
      }
      const child = await workspace.openFolder(folder, entry.name).catch(() => null);
      if (child === null || child.kind !== "folder") continue; // gone or replaced since it was listed: not entered
      try {
        if (!(await visit(child.folder, entryPath, ignores.enter(entry.name), false))) return false;
      } finally {
        await release(child.folder);
      }
      await breathe();
    }
    return true;
  };

  // 1. Rules of the start's ancestors, then the prefix folders, one held step at a time.
  let frames: readonly IgnoreFrame[] = includeIgnored
    ? []
    : await ancestorFrames(workspace, start.segments, readIgnore);
  let first = start.folder;
  let firstPath = "";
  const opened: Folder[] = [];
  try {
    for (const name of options.prefix ?? []) {
      throwIfAborted(signal);
      if (!includeIgnored) {
        const own = await readIgnore(first);
        if (own !== null) frames = [...frames, own];
      }
      const canonical = [...first.segments, name].join("/");
      if (name === ".git" || isIgnored(frames, canonical, true)) {
        return { entries: [], limitReached: false, stopped: false };
      }
      const found = await workspace.openFolder(first, name).catch(() => null);
      if (found === null || found.kind !== "folder") return { entries: [], limitReached: false, stopped: false };
      opened.push(found.folder);
      first = found.folder;
      firstPath = firstPath === "" ? name : `${firstPath}/${name}`;
    }
    // 2. Walk.
    await visit(first, firstPath, FolderIgnores.of(frames, first.segments.join("/")), opened.length === 0);
  } finally {
    for (const folder of opened.reverse()) await release(folder);
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return depthReached ? { entries, limitReached, stopped, depthReached } : { entries, limitReached, stopped };
}

// The .gitignore frames of the root and each folder above the start (not the
// start itself: its own file is read when it is listed), each read at its
// folder held on the way down. A frame that excludes the start is dropped:
// the caller asked for that folder by name.
async function ancestorFrames(
  workspace: Workspace,
  segments: readonly string[],
  readIgnore: (folder: Folder) => Promise<IgnoreFrame | null>,
): Promise<IgnoreFrame[]> {
  const frames: IgnoreFrame[] = [];
  const startCanonical = segments.join("/");
  let folder = await workspace.rootFolder();
  const opened: Folder[] = [];
  try {
    for (let depth = 0; depth < segments.length; depth++) {
      const frame = await readIgnore(folder);
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
