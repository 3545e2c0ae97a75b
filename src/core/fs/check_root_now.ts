import { isHostError } from "../../host.ts";
import type { Host } from "../../host.ts";
import { WorkspaceError } from "../errors.ts";
import { isAbsoluteHostPath, joinHostPath } from "../path/host_path.ts";
import { defaultHost } from "./default_host.ts";

/**
 * Refuses at once a workspace root that does not exist or is not a folder,
 * where the host can tell in one synchronous call ({@link Host.statSync}): a
 * tool factory given a root path then fails where its author is, instead of
 * handing every one of the model's calls a `WORKSPACE_ROOT_INVALID` only the
 * program's author can fix. Anything the look cannot settle (a host without
 * `statSync`, no default host registered, a permission the runtime withholds,
 * an I/O error) is left to the first open, which reports it as before. The
 * open still checks everything again: this look only moves the common
 * mistake earlier, it guards nothing.
 *
 * 1. Pick the host (the default one when none is given; none registered: leave it to the open).
 * 2. Make the root absolute as `openWorkspace` does.
 * 3. Look: missing (ENOENT, ENOTDIR on the way) or not a folder throws; any other failure passes.
 *
 * @param root The root folder as the author gave it.
 * @param host The host the workspace will be opened on. @default the default host
 * @throws {WorkspaceError} `WORKSPACE_ROOT_INVALID` naming `root` as given.
 */
export function checkRootNow(root: string, host?: Host): void {
  const invalid = (detail: string) =>
    new WorkspaceError("WORKSPACE_ROOT_INVALID", `Cannot open workspace '${String(root)}': ${detail}`, {
      hint: "pass the path of an existing folder (a relative path starts at the current folder), or create it first",
    });
  if (typeof root !== "string" || root.length === 0 || root.includes("\0")) {
    throw invalid("the root path is empty or invalid");
  }
  // 1. The host.
  let on: Host;
  try {
    on = host ?? defaultHost();
  } catch {
    return;
  }
  if (on.statSync === undefined) return;
  // 2. The root as openWorkspace makes it absolute.
  const entry = isAbsoluteHostPath(on.platform, root) ? root : joinHostPath(on.platform, on.cwd(), [root]);
  // 3. The look.
  let kind: string;
  try {
    kind = on.statSync(entry).kind;
  } catch (error) {
    if (isHostError(error) && (error.code === "ENOENT" || error.code === "ENOTDIR")) {
      throw invalid("the root folder does not exist");
    }
    return;
  }
  if (kind !== "directory") throw invalid("the root is not a folder");
}
