// Who a bubblewrap command runs as. bwrap keeps the caller's uid: a non-root
// caller writes the workspace inside exactly as it does outside. A root caller
// has no capability inside (`--cap-drop ALL`), so it could not write a
// workspace that belongs to another user; then bwrap itself is started as the
// workspace's owner (`setpriv`, as dev containers run as the folder's owner),
// and files the command makes belong to that owner.
import * as fs from "node:fs";

/** A user to start bwrap as. */
export interface OwnerIds {
  uid: number;
  gid: number;
}

/**
 * The owner of the writable folder holding `cwd` when the caller is root and
 * that folder belongs to another user; otherwise `undefined` (bwrap runs as
 * the caller).
 */
export function workspaceOwner(writable: readonly string[], cwd: string): OwnerIds | undefined {
  let uid: number | undefined;
  try {
    uid = process.getuid?.();
  } catch {
    return undefined; // Deno without --allow-sys: the caller is unknown, run as it is
  }
  if (uid !== 0) return undefined;
  const folder = writable.find((dir) => cwd === dir || cwd.startsWith(`${dir.replace(/\/+$/, "")}/`)) ?? writable[0];
  if (folder === undefined) return undefined;
  try {
    const stat = fs.statSync(folder);
    return stat.uid === 0 ? undefined : { uid: stat.uid, gid: stat.gid };
  } catch {
    return undefined;
  }
}

/** The `setpriv` command line that starts the rest as `owner`, with no supplementary group and no capability. */
export function asOwner(setpriv: string, owner: OwnerIds): string[] {
  return [setpriv, "--reuid", String(owner.uid), "--regid", String(owner.gid), "--clear-groups", "--"];
}
