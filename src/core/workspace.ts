import { type Host, type HostStat, isHostError } from "../host.ts";
import { defaultHost } from "./default_host.ts";
import { childEnvironment, MINIMAL_ENVIRONMENT_NAMES } from "./environment.ts";
import { WorkspaceError } from "./errors.ts";
import { isAbsoluteHostPath, joinHostPath, segmentsBelow, splitHostPath } from "./host_path.ts";
import { MAX_SYMLINK_HOPS } from "./limits.ts";
import { mapEnvironmentError, mapHostError, permissionDenied } from "./map_host_error.ts";
import { type Identity, sameIdentity } from "./same_identity.ts";
import { stillSame } from "./still_same.ts";
import { windowsNameProblem } from "./windows_name_problem.ts";

export { type Identity, sameIdentity } from "./same_identity.ts";

/** Options of {@link openWorkspace}. */
export interface WorkspaceOptions {
  /** The host to run on. @default Deno's host on Deno, Node's on Node and Bun */
  host?: Host;
  /** Variables given to child processes, on top of the minimal environment. @default {} */
  env?: Record<string, string>;
  /** Names of parent variables passed through to child processes, besides the minimal ones. @default [] */
  inheritEnv?: string[];
}

/** What {@link Workspace.resolve} found. */
export interface Resolved {
  /** The absolute host path; every component but possibly the last is a real folder. */
  hostPath: string;
  /** The canonical segments below the root (links resolved). */
  segments: string[];
  /** The final object's lstat, or `null` when it does not exist (only with `allowMissing`). */
  stat: HostStat | null;
  /** The containing folder's host path (the root for the root's children). */
  parentHostPath: string;
  /** The containing folder's identity, as checked during the walk. */
  parentIdentity: Identity;
}

/** Options of {@link Workspace.resolve}. */
export interface ResolveOptions {
  /** Follow a link in the final position. @default true */
  followFinal?: boolean;
  /** Return `stat: null` instead of failing when the final object is missing. @default false */
  allowMissing?: boolean;
  /** Create missing folders on the way (never the final segment). @default false */
  createParents?: boolean;
  /** The action, for error messages ("read", "write", …). @default "open" */
  action?: string;
  /** The path as the caller gave it, for error messages. @default the segments joined by "/" */
  display?: string;
}

interface PendingSegment {
  name: string;
  fromLink: boolean;
}

/**
 * An opened workspace: a canonical root folder, its identity, and the host
 * that reaches it. Every operation starts with {@link Workspace.checkRoot} and
 * resolves paths with {@link Workspace.resolve}, one confined step at a time.
 * Create one with {@link openWorkspace}.
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

  /** Use {@link openWorkspace}. */
  constructor(host: Host, root: string, rootEntry: string, identity: Identity, options: WorkspaceOptions) {
    this.host = host;
    this.root = root;
    this.rootEntry = rootEntry;
    this.rootIdentity = { dev: identity.dev, ino: identity.ino, birthtimeMs: identity.birthtimeMs };
    this.env = Object.freeze({ ...(options.env ?? {}) });
    this.inheritEnv = Object.freeze([...(options.inheritEnv ?? [])]);
  }

  /**
   * Checks that the root entry still resolves to the same folder: the entry as
   * given (following links) and the canonical path must both still have the
   * identity seen at open time. A root deleted and re-created, renamed, or a
   * root link retargeted all fail here.
   *
   * @throws {WorkspaceError} `WORKSPACE_ROOT_CHANGED`.
   */
  async checkRoot(): Promise<void> {
    const [viaEntry, canonical] = await Promise.all([
      this.host.stat(this.rootEntry).catch(() => null),
      this.host.lstat(this.root).catch(() => null),
    ]);
    if (
      viaEntry === null || canonical === null || canonical.kind !== "directory" ||
      !sameIdentity(viaEntry, this.rootIdentity) || !sameIdentity(canonical, this.rootIdentity)
    ) {
      throw new WorkspaceError("WORKSPACE_ROOT_CHANGED", "Cannot use the workspace: its root folder changed", {
        hint: "the workspace folder was deleted, replaced or moved; open the workspace again",
      });
    }
  }

  /** The host path of canonical workspace segments. */
  hostPath(segments: readonly string[]): string {
    return joinHostPath(this.host.platform, this.root, segments);
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
   * Resolves normalized segments from the canonical root, one segment at a
   * time: each component is lstat'ed; a link is read and its target walked in
   * turn, and must stay inside the root; a dangling link is never followed.
   * Does not check the root (callers do that first).
   *
   * What remains: between this walk and the caller's use of the path, another
   * process could swap a component for a link. Without openat() in JavaScript
   * that window cannot be closed; callers narrow it by opening with
   * O_NOFOLLOW and comparing the handle's identity with `stat`.
   *
   * @throws {WorkspaceError} `PATH_ESCAPES_WORKSPACE`, `SYMLINK_LOOP`,
   * `DANGLING_SYMLINK`, `NOT_FOUND`, `NOT_A_DIRECTORY`, or a mapped host error.
   */
  async resolve(segments: readonly string[], options: ResolveOptions = {}): Promise<Resolved> {
    const { followFinal = true, allowMissing = false, createParents = false, action = "open" } = options;
    const display = options.display ?? (segments.join("/") || ".");
    const platform = this.host.platform;
    const fail = (code: WorkspaceError["code"], detail: string, hint?: string) =>
      new WorkspaceError(code, `Cannot ${action} '${display}': ${detail}`, { path: display, hint });
    const lstat = (hostPath: string) =>
      this.host.lstat(hostPath).catch((error) => {
        throw mapHostError(error, action, display);
      });

    // The walked path so far: real folders (and finally the object), with the
    // lstat of each, so '..' from a link target can step back without a lookup.
    const names: string[] = [];
    const stats: HostStat[] = [];
    const pending: PendingSegment[] = segments.map((name) => ({ name, fromLink: false }));
    let hops = 0;

    while (pending.length > 0) {
      const { name, fromLink } = pending.shift() as PendingSegment;
      if (name === "..") {
        // Only link targets bring '..' (the grammar refuses it): step up, never above the root.
        if (names.length === 0) throw fail("PATH_ESCAPES_WORKSPACE", "a symbolic link points outside the workspace");
        names.pop();
        stats.pop();
        continue;
      }
      const isFinal = pending.length === 0;
      const hostPath = this.hostPath([...names, name]);
      let stat: HostStat;
      try {
        stat = await this.host.lstat(hostPath);
      } catch (error) {
        if (isHostError(error, "ENOTDIR")) throw fail("NOT_A_DIRECTORY", "a path component is not a folder");
        if (!isHostError(error, "ENOENT")) throw mapHostError(error, action, display);
        // A link whose target is missing is never followed, not even to create it.
        if (fromLink) throw fail("DANGLING_SYMLINK", "a symbolic link points to something that does not exist");
        if (isFinal && allowMissing) {
          return {
            hostPath,
            segments: [...names, name],
            stat: null,
            parentHostPath: this.hostPath(names),
            parentIdentity: stats.at(-1) ?? this.rootIdentity,
          };
        }
        if (isFinal || !createParents) throw fail("NOT_FOUND", "no such file or folder");
        stat = await this.createFolder(
          hostPath,
          this.hostPath(names),
          stats.at(-1) ?? this.rootIdentity,
          action,
          display,
        );
      }

      if (stat.kind === "symlink" && (!isFinal || followFinal)) {
        if (++hops > MAX_SYMLINK_HOPS) {
          throw fail("SYMLINK_LOOP", `more than ${MAX_SYMLINK_HOPS} symbolic links`, "the path runs in a link loop");
        }
        const target = await this.host.readlink(hostPath).catch((error) => {
          throw mapHostError(error, action, display);
        });
        let targetSegments: string[];
        if (isAbsoluteHostPath(platform, target)) {
          // An absolute target must lie under the root (as canonical, or as given).
          const below = segmentsBelow(platform, this.root, target) ?? segmentsBelow(platform, this.rootEntry, target);
          if (below === null) throw fail("PATH_ESCAPES_WORKSPACE", "a symbolic link points outside the workspace");
          names.length = 0;
          stats.length = 0;
          targetSegments = below;
        } else {
          targetSegments = splitHostPath(platform, target);
        }
        // On Windows a target segment is not taken literally when it ends in a
        // dot or a space, holds a colon or names a device: `.. ` becomes `..`
        // and climbs out of the folder the walk believes it is in. The grammar
        // keeps such names out of the caller's paths; keep them out of link
        // targets too.
        if (
          platform === "win32" &&
          targetSegments.some((segment) => segment !== ".." && windowsNameProblem(segment) !== null)
        ) {
          throw fail("PATH_ESCAPES_WORKSPACE", "a symbolic link target holds a name Windows would rewrite");
        }
        pending.unshift(...targetSegments.map((segment) => ({ name: segment, fromLink: true })));
        continue;
      }

      if (!isFinal && stat.kind !== "directory") throw fail("NOT_A_DIRECTORY", "a path component is not a folder");
      names.push(name);
      stats.push(stat);
    }

    if (names.length === 0) {
      // The path names the root itself (directly, or through links).
      const rootStat = await lstat(this.root);
      return { hostPath: this.root, segments: [], stat: rootStat, parentHostPath: this.root, parentIdentity: rootStat };
    }
    return {
      hostPath: this.hostPath(names),
      segments: names,
      stat: stats[stats.length - 1],
      parentHostPath: this.hostPath(names.slice(0, -1)),
      parentIdentity: stats.length > 1 ? stats[stats.length - 2] : this.rootIdentity,
    };
  }

  // Creates one missing folder during a walk and returns its lstat.
  // 1. mkdir; a folder created concurrently by someone else is fine…
  // 2. …if it is a real folder (not a link).
  // 3. The parent path must still name the folder the walk checked. If a
  //    folder above was swapped for a link between the walk and the mkdir, the
  //    new folder was made wherever the link points (outside, maybe), and its
  //    identity, recorded only now, would pass every later check: refuse, and
  //    remove the folder if it is the one we just made.
  /** Creates one missing folder during a walk (the steps are above). */
  private async createFolder(
    hostPath: string,
    parentHostPath: string,
    parentIdentity: Identity,
    action: string,
    display: string,
  ): Promise<HostStat> {
    const changed = () =>
      new WorkspaceError("PATH_CHANGED", `Cannot ${action} '${display}': a folder was replaced while it was created`, {
        path: display,
      });
    let created = true;
    try {
      await this.host.mkdir(hostPath);
    } catch (error) {
      if (!isHostError(error, "EEXIST")) throw mapHostError(error, action, display);
      created = false;
    }
    const stat = await this.host.lstat(hostPath).catch((error) => {
      throw mapHostError(error, action, display);
    });
    if (stat.kind !== "directory") throw changed();
    if (!(await stillSame(this.host, parentHostPath, parentIdentity, "directory"))) {
      if (created && (await stillSame(this.host, hostPath, stat))) await this.host.rmdir(hostPath).catch(() => {});
      throw changed();
    }
    return stat;
  }
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
  return new Workspace(host, canonical, rootEntry, stat, options);
}
