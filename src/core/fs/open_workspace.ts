import { isHostError } from "../../host.ts";
import type { Host } from "../../host.ts";
import { WorkspaceError } from "../errors.ts";
import { isAbsoluteHostPath, joinHostPath } from "../path/host_path.ts";
import { defaultHost } from "./default_host.ts";
import { permissionDenied } from "./map_host_error.ts";
import { Workspace } from "./workspace.ts";

/** Options of {@link openWorkspace}. */
export interface WorkspaceOptions {
  /** The host to run on. @default Deno's host on Deno, Node's on Node and Bun */
  host?: Host;
  /** Variables given to child processes, on top of the minimal environment. @default {} */
  env?: Record<string, string>;
  /** Names of parent variables passed through to child processes, besides the minimal ones. @default [] */
  inheritEnv?: string[];
  /**
   * `"paths"` forces the path walk even where held folders work (to test the
   * fallback, or to hold no descriptor); `"auto"` uses held folders where a
   * probe finds them usable.
   * @default "auto"
   */
  confinement?: "auto" | "paths";
  /**
   * Paths no tool may change in this workspace's folder (`PROTECTED_PATH`), on
   * top of what a `shell` allow list declares (see `DEFAULT_PROTECTED_PATHS`
   * and `protectedPathsInForce`). It declares them for the folder, so every
   * workspace object opened on it in this process refuses them too.
   * @default [] (only what a shell with an allow list declares)
   */
  protectedPaths?: readonly string[];
  /**
   * Paths no tool reads, lists, finds, searches, shows, moves or overwrites
   * (`PATH_PRIVATE`; listings and searches leave them out and count them):
   * `name` (globs with `*`) at any depth, `folder/**` all below a folder of
   * that name. A sandboxed shell masks them too; an unsandboxed command is not
   * held by them.
   * @default [] (nothing private)
   */
  privatePaths?: readonly string[];
}

/**
 * Opens a workspace: canonicalises `root` once (realpath), requires a folder,
 * and records its identity so later operations can tell if it was replaced.
 *
 * @param root The workspace folder (absolute, or relative to the current folder).
 * @param options The host and the child-process environment.
 * @returns The opened {@link Workspace}.
 * @throws {WorkspaceError} `WORKSPACE_ROOT_INVALID` when `root` is missing or not a folder.
 *
 * @example Opening a workspace
 * ```ts
 * import { createCodingTools, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project", { inheritEnv: ["NODE_OPTIONS"] });
 * const tools = createCodingTools(workspace);
 * ```
 */
export async function openWorkspace(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
  const host = options.host ?? defaultHost();
  // The root is the caller's own folder (not a model's path), so messages name it as given.
  const invalid = (detail: string, cause?: unknown) =>
    new WorkspaceError("WORKSPACE_ROOT_INVALID", `Cannot open workspace '${String(root)}': ${detail}`, { cause });
  if (typeof root !== "string" || root.length === 0 || root.includes("\0")) {
    throw invalid("the root path is empty or invalid");
  }
  const rootEntry = isAbsoluteHostPath(host.platform, root) ? root : joinHostPath(host.platform, host.cwd(), [root]);
  let canonical: string;
  try {
    canonical = await host.realpath(rootEntry);
  } catch (cause) {
    if (isHostError(cause) && cause.missingPermission !== undefined) {
      throw permissionDenied(`Cannot open workspace '${root}'`, cause.missingPermission, cause);
    }
    throw invalid("the root folder does not exist or cannot be reached", cause);
  }
  const stat = await host.lstat(canonical).catch((cause) => {
    throw invalid("the root folder cannot be examined", cause);
  });
  if (stat.kind !== "directory") throw invalid("the root is not a folder");
  const workspace = new Workspace(host, canonical, rootEntry, stat, options);
  await workspace.rootFolder().catch((cause) => {
    throw invalid("the root folder changed while it was opened", cause);
  });
  return workspace;
}
