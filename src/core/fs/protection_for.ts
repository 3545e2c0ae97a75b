/**
 * The protection one change is checked against: the patterns in force (see
 * `change_policy.ts`) and the protected entries one walk of the workspace
 * finds right before the change, among them where each protected name that
 * is a symbolic link leads (`package.json -> cfg/real.json` protects
 * `cfg/real.json`; `.git -> gitdir` protects `gitdir` and everything in it),
 * as the sandbox's read-only binds and `node_process`'s write list do.
 *
 * A race is tolerated: the walk is a snapshot taken at the start of the call;
 * a link made by another process after it is not in it.
 *
 * @module
 */
import { declarationsReaching } from "./change_policy.ts";
import { type ProtectedLayout, protectedLayout } from "./protected_layout.ts";
import { protectedPattern, type Protection } from "./protected_paths.ts";
import type { Workspace } from "./workspace.ts";

/**
 * The protection in force for one change through `workspace`.
 *
 * 1. The patterns: the caller's own list when given, else what is in force
 *    (`protectedPathsInForce`). None: nothing to walk.
 * 2. One walk from the held root (`protectedLayout`, no link followed, the
 *    protected folders not entered) finds the protected entries, the
 *    protected names that are links, and their targets, followed by the
 *    walker (a dangling one: where it would lead once made).
 * 3. A declared folder that encloses the workspace's root is walked too, and
 *    what it protects below that root is added (a link above the root can
 *    lead into it).
 *
 * @param workspace The workspace the change goes through (its root checked).
 * @param own A tool's own list (replacing what is in force), or a protection already found for this call.
 * @param signal Cancels the walk.
 * @returns The protection.
 * @throws {WorkspaceError} `TOO_MANY_ENTRIES` past `PROTECTED_SCAN_MAX_ENTRIES` (a partial walk could miss a protected link).
 *
 * @example A tool checks the path it is about to change (custom tools call `assertChangeAllowed`, which does this)
 * ```ts
 * import { protectionFor } from "./protection_for.ts";
 * import { assertNotProtected } from "./protected_paths.ts";
 * import type { Workspace } from "./workspace.ts";
 * declare const workspace: Workspace;
 * assertNotProtected(["cfg", "real.json"], await protectionFor(workspace), "write", "cfg/real.json");
 * ```
 */
export async function protectionFor(
  workspace: Workspace,
  own?: readonly string[] | Protection,
  signal?: AbortSignal,
): Promise<Protection> {
  if (own !== undefined && !Array.isArray(own)) return own as Protection;
  // 1. The patterns.
  const reaching = own === undefined ? await declarationsReaching(workspace) : [{ patterns: own as readonly string[] }];
  const patterns = [...new Set(reaching.flatMap((declaration) => declaration.patterns))];
  if (patterns.length === 0) return { patterns, entries: [] };
  // 2. This workspace's protected entries and link targets.
  const entries = protectedEntries(await protectedLayout(workspace, patterns, { forChanges: true, signal }), patterns);
  // 3. What an enclosing declared folder protects below this root.
  for (const declaration of reaching) {
    if (!("enclosing" in declaration) || declaration.enclosing === undefined) continue;
    const { workspace: outer, prefix } = declaration.enclosing;
    await outer.checkRoot(); // fails closed: a change is refused while the enclosing root cannot be walked
    const layout = await protectedLayout(outer, declaration.patterns, { forChanges: true, signal });
    for (const entry of protectedEntries(layout, declaration.patterns)) {
      if (entry.length <= prefix.length && prefix.slice(0, entry.length).every((s, i) => s === entry[i])) {
        return { patterns: ["*"], entries }; // the whole root lies in what it protects
      }
      if (prefix.every((segment, index) => entry[index] === segment)) entries.push(entry.slice(prefix.length));
    }
  }
  return { patterns, entries };
}

// The protected entries of a layout, and its protected names that are links: a folder moved with such a link
// inside would change where the link leads (its target is relative), so it is not moved or deleted whole.
function protectedEntries(layout: ProtectedLayout, patterns: readonly string[]): string[][] {
  return [...layout.readOnly, ...layout.links.filter((link) => protectedPattern(link, patterns) !== undefined)];
}
