import type { HostDir, HostStat } from "../../host.ts";

/**
 * How a workspace reaches the folders it walks.
 *
 * - `handles`: every folder is held open as a directory handle and every name
 *   is looked up *at* a held folder (Linux `/proc/self/fd/<fd>/<name>`, or the
 *   memory host's own handles): a folder renamed or swapped for a link after
 *   it was opened changes nothing for the walk. Race-free by construction.
 * - `paths`: no such route (Deno without `--allow-all`, no `/proc`, macOS,
 *   Windows): names are looked up by host path, and every earlier folder of
 *   the chain is re-verified after each look-up and each open (see
 *   {@link Folder.parent}); what remains is written in the README.
 */
export type Confinement = "handles" | "paths";

/** A folder a walk holds: the place where the next name is looked up. */
export interface Folder {
  /** Where a name at this folder is reached: `${at}${separator}${name}` (a held handle's `at`, or the folder's host path). */
  readonly at: string;
  /** The folder's own metadata as held: fstat of the handle, or (paths) the lstat the walk checked. */
  readonly stat: HostStat;
  /** Its canonical segments below the root. */
  readonly segments: readonly string[];
  /** The folder it was opened in, `null` for the root: the chain the `paths` route re-verifies. */
  readonly parent: Folder | null;
  /** The held handle (`handles` route), closed by {@link closeFolder}; `null` on the `paths` route. */
  readonly handle: HostDir | null;
}

/**
 * Closes a folder's handle, if it has one. Never throws: it runs on every way
 * out of a call, including while another error is on its way.
 *
 * @param folder The folder to let go of.
 * @returns When the handle is closed.
 */
export async function closeFolder(folder: Folder): Promise<void> {
  await folder.handle?.close().catch(() => {});
}
