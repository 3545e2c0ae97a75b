import type { Host } from "../../host.ts";
import type { Identity } from "./same_identity.ts";
import { stillNamesObject } from "./still_names_object.ts";

/**
 * Removes a file this process created, if the path still names it: the
 * object at `path` must have the identity recorded when it was created, so a
 * file (or link) someone else put there since is left alone. Never throws:
 * it runs while another error is on its way out.
 *
 * What remains: the object can be swapped between the lstat and the unlink;
 * without unlinkat() on a handle that window cannot be closed.
 *
 * @param host The host.
 * @param path The host path the file was created at.
 * @param identity The identity the file had when it was created.
 * @returns When the file is removed, or was left because it is no longer ours.
 */
export async function removeOwnFile(host: Host, path: string, identity: Identity): Promise<void> {
  if (await stillNamesObject(host, path, identity)) await host.unlink(path).catch(() => {});
}
