/**
 * What a sandbox is handed for one command over a workspace: the protected
 * entries to bind read-only, the private entries to mask (an empty file or
 * folder mounted over each), and the folders to pin so neither can be moved
 * away with its folder. One scan per kind of path (see `protectedLayout`).
 *
 * @module
 */
import { PROTECTED_SCAN_MAX_ENTRIES } from "../limits.ts";
import { protectedLayout } from "./protected_layout.ts";
import { walkWorkspace } from "./walk_workspace.ts";
import type { Workspace } from "./workspace.ts";

/** Host paths for a `SandboxWrapRequest` (each list absent when empty). */
export interface SandboxLayout {
  readOnly?: string[];
  pinned?: string[];
  masked?: string[];
}

/**
 * Scans the workspace for the protected and private entries that exist now.
 *
 * @param workspace The workspace (its root checked).
 * @param protectedPaths The protected paths in force (bound read-only).
 * @param privatePaths The private paths (masked; what a private name that is a link leads to inside, too).
 * @param signal Cancels the scan.
 * @returns The lists; a protected entry at or below a masked one is left to the mask.
 * @throws {WorkspaceError} `TOO_MANY_ENTRIES` past a scan's bounds (nothing may run on a partial layout).
 */
export async function sandboxLayout(
  workspace: Workspace,
  protectedPaths: readonly string[],
  privatePaths: readonly string[],
  signal?: AbortSignal,
): Promise<SandboxLayout> {
  const guarded = protectedPaths.length > 0 ? await protectedLayout(workspace, protectedPaths, { signal }) : undefined;
  const hidden = privatePaths.length > 0 ? await protectedLayout(workspace, privatePaths, { signal }) : undefined;
  const toHost = (list: string[][]) => list.map((segments) => workspace.hostPath(segments));
  const masked = toHost(hidden?.readOnly ?? []);
  const underMask = (at: string) => masked.some((mask) => at === mask || at.startsWith(`${mask}/`));
  const readOnly = toHost(guarded?.readOnly ?? []).filter((at) => !underMask(at));
  const pinned = [...new Set([...toHost(guarded?.pinned ?? []), ...toHost(hidden?.pinned ?? [])])]
    .filter((at) => !underMask(at));
  const layout: SandboxLayout = {};
  if (readOnly.length > 0) layout.readOnly = readOnly;
  if (pinned.length > 0) layout.pinned = pinned;
  if (masked.length > 0) layout.masked = masked;
  return layout;
}

/** What a runtime's permissions deny a script (host paths), for a runtime that can deny paths (Deno). */
export interface RuntimeDenial {
  /** Neither read nor written: the masked entries, and every link in the workspace that leads to one, into one or above one. */
  read: string[];
  /** Not written: the same, and the folders that hold a private entry (so none can be renamed away with its folder). */
  write: string[];
}

/**
 * The paths a runtime's permission model must deny a script so that the
 * private entries stay unread, for a runtime whose checks go by the path as
 * named, not as resolved (Deno): the masked entries themselves, every link in
 * the workspace whose target is one of them, lies inside one or holds one
 * (links to such links too), and, for writes, the folders that hold one.
 * A script cannot make a new link under such permissions (Deno's symlink
 * needs unscoped read and write), so the links that exist now are all there are.
 *
 * @param workspace The workspace (its root checked).
 * @param layout The layout {@link sandboxLayout} gave for the same command.
 * @param signal Cancels the walk.
 * @returns The lists, or `undefined` when nothing is private.
 */
export async function runtimeDenial(
  workspace: Workspace,
  layout: SandboxLayout,
  signal?: AbortSignal,
): Promise<RuntimeDenial | undefined> {
  const masked = layout.masked ?? [];
  if (masked.length === 0) return undefined;
  const links: Array<{ at: string; real: string }> = [];
  const root = await workspace.rootFolder();
  await walkWorkspace(workspace, { folder: root, segments: [], release: () => Promise.resolve() }, {
    includeIgnored: true,
    collect: false,
    maxEntries: PROTECTED_SCAN_MAX_ENTRIES,
    signal,
    wants: (_path, _name, kind) => kind === "symlink",
    onEntry: async (entry) => {
      const at = workspace.hostPath(entry.path.split("/"));
      const real = await workspace.host.realpath(at).catch(() => null);
      if (real !== null) links.push({ at, real });
    },
  });
  const read = [...masked];
  const touches = (real: string) =>
    read.some((denied) => real === denied || real.startsWith(`${denied}/`) || denied.startsWith(`${real}/`));
  // Until nothing changes: a link to a denied link's folder is denied too.
  for (let changed = true; changed;) {
    changed = false;
    for (const link of links) {
      if (read.includes(link.at) || !touches(link.real)) continue;
      read.push(link.at);
      changed = true;
    }
  }
  const holders = (layout.pinned ?? []).filter((folder) => folder !== workspace.root);
  return { read, write: [...new Set([...read, ...holders])] };
}
