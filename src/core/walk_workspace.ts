import ignore, { type Ignore } from "ignore";
import type { EntryKind, HostStat } from "../host.ts";
import { throwIfAborted, WorkspaceError } from "./errors.ts";
import { joinHostPath, separatorOf } from "./host_path.ts";
import { SEARCH_MAX_IGNORE_FILE_BYTES, SEARCH_MAX_WALK_ENTRIES } from "./limits.ts";
import { mapHostError } from "./map_host_error.ts";
import { readRegularFile } from "./read_regular_file.ts";
import { decodeUtf8Lenient } from "./utf8.ts";
import { stillSame } from "./still_same.ts";
import type { Resolved, Workspace } from "./workspace.ts";

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
  /** Stops the walk with an AbortError. @default undefined (not cancellable) */
  signal?: AbortSignal;
}

/** One entry found by {@link walkWorkspace}: anything but a folder. */
export interface WalkEntry {
  /** The path relative to the start folder, `/`-separated. */
  path: string;
  /** The absolute host path. */
  hostPath: string;
  /** Its kind, links not followed (`symlink` for a link). */
  kind: EntryKind;
  /** The host path of the folder it was listed in (a key of {@link WalkResult.folders}). */
  folder: string;
}

/** What {@link walkWorkspace} found. */
export interface WalkResult {
  /** Every file, link and other non-folder entry below the start, sorted by `path`. */
  entries: WalkEntry[];
  /** Each listed folder's identity, by host path, as it was while listed: to check later that a file's folder is still that folder. */
  folders: ReadonlyMap<string, HostStat>;
  /** Whether the walk stopped at `maxEntries` (which entries were visited first is then unspecified). */
  limitReached: boolean;
}

// The rules of one .gitignore: `base` is its folder, canonical and relative to the root.
interface IgnoreFrame {
  base: string;
  rules: Ignore;
}

interface PendingFolder {
  hostPath: string;
  /** Relative to the start folder ("" for the start). */
  path: string;
  /** Canonical, relative to the workspace root ("" for the root). */
  canonical: string;
  /** Its lstat before listing, or `null` until taken. */
  stat: HostStat | null;
  frames: readonly IgnoreFrame[];
}

// Folders listed at once: a host's readdir goes to a thread pool, and a few
// listings in flight keep it busy without flooding it.
const WALK_CONCURRENCY = 8;

/**
 * Lists everything below a resolved folder, one confined step at a time, and
 * never follows a link: folders are entered only when `readdir` and `lstat`
 * both call them folders, links are reported as links. `.git` is skipped;
 * `.gitignore` files apply to their own folder and below (and those of the
 * start's ancestors to the start, except one that excludes the start itself:
 * a folder asked for by name is walked).
 *
 * Each folder is lstat'ed before it is listed and again after, and must keep
 * its identity, so a folder swapped for a link is caught unless it is swapped
 * back in between. What remains is the race of {@link Workspace.resolve}: no
 * `openat` in JavaScript; see the README's security model.
 *
 * @param workspace The workspace (its root already checked).
 * @param start The folder to walk, as {@link Workspace.resolve} returned it.
 * @param options Ignore handling, bounds, prefix, signal.
 * @returns The entries, sorted, and whether the bound was hit.
 * @throws {WorkspaceError} A mapped host error when the start cannot be
 * listed, `PATH_CHANGED` when a folder changes while it is listed.
 */
export async function walkWorkspace(
  workspace: Workspace,
  start: Resolved,
  options: WalkOptions = {},
): Promise<WalkResult> {
  const host = workspace.host;
  const includeIgnored = options.includeIgnored ?? false;
  const maxEntries = options.maxEntries ?? SEARCH_MAX_WALK_ENTRIES;
  const maxIgnoreBytes = options.maxIgnoreFileBytes ?? SEARCH_MAX_IGNORE_FILE_BYTES;
  const signal = options.signal;
  const startDisplay = start.segments.join("/") || ".";
  const separator = separatorOf(host.platform);
  const readIgnore = (folderHostPath: string, base: string) =>
    loadIgnoreFrame(workspace, folderHostPath, base, maxIgnoreBytes);

  // 1. Rules of the start's ancestors, then the prefix folders, one step at a time.
  let first: PendingFolder = {
    hostPath: start.hostPath,
    path: "",
    canonical: start.segments.join("/"),
    stat: start.stat,
    frames: includeIgnored ? [] : await ancestorFrames(workspace, start.segments, readIgnore),
  };
  for (const name of options.prefix ?? []) {
    throwIfAborted(signal);
    const frames = includeIgnored ? first.frames : await withOwnFrame(first, readIgnore);
    const hostPath = joinHostPath(host.platform, first.hostPath, [name]);
    const stat = await host.lstat(hostPath).catch(() => null);
    const canonical = first.canonical === "" ? name : `${first.canonical}/${name}`;
    if (stat === null || stat.kind !== "directory" || name === ".git" || isIgnored(frames, canonical, true)) {
      return { entries: [], folders: new Map(), limitReached: false };
    }
    first = { hostPath, path: first.path === "" ? name : `${first.path}/${name}`, canonical, stat, frames };
  }

  // 2. List folders, a few at a time; collect everything but folders.
  const entries: WalkEntry[] = [];
  const folders = new Map<string, HostStat>();
  const pending: PendingFolder[] = [first];
  let visited = 0;
  let limitReached = false;

  const visit = async (folder: PendingFolder): Promise<void> => {
    throwIfAborted(signal);
    const isStart = folder === first;
    const display = folder.path === "" ? startDisplay : folder.path;
    // A folder found by a listing is checked again just before its own listing.
    const before = folder.stat ?? await host.lstat(folder.hostPath).catch(() => null);
    if (before === null || before.kind !== "directory") return; // gone or replaced since: not followed
    let listing;
    try {
      listing = await host.readdir(folder.hostPath);
    } catch (error) {
      if (isStart) throw mapHostError(error, "list", display);
      return; // vanished or unreadable below the start: skipped, as `find` and `rg` do
    }
    if (!(await stillSame(host, folder.hostPath, before, "directory"))) {
      throw new WorkspaceError("PATH_CHANGED", `Cannot list '${display}': the folder changed while it was listed`, {
        path: display,
      });
    }
    folders.set(folder.hostPath, before);

    let frames = folder.frames;
    if (!includeIgnored && listing.some((entry) => entry.name === ".gitignore" && entry.kind === "file")) {
      const own = await readIgnore(folder.hostPath, folder.canonical);
      if (own !== null) frames = [...frames, own];
    }
    // The hot loop: one string per path, no arrays, canonical paths only when rules apply.
    const hostPrefix = folder.hostPath.endsWith(separator) ? folder.hostPath : folder.hostPath + separator;
    const pathPrefix = folder.path === "" ? "" : folder.path + "/";
    const canonicalPrefix = folder.canonical === "" ? "" : folder.canonical + "/";
    for (const entry of listing) {
      if (entry.name === ".git") continue;
      if (++visited > maxEntries) {
        limitReached = true;
        return;
      }
      const hostPath = hostPrefix + entry.name;
      let kind = entry.kind;
      // Some filesystems give no kinds in a listing: ask lstat (never stat).
      if (kind === "other") kind = (await host.lstat(hostPath).catch(() => null))?.kind ?? "other";
      if (frames.length > 0 && isIgnored(frames, canonicalPrefix + entry.name, kind === "directory")) continue;
      const path = pathPrefix + entry.name;
      if (kind === "directory") {
        pending.push({ hostPath, path, canonical: canonicalPrefix + entry.name, stat: null, frames });
      } else entries.push({ path, hostPath, kind, folder: folder.hostPath });
    }
  };

  await new Promise<void>((resolve, reject) => {
    let active = 0;
    let failed = false;
    const pump = (): void => {
      if (failed) return;
      if (limitReached) pending.length = 0;
      if (active === 0 && pending.length === 0) return resolve();
      while (active < WALK_CONCURRENCY && pending.length > 0) {
        const folder = pending.pop() as PendingFolder;
        active++;
        visit(folder).then(
          () => {
            active--;
            pump();
          },
          (error) => {
            failed = true;
            reject(error);
          },
        );
      }
    };
    pump();
  });

  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, folders, limitReached };
}

// Whether the deepest frame with an opinion ignores `canonical` (git's order:
// a later, deeper file overrides an earlier one).
function isIgnored(frames: readonly IgnoreFrame[], canonical: string, isDirectory: boolean): boolean {
  for (let i = frames.length - 1; i >= 0; i--) {
    const { base, rules } = frames[i];
    const relative = base === "" ? canonical : canonical.slice(base.length + 1);
    let result;
    try {
      result = rules.test(isDirectory ? `${relative}/` : relative);
    } catch {
      continue; // a name the ignore grammar cannot express is never ignored
    }
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

// The start's own frame list plus its .gitignore, for stepping through a prefix.
async function withOwnFrame(
  folder: PendingFolder,
  readIgnore: (hostPath: string, base: string) => Promise<IgnoreFrame | null>,
): Promise<readonly IgnoreFrame[]> {
  const own = await readIgnore(folder.hostPath, folder.canonical);
  return own === null ? folder.frames : [...folder.frames, own];
}

// The .gitignore frames of the root and each folder above the start (not the
// start itself: its own file is read when it is listed). A frame that
// excludes the start is dropped: the caller asked for that folder by name.
async function ancestorFrames(
  workspace: Workspace,
  segments: readonly string[],
  readIgnore: (hostPath: string, base: string) => Promise<IgnoreFrame | null>,
): Promise<IgnoreFrame[]> {
  const frames: IgnoreFrame[] = [];
  const startCanonical = segments.join("/");
  for (let depth = 0; depth < segments.length; depth++) {
    const above = segments.slice(0, depth);
    const frame = await readIgnore(workspace.hostPath(above), above.join("/"));
    if (frame !== null && !isIgnored([frame], startCanonical, true)) frames.push(frame);
  }
  return frames;
}

// Reads `.gitignore` in a folder: a regular file only (a link is not
// followed), bounded; anything unreadable means no rules.
async function loadIgnoreFrame(
  workspace: Workspace,
  folderHostPath: string,
  base: string,
  maxBytes: number,
): Promise<IgnoreFrame | null> {
  const hostPath = joinHostPath(workspace.host.platform, folderHostPath, [".gitignore"]);
  const read = await readRegularFile(workspace.host, hostPath, maxBytes).catch(() => null);
  if (read === null || read.kind !== "read") return null;
  const text = decodeUtf8Lenient(read.bytes).replace(/^\uFEFF/, "");
  return { base, rules: ignore({ ignorecase: false }).add(text) };
}
