import { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";

/**
 * A workspace opened on first use and then shared: what the tool factories
 * make of a root path, so that tools made together share one workspace.
 */
export class DeferredWorkspace {
  private opened: Promise<Workspace> | undefined;
  #current: Workspace | undefined;

  /**
   * Makes a workspace source for `root`; nothing is opened yet.
   *
   * @param root The root folder, opened with the default host at first use.
   */
  constructor(readonly root: string) {}

  /** Opens the workspace once; a failed open is tried again on the next call. */
  open(): Promise<Workspace> {
    return this.opened ??= openWorkspace(this.root).then((workspace) => (this.#current = workspace), (error) => {
      this.opened = undefined; // a root that appears later can still be opened
      throw error;
    });
  }

  /** The workspace, once {@link DeferredWorkspace.open} has opened it; `undefined` before. */
  get current(): Workspace | undefined {
    return this.#current;
  }
}

/** A workspace, or the root folder to open one on (with the default host) at first use. */
export type WorkspaceSource = Workspace | DeferredWorkspace | string;

/** A tool's workspace: opened once, on first use; and its root folders known so far, without I/O. */
export interface WorkspaceGetter {
  /** Opens (or takes) the workspace. */
  (): Promise<Workspace>;
  /** The canonical root and the root as given, when known now (for hints); none before a lazy root is opened, but the given root if absolute. */
  roots(): string[];
}

/** Returns a memoised getter that opens `source` once, on first use. */
export function workspaceGetter(source: WorkspaceSource): WorkspaceGetter {
  const lazy = source instanceof Workspace
    ? undefined
    : source instanceof DeferredWorkspace
    ? source
    : new DeferredWorkspace(source);
  const getter = (): Promise<Workspace> => lazy === undefined ? Promise.resolve(source as Workspace) : lazy.open();
  const roots = (): string[] => {
    const opened = lazy === undefined ? source as Workspace : lazy.current;
    if (opened !== undefined) return [opened.root, opened.rootEntry];
    // Not opened yet: the root as given, when it is absolute (a hint compares strings only).
    return lazy !== undefined && /^(?:\/|[A-Za-z]:[\\/])/.test(lazy.root) ? [lazy.root] : [];
  };
  return Object.assign(getter, { roots });
}
