import type { Host, HostDir } from "../../host.ts";
import { rootChanged } from "../errors.ts";
import type { Confinement, Folder } from "./folder.ts";
import { type Identity, sameIdentity } from "./same_identity.ts";

/** The root as a workspace holds it: the route its walks take, and the root folder they start at. */
export interface HeldRoot {
  confinement: Confinement;
  folder: Folder;
}

/**
 * Opens a workspace root once. The handle must be the folder whose identity
 * was recorded, and the `*at` route must work on it (procfs mounted, the
 * runtime allowed to use it: Deno needs --allow-all), else the path walk.
 *
 * @param host The workspace's host.
 * @param root The canonical root.
 * @param identity The root's identity at open time.
 * @param wanted `"paths"` to force the path walk.
 * @returns The held root and its route.
 * @throws {WorkspaceError} `WORKSPACE_ROOT_CHANGED` when the folder opened is not the root recorded.
 */
export async function holdRoot(
  host: Host,
  root: string,
  identity: Identity,
  wanted: "auto" | "paths",
): Promise<HeldRoot> {
  const pathsRoot = (): HeldRoot => ({
    confinement: "paths",
    folder: {
      at: root,
      stat: { ...identity, kind: "directory", size: 0, mode: 0, mtimeMs: 0 },
      segments: [],
      parent: null,
      handle: null,
    },
  });
  if (wanted === "paths") return pathsRoot();
  let handle: HostDir;
  try {
    handle = await host.openDir(root);
  } catch {
    throw rootChanged();
  }
  const stat = await handle.stat().catch(() => null);
  if (stat === null || stat.kind !== "directory" || !sameIdentity(stat, identity)) {
    await handle.close().catch(() => {});
    throw rootChanged();
  }
  const at = handle.at;
  const probe = at === null ? null : await host.lstat(`${at}/.`).catch(() => null);
  if (at === null || probe === null || probe.kind !== "directory" || !sameIdentity(probe, stat)) {
    await handle.close().catch(() => {});
    return pathsRoot();
  }
  return { confinement: "handles", folder: { at, stat, segments: [], parent: null, handle } };
}
