/**
 * Where the protected paths lie in a workspace right now, for the processes
 * that the write tools' check cannot reach: `node_process` (its runtime's
 * write permissions) and a sandboxed shell (the sandbox's read-only binds).
 *
 * One walk from the held root, never following a link, finds every entry
 * whose path falls under a protected pattern (a protected folder is not
 * entered: it is protected whole) and every link. From them:
 * - `readOnly`: the protected entries that are not links, and what a
 *   protected name that is a link leads to inside the workspace (a sandbox
 *   binds each read-only over itself);
 * - `pinned`: the folders that hold a protected entry or a link at any depth
 *   (a sandbox binds each over itself so it cannot be renamed away with the
 *   protected file inside and replaced by a new folder);
 * - `writable`: the entries of pinned folders (the root included) that are
 *   neither pinned, protected nor links: a write allowlist for a runtime
 *   whose permissions take paths but cannot exclude one below an allowed
 *   folder. Nothing new can be created directly in a pinned folder.
 *
 * A race is tolerated: the layout is a snapshot; an entry made by another
 * process after the walk is not in it (a new name is not writable for a
 * runtime, and not bound read-only by a sandbox).
 *
 * @module
 */
import { isWorkspaceError, throwIfAborted, WorkspaceError } from "../errors.ts";
import { isAbsoluteHostPath, segmentsBelow, splitHostPath } from "../path/host_path.ts";
import { closeFolder, type Folder } from "./folder.ts";
import { MAX_WALK_DEPTH, PROTECTED_MAX_PATHS, PROTECTED_SCAN_MAX_ENTRIES } from "../limits.ts";
import { mapHostError } from "./map_host_error.ts";
import { protectedPattern } from "./protected_paths.ts";
import type { Workspace } from "./workspace.ts";
import { yieldTurn } from "./yield_turn.ts";

/** Workspace paths as segments, each list sorted by its `/`-joined form. */
export interface ProtectedLayout {
  /** Protected entries that exist and are not links, and the targets inside of protected names that are links. */
  readOnly: string[][];
  /** Folders (not the root) holding a protected entry or a link at any depth. */
  pinned: string[][];
  /** Entries of the root and of pinned folders that are neither pinned, protected nor links. */
  writable: string[][];
  /** Links outside protected folders (never writable, never bound). */
  links: string[][];
}

/**
 * Walks the workspace for its protected layout (see the module doc).
 *
 * @param workspace The workspace (its root already checked).
 * @param patterns The protected paths in force (not empty).
 * @param options `maxEntries` (default {@link PROTECTED_SCAN_MAX_ENTRIES}), `maxPaths` (default
 *   {@link PROTECTED_MAX_PATHS}), a cancel signal, and `forChanges` (for the write tools' check:
 *   no `maxPaths` bound, since nothing is handed to a process, and a dangling protected link's
 *   would-be target is read-only too).
 * @returns The layout.
 * @throws {WorkspaceError} `TOO_MANY_ENTRIES` past `maxEntries` or `MAX_WALK_DEPTH` (nothing may run on
 *   a partial layout), or with more than `maxPaths` writable, or read-only and pinned, paths.
 */
export async function protectedLayout(
  workspace: Workspace,
  patterns: readonly string[],
  options: { maxEntries?: number; maxPaths?: number; signal?: AbortSignal; forChanges?: boolean } = {},
): Promise<ProtectedLayout> {
  const maxEntries = options.maxEntries ?? PROTECTED_SCAN_MAX_ENTRIES;
  const maxPaths = options.maxPaths ?? PROTECTED_MAX_PATHS;
  const host = workspace.host;
  const readOnly: string[][] = [];
  const links: string[][] = [];
  // Each folder's plain entries (not protected, not links), kept until we know whether the folder is pinned.
  const plain = new Map<string, string[][]>();
  const pinned = new Set<string>();
  let visited = 0;
  const readOnlyKeys = () => new Set(readOnly.map((segments) => segments.join("/")));
  const tooMany = () =>
    new WorkspaceError(
      "TOO_MANY_ENTRIES",
      `Cannot find the protected paths: the workspace has more than ${maxEntries} entries`,
      { hint: "the protected paths must be known before a process runs; use a smaller workspace" },
    );

  // Lists one held folder; returns whether it holds a protected entry or a link (it is then pinned).
  const visit = async (folder: Folder): Promise<boolean> => {
    throwIfAborted(options.signal);
    if (visited % 512 === 0) await yieldTurn();
    let listing;
    try {
      listing = await host.readdir(folder.at);
    } catch (error) {
      throw mapHostError(error, "list", folder.segments.join("/") || ".");
    }
    await workspace.confirm(folder);
    let holds = false;
    const own: string[][] = [];
    for (const entry of listing) {
      if (++visited > maxEntries) throw tooMany();
      const segments = [...folder.segments, entry.name];
      let kind = entry.kind;
      if (kind === "other") {
        kind = (await host.lstat(workspace.childPath(folder, entry.name)).catch(() => null))?.kind ?? "other";
      }
      if (kind === "symlink") {
        links.push(segments);
        holds = true;
      } else if (protectedPattern(segments, patterns) !== undefined) {
        readOnly.push(segments);
        holds = true;
      } else if (kind !== "directory") {
        own.push(segments);
      } else {
        if (segments.length > MAX_WALK_DEPTH) throw tooMany();
        const child = await workspace.openFolder(folder, entry.name);
        if (child.kind !== "folder") {
          // Replaced since it was listed: not a folder we walked, so never writable as a whole.
          if (child.kind === "symlink") links.push(segments);
          holds = true;
          continue;
        }
        let inner: boolean;
        try {
          inner = await visit(child.folder);
        } finally {
          await closeFolder(child.folder);
        }
        if (inner) {
          pinned.add(segments.join("/"));
          holds = true;
        } else {
          own.push(segments);
        }
      }
    }
    plain.set(folder.segments.join("/"), own);
    return holds;
  };

  const root = await workspace.rootFolder();
  await visit(root);
  // A protected name that is a link (`package.json -> config/pkg.json`): what it leads to inside the
  // workspace is protected too, since the commands that read the name read that file.
  for (const link of links) {
    if (protectedPattern(link, patterns) === undefined) continue;
    const resolved = await workspace.resolve(link, { allowMissing: true }).catch(() => null);
    let target: string[] | null = null;
    if (resolved !== null) {
      await resolved.release();
      if (resolved.stat !== null) target = resolved.segments;
    } else if (options.forChanges === true) {
      // Dangling: for the write tools, where it would lead once made (a write there must not make it).
      target = await danglingTarget(workspace, link);
    }
    // Leads outside or loops (or dangles, for a process): nothing inside to protect.
    if (
      target === null || target.length === 0 ||
      target.some((_, i) => readOnlyKeys().has(target.slice(0, i + 1).join("/")))
    ) {
      continue;
    }
    readOnly.push(target);
    for (let i = 1; i < target.length; i++) pinned.add(target.slice(0, i).join("/"));
  }
  const taken = readOnlyKeys();
  // Nothing is listed below a read-only folder (a link's target may hold what the walk found).
  const below = (key: string) => [...taken].some((folder) => key.startsWith(`${folder}/`));
  for (const key of [...pinned]) if (below(key)) pinned.delete(key);
  for (let i = readOnly.length - 1; i >= 0; i--) if (below(readOnly[i].join("/"))) readOnly.splice(i, 1);
  const writable = [...plain.entries()]
    .filter(([key]) => key === "" || pinned.has(key))
    .flatMap(([, own]) => own)
    .filter((segments) => !pinned.has(segments.join("/")) && !taken.has(segments.join("/")));
  if (options.forChanges !== true && (writable.length > maxPaths || readOnly.length + pinned.size > maxPaths)) {
    throw new WorkspaceError(
      "TOO_MANY_ENTRIES",
      `Cannot hand the protected paths to the process: more than ${maxPaths} paths to list`,
      { hint: "fewer entries beside the protected paths (or fewer protected paths) keep the list short" },
    );
  }
  const bySlash = (a: string[], b: string[]) => {
    const x = a.join("/");
    const y = b.join("/");
    return x < y ? -1 : x > y ? 1 : 0;
  };
  return {
    readOnly: readOnly.sort(bySlash),
    pinned: [...pinned].map((key) => key.split("/")).sort(bySlash),
    writable: writable.sort(bySlash),
    links: links.sort(bySlash),
  };
}

/**
 * Where a dangling link would lead inside the workspace once its target is
 * made: its target read at its held folder, spelled from the link's folder
 * (`..` steps back, never above the root), with its longest existing prefix
 * resolved by the walker (links followed) and the missing rest as written.
 * `null` when it leads outside.
 */
async function danglingTarget(workspace: Workspace, link: readonly string[]): Promise<string[] | null> {
  const platform = workspace.host.platform;
  const at = await workspace.resolve(link, { followFinal: false }).catch(() => null);
  if (at === null) return null;
  let target: string;
  try {
    if (at.stat?.kind !== "symlink") return null;
    target = await workspace.host.readlink(at.hostPath);
  } catch {
    return null;
  } finally {
    await at.release();
  }
  let spelled: string[] | null;
  if (isAbsoluteHostPath(platform, target)) {
    spelled = segmentsBelow(platform, workspace.root, target) ?? segmentsBelow(platform, workspace.rootEntry, target);
  } else {
    spelled = at.segments.slice(0, -1);
    for (const part of splitHostPath(platform, target)) {
      if (part !== "..") spelled.push(part);
      else if (spelled.pop() === undefined) return null;
    }
  }
  if (spelled === null || spelled.length === 0) return null;
  for (let length = spelled.length - 1; length >= 0; length--) {
    const found = await workspace.resolve(spelled.slice(0, length)).catch((error: unknown) => error);
    if (isWorkspaceError(found, "NOT_FOUND")) continue;
    if (found instanceof Error) return spelled; // a dangling link on the way: what it spells
    const resolved = found as Awaited<ReturnType<Workspace["resolve"]>>;
    await resolved.release();
    return [...resolved.segments, ...spelled.slice(length)];
  }
  return spelled;
}
