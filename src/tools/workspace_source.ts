import { checkPrivatePatterns } from "../core/fs/private_paths.ts";
import { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import { declareProtectedPaths } from "../core/fs/change_policy.ts";
import { checkRootNow } from "../core/fs/check_root_now.ts";

/** Options of {@link DeferredWorkspace}. */
export interface DeferredWorkspaceOptions {
  /**
   * Paths no tool may change in this folder (`PROTECTED_PATH`), declared at
   * once, before the folder is opened (see `WorkspaceOptions.protectedPaths`).
   * @default []
   */
  protectedPaths?: readonly string[];
  /** Paths no tool reads, lists or changes (`PATH_PRIVATE`; see `WorkspaceOptions.privatePaths`). @default [] */
  privatePaths?: readonly string[];
}

/**
 * A workspace opened on first use and then shared: what the tool factories
 * make of a root path, so that tools made together share one workspace.
 */
export class DeferredWorkspace {
  private opened: Promise<Workspace> | undefined;
  #current: Workspace | undefined;
  /** The paths this source protects (its `protectedPaths` option). */
  readonly protectedPaths: readonly string[];
  /** The paths no tool reads, lists or changes (its `privatePaths` option). */
  readonly privatePaths: readonly string[];

  /**
   * Makes a workspace source for `root`; nothing is opened yet.
   *
   * @param root The root folder, opened with the default host at first use.
   * @param options Protected paths.
   */
  constructor(readonly root: string, options: DeferredWorkspaceOptions = {}) {
    this.protectedPaths = Object.freeze([...(options.protectedPaths ?? [])]);
    declareProtectedPaths(this, this.protectedPaths);
    checkPrivatePatterns(options.privatePaths ?? []);
    this.privatePaths = Object.freeze([...(options.privatePaths ?? [])]);
  }

  /** Opens the workspace once; a failed open is tried again on the next call. */
  open(): Promise<Workspace> {
    return this.opened ??= openWorkspace(this.root, {
      protectedPaths: this.protectedPaths,
      privatePaths: this.privatePaths,
    }).then(
      (workspace) => (this.#current = workspace),
      (error) => {
        this.opened = undefined; // a root that appears later can still be opened
        throw error;
      },
    );
  }

  /** The workspace, once {@link DeferredWorkspace.open} has opened it; `undefined` before. */
  get current(): Workspace | undefined {
    return this.#current;
  }
}

/**
 * The workspace a tool factory makes of a root path: opened at first use,
 * but a root that does not exist (or is not a folder) is refused now, where
 * the program's author is, rather than at each of the model's calls.
 *
 * @param root The root folder as the author gave it.
 * @returns The source, not opened yet.
 * @throws {WorkspaceError} `WORKSPACE_ROOT_INVALID` for a root the default host sees missing or not a folder.
 */
export function deferredRoot(root: string, options: DeferredWorkspaceOptions = {}): DeferredWorkspace {
  checkRootNow(root);
  return new DeferredWorkspace(root, options);
}

/** A workspace, or the root folder to open one on (with the default host) at first use. */
export type WorkspaceSource = Workspace | DeferredWorkspace | string;

/** A tool's workspace: opened once, on first use; and its root folders known so far, without I/O. */
export interface WorkspaceGetter {
  /** Opens (or takes) the workspace. */
  (): Promise<Workspace>;
  /** The canonical root and the root as given, when known now (for hints); none before a lazy root is opened, but the given root if absolute. */
  roots(): string[];
  /** The object the workspace is (or is opened by): where protection is declared for it (`declareProtectedPaths`). */
  readonly owner: Workspace | DeferredWorkspace;
}

/** Returns a memoised getter that opens `source` once, on first use. */
export function workspaceGetter(source: WorkspaceSource): WorkspaceGetter {
  const lazy = source instanceof Workspace
    ? undefined
    : source instanceof DeferredWorkspace
    ? source
    : deferredRoot(source);
  const getter = (): Promise<Workspace> => lazy === undefined ? Promise.resolve(source as Workspace) : lazy.open();
  const roots = (): string[] => {
    const opened = lazy === undefined ? source as Workspace : lazy.current;
    if (opened !== undefined) return [opened.root, opened.rootEntry];
    // Not opened yet: the root as given, when it is absolute (a hint compares strings only).
    return lazy !== undefined && /^(?:\/|[A-Za-z]:[\\/])/.test(lazy.root) ? [lazy.root] : [];
  };
  return Object.assign(getter, { roots, owner: lazy ?? source as Workspace });
}
