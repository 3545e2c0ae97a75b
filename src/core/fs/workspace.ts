import { checkPrivatePatterns } from "./private_paths.ts";
import { type Host, type HostDir, type HostStat, isHostError } from "../../host.ts";
import { type HeldRoot, holdRoot } from "./hold_root.ts";
import type { WorkspaceOptions } from "./open_workspace.ts";
import { childEnvironment, MINIMAL_ENVIRONMENT_NAMES } from "../process/environment.ts";
import { rootChanged, WorkspaceError } from "../errors.ts";
import { closeFolder, type Confinement, type Folder } from "./folder.ts";
import { killBackgroundProcesses } from "../process/background_processes.ts";
import { joinHostPath, separatorOf } from "../path/host_path.ts";
import { MAX_WALK_DEPTH } from "../limits.ts";
import { type Resolved, resolvePath } from "./resolve_path.ts";
import { mapEnvironmentError } from "./map_host_error.ts";
import { type Identity, sameIdentity } from "./same_identity.ts";
import { declareProtectedPaths } from "./change_policy.ts";

export { type Identity, sameIdentity } from "./same_identity.ts";
export type { Resolved } from "./resolve_path.ts";
export type { Confinement, Folder } from "./folder.ts";

/** Options of {@link Workspace.resolve}. */
export interface ResolveOptions {
  /** Follow a link in the final position. @default true */
  followFinal?: boolean;
  /** Return `stat: null` instead of failing when the final object is missing. @default false */
  allowMissing?: boolean;
  /** Create missing folders on the way (never the final segment). @default false */
  createParents?: boolean;
  /**
   * The path as given ended in `/` (see `namesFolder`): the final object must
   * be a folder, after links (a final link is followed for the check only
   * when `followFinal`; otherwise a final link is `NOT_A_DIRECTORY`). A
   * missing final object is left to the caller (`allowMissing`).
   * @default false
   */
  folder?: boolean;
  /** The action, for error messages ("read", "write", …). @default "open" */
  action?: string;
  /** The path as the caller gave it, for error messages. @default the segments joined by "/" */
  display?: string;
}

/** What looking up one name at a held folder found. */
export type FolderLookup =
  /** A folder, now held. */
  | { kind: "folder"; folder: Folder }
  /** A symbolic link (not followed). */
  | { kind: "symlink" }
  /** Something that is not a folder. */
  | { kind: "other"; stat: HostStat }
  /** Nothing. */
  | { kind: "missing" };

/**
 * An opened workspace: a canonical root folder held open, its identity, and
 * the host that reaches it. Every operation starts with
 * {@link Workspace.checkRoot} and resolves paths with
 * {@link Workspace.resolve}, one name at a time from the held root. Create one
 * with {@link openWorkspace}.
 */
export class Workspace {
  /** The host this workspace runs on. */
  readonly host: Host;
  /** The canonical absolute root (all links resolved). */
  readonly root: string;
  /** The root entry as given (made absolute), re-checked before every operation. */
  readonly rootEntry: string;
  /** The root folder's identity at open time. */
  readonly rootIdentity: Identity;
  /** Variables given to child processes. */
  readonly env: Readonly<Record<string, string>>;
  /** Parent variables passed through to child processes. */
  readonly inheritEnv: readonly string[];
  /** The paths this workspace was opened to protect (`WorkspaceOptions.protectedPaths`); what is in force may be more (`protectedPathsInForce`). */
  readonly protectedPaths: readonly string[];
  /** The paths no tool reads, lists or changes (`WorkspaceOptions.privatePaths`). */
  readonly privatePaths: readonly string[];
  readonly #wanted: "auto" | "paths";
  #held: Promise<HeldRoot> | undefined;
  #route: Confinement | undefined;

  /** Use {@link openWorkspace}. */
  constructor(host: Host, root: string, rootEntry: string, identity: Identity, options: WorkspaceOptions) {
    this.host = host;
    this.root = root;
    this.rootEntry = rootEntry;
    this.rootIdentity = { dev: identity.dev, ino: identity.ino, birthtimeMs: identity.birthtimeMs };
    this.env = Object.freeze({ ...(options.env ?? {}) });
    this.inheritEnv = Object.freeze([...(options.inheritEnv ?? [])]);
    this.#wanted = options.confinement ?? "auto";
    this.protectedPaths = Object.freeze([...(options.protectedPaths ?? [])]);
    declareProtectedPaths(this, this.protectedPaths);
    checkPrivatePatterns(options.privatePaths ?? []);
    this.privatePaths = Object.freeze([...(options.privatePaths ?? [])]);
  }

  /**
   * How this workspace reaches its folders: `handles` (race-free) where the
   * host can hold folders and look names up at them, else `paths`.
   *
   * @returns The route, decided once by a probe when the root is first held.
   */
  async confinement(): Promise<Confinement> {
    return (await this.#holdRoot()).confinement;
  }

  /**
   * The route in force, as {@link Workspace.confinement} says, without waiting:
   * `"handles"` (race-free: every name looked up at a held folder) or
   * `"paths"` (the fallback path walk, not race-free; on Deno anything short of
   * `--allow-all`). {@link openWorkspace} holds the root before it returns, so
   * the route is known from then on; before the first hold (a workspace made
   * with its constructor) it is what was asked for, `"paths"` or `"handles"`.
   *
   * @example Refusing the fallback route
   * ```ts
   * import { openWorkspace } from "@paddock/tools";
   * const workspace = await openWorkspace("./project");
   * if (workspace.route !== "handles") throw new Error("run Deno with -A for the race-free route");
   * ```
   */
  get route(): Confinement {
    return this.#route ?? (this.#wanted === "paths" ? "paths" : "handles");
  }

  /** The held root folder, where every walk starts. */
  async rootFolder(): Promise<Folder> {
    return (await this.#holdRoot()).folder;
  }

  /**
   * Kills its background processes (each whole process group, see
   * `process_kill`) and lets go of the held root handle. The workspace holds
   * one descriptor for its root from first use; a later call opens it again.
   *
   * @returns When the processes have ended and the handle is closed.
   */
  async close(): Promise<void> {
    await killBackgroundProcesses(this);
    const held = this.#held;
    this.#held = undefined;
    const root = await held?.catch(() => null);
    if (root) await closeFolder(root.folder);
  }

  // The root is held once, on first use (see hold_root.ts); a failed hold is tried again next time.
  #holdRoot(): Promise<HeldRoot> {
    this.#held ??= holdRoot(this.host, this.root, this.rootIdentity, this.#wanted);
    this.#held.then((held) => (this.#route = held.confinement), () => {
      this.#held = undefined;
    });
    return this.#held;
  }

  /**
   * Checks that the root entry still resolves to the same folder: the entry as
   * given (following links) and the canonical path must both still have the
   * identity seen at open time. A root deleted and re-created, renamed, or a
   * root link retargeted all fail here. (On the `handles` route nothing could
   * escape through a swapped root anyway: every walk starts at the held one.)
   *
   * @throws {WorkspaceError} `WORKSPACE_ROOT_CHANGED`.
   */
  async checkRoot(): Promise<void> {
    await this.#holdRoot();
    const [viaEntry, canonical] = await Promise.all([
      this.host.stat(this.rootEntry).catch(() => null),
      this.host.lstat(this.root).catch(() => null),
    ]);
    if (
      viaEntry === null || canonical === null || canonical.kind !== "directory" ||
      !sameIdentity(viaEntry, this.rootIdentity) || !sameIdentity(canonical, this.rootIdentity)
    ) {
      throw rootChanged();
    }
  }

  /** The host path of canonical workspace segments (for processes' working folders and messages, never for a confined step). */
  hostPath(segments: readonly string[]): string {
    return joinHostPath(this.host.platform, this.root, segments);
  }

  /** Where `name` at a held folder is reached: one name after the folder's `at`. */
  childPath(folder: Folder, name: string): string {
    const separator = folder.handle !== null ? "/" : separatorOf(this.host.platform);
    return folder.at.endsWith(separator) ? folder.at + name : folder.at + separator + name;
  }

  /** The environment for a child process: minimal variables, `inheritEnv`, then `env`. */
  childEnvironment(): Record<string, string> {
    // Only the names picked are asked for, so a scoped --allow-env is enough under Deno.
    const names = [...MINIMAL_ENVIRONMENT_NAMES, ...this.inheritEnv];
    try {
      return childEnvironment(this.host.environment(names), this.inheritEnv, this.env);
    } catch (error) {
      throw mapEnvironmentError(error);
    }
  }

  /**
   * Looks up one name at a held folder and, if it is a folder, holds it:
   * `handles`: opened at the parent's handle, no-follow, `O_DIRECTORY`;
   * `paths`: lstat'ed by path, then the whole chain above re-verified.
   *
   * @param parent The held folder.
   * @param name One segment.
   * @returns What is there; a folder returned is the caller's to close ({@link closeFolder}).
   * @throws {HostError} When the name cannot be examined (not for missing, links or non-folders).
   * @throws {WorkspaceError} `PATH_CHANGED` when a folder of the chain changed (`paths`), `PATH_TOO_DEEP`.
   */
  async openFolder(parent: Folder, name: string): Promise<FolderLookup> {
    const path = this.childPath(parent, name);
    const segments = [...parent.segments, name];
    if (segments.length > MAX_WALK_DEPTH) throw tooDeep(segments.join("/"));
    if (parent.handle !== null) {
      let handle: HostDir;
      try {
        handle = await this.host.openDir(path);
      } catch (error) {
        if (isHostError(error, "ENOENT")) return { kind: "missing" };
        if (!isHostError(error, "ELOOP", "ENOTDIR")) throw error;
        // A link (ELOOP from O_NOFOLLOW) or not a folder: look without following.
        const stat = await this.host.lstat(path).catch((cause) => {
          if (isHostError(cause, "ENOENT")) return null;
          throw cause;
        });
        if (stat === null) return { kind: "missing" };
        if (stat.kind === "symlink") return { kind: "symlink" };
        if (stat.kind === "directory") throw pathChanged(segments.join("/"));
        return { kind: "other", stat };
      }
      try {
        const stat = await handle.stat();
        return { kind: "folder", folder: { at: handle.at ?? path, stat, segments, parent, handle } };
      } catch (error) {
        await handle.close().catch(() => {});
        throw error;
      }
    }
    let stat: HostStat;
    try {
      stat = await this.host.lstat(path);
    } catch (error) {
      if (isHostError(error, "ENOENT")) {
        await this.confirm(parent);
        return { kind: "missing" };
      }
      throw error;
    }
    await this.confirm(parent);
    if (stat.kind === "symlink") return { kind: "symlink" };
    if (stat.kind !== "directory") return { kind: "other", stat };
    return { kind: "folder", folder: { at: path, stat, segments, parent, handle: null } };
  }

  /**
   * Confirms that a folder is still where the walk found it. `handles`: always
   * (a held folder cannot move away from its handle). `paths`: every folder of
   * the chain, from `folder` up to the root, must still lstat as the same
   * folder at its path, so a swap must also have been swapped back to pass.
   *
   * @param folder The folder a step was taken at.
   * @returns Nothing, at once, for a held folder (no promise: a walk asks for
   * each file); else when the chain is confirmed.
   * @throws {WorkspaceError} `PATH_CHANGED` (or `WORKSPACE_ROOT_CHANGED` for the root).
   */
  confirm(folder: Folder): Promise<void> | undefined {
    return folder.handle !== null ? undefined : this.#confirmChain(folder);
  }

  async #confirmChain(folder: Folder): Promise<void> {
    for (let at: Folder | null = folder; at !== null; at = at.parent) {
      if (at.handle !== null) return;
      const now = await this.host.lstat(at.at).catch(() => null);
      if (now === null || now.kind !== "directory" || !sameIdentity(now, at.stat)) {
        throw at.parent === null ? rootChanged() : pathChanged(at.segments.join("/"));
      }
    }
  }

  /**
   * Resolves normalized segments from the held root, one name at a time (see
   * {@link resolvePath}). The caller must {@link Resolved.release} the result.
   *
   * @param segments The normalized path.
   * @param options Link, missing-file and folder-creation behaviour; names for messages.
   * @returns The final name at its held folder.
   */
  resolve(segments: readonly string[], options: ResolveOptions = {}): Promise<Resolved> {
    return resolvePath(this, segments, options);
  }

  /**
   * Makes a held folder's entries durable (fsync), after a rename into it.
   * `paths`: the folder is opened by path and must be the one the walk held.
   *
   * @param folder The folder.
   * @throws {WorkspaceError} `PATH_CHANGED` when the path no longer names that folder.
   */
  async syncFolder(folder: Folder): Promise<void> {
    if (folder.handle !== null) return await folder.handle.sync();
    if (this.host.platform === "win32") return; // no directory handles; the filesystem's own durability
    const handle = await this.host.openDir(folder.at);
    try {
      const stat = await handle.stat();
      if (!sameIdentity(stat, folder.stat)) throw pathChanged(folder.segments.join("/"));
      await handle.sync();
    } finally {
      await handle.close().catch(() => {});
    }
  }
}

function pathChanged(display: string): WorkspaceError {
  return new WorkspaceError("PATH_CHANGED", `Cannot use '${display}': a folder was replaced while it was used`, {
    path: display,
    hint: "another process changed the folder; try again",
  });
}

function tooDeep(display: string): WorkspaceError {
  return new WorkspaceError(
    "PATH_TOO_DEEP",
    `Cannot use '${display}': more than ${MAX_WALK_DEPTH} folder levels below the workspace root`,
    { path: display },
  );
}
