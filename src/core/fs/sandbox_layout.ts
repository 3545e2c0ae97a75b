/**
 * What a sandbox is handed for one command over a workspace: the protected
 * entries to bind read-only, the private entries to mask (an empty file or
 * folder mounted over each), and the folders to pin so neither can be moved
 * away with its folder. One scan per kind of path (see `protectedLayout`).
 *
 * @module
 */
import { protectedLayout } from "./protected_layout.ts";
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
