import { WorkspaceError } from "../core/errors.ts";
import type { Workspace } from "../core/fs/workspace.ts";

/** One folder the MCP server serves. */
export interface McpRoot {
  /** How tools address it: `NAME:path` (the default root also takes bare paths). */
  readonly name: string;
  /** The confined workspace. */
  readonly workspace: Workspace;
  /** Whether bare paths (with no `NAME:` prefix) address it: the first `--root`. */
  readonly isDefault: boolean;
}

/** Where one path argument goes: the root, and the path inside it. */
export interface RoutedPath {
  /** The root it names. */
  root: McpRoot;
  /** The path below that root, as the tool gets it (the prefix taken off). */
  path: string;
}

// A root name: two characters at least (a one-letter prefix would read as a Windows drive, `C:`).
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]+$/;
// `NAME:rest`: the path grammar refuses a colon in any segment, so no real
// workspace path can ever be mistaken for a prefix.
const PREFIXED = /^([A-Za-z0-9][A-Za-z0-9._-]+):(.*)$/s;

/**
 * Names the served folders: each after its folder's own name (its last
 * segment, with characters outside `A-Z a-z 0-9 . _ -` made `-`), made
 * unique with `-2`, `-3`, …; a name too short to use becomes `root` (then
 * `root-2`, …). The first folder is the default root.
 *
 * @param workspaces The opened roots, the default first.
 * @returns The roots with their names.
 */
export function nameRoots(workspaces: readonly Workspace[]): McpRoot[] {
  const taken = new Set<string>();
  return workspaces.map((workspace, index) => {
    const last = workspace.root.split(/[\\/]/).filter((part) => part !== "").pop() ?? "";
    let base = last.replace(/[^A-Za-z0-9._-]/g, "-").replace(/^[._-]+/, "");
    if (!NAME.test(base)) base = "root";
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    taken.add(name.toLowerCase());
    return { name, workspace, isDefault: index === 0 };
  });
}

/**
 * The roots the server was started with, and the ones it serves now: all of
 * them, or those a client's `roots/list` leaves in. A client can only narrow
 * the set (a root is served while it lies inside one of the client's roots);
 * a client root that lies outside every configured root adds nothing.
 */
export class RootSet {
  private served: ReadonlySet<McpRoot>;

  /**
   * @param roots The configured roots, the default first.
   */
  constructor(readonly roots: readonly McpRoot[]) {
    this.served = new Set(roots);
  }

  /** The default root (bare paths). */
  get defaultRoot(): McpRoot {
    return this.roots[0];
  }

  /** The roots served now, in configured order. */
  current(): McpRoot[] {
    return this.roots.filter((root) => this.served.has(root));
  }

  /**
   * Narrows the served roots to the configured ones inside `clientFolders`
   * (canonical host paths of the client's `file://` roots), or serves all
   * again for `undefined` (a client without roots). Never adds a folder.
   *
   * @param clientFolders The client's roots as canonical folders, or `undefined`.
   */
  narrow(clientFolders: readonly string[] | undefined): void {
    if (clientFolders === undefined) {
      this.served = new Set(this.roots);
      return;
    }
    this.served = new Set(
      this.roots.filter((root) => clientFolders.some((folder) => isInside(root.workspace.root, folder))),
    );
  }

  /**
   * Routes one path argument: `NAME:rest` to the root of that name (rest
   * `""` is its top), anything else to the default root.
   *
   * @param path The path as the model wrote it.
   * @returns The root and the path inside it.
   * @throws {WorkspaceError} `ROOT_NOT_SERVED` when the root is not served now
   *   (the client's roots left it out).
   */
  route(path: string): RoutedPath {
    const match = PREFIXED.exec(path);
    const named = match === null ? undefined : this.roots.find((root) => root.name === match[1]);
    const root = named ?? this.defaultRoot;
    const inside = named === undefined || match === null ? path : match[2] === "" ? "." : match[2];
    if (!this.served.has(root)) {
      const served = this.current().map((r) => `'${r.name}:'`);
      throw new WorkspaceError(
        "ROOT_NOT_SERVED",
        `Cannot use '${path}': the folder '${root.name}' is not among the client's roots`,
        {
          hint: served.length === 0
            ? "the client's roots leave no folder of this server"
            : `use a path in a served folder: ${served.join(", ")}${
              this.served.has(this.defaultRoot) ? " (bare paths name the default)" : ""
            }`,
        },
      );
    }
    return { root, path: inside };
  }

  /**
   * A path of a result as the model should write it again: prefixed with
   * its root's name unless it is in the default root.
   *
   * @param root The root the result is from.
   * @param path The workspace-relative path in the result.
   * @returns The path to show.
   */
  display(root: McpRoot, path: string): string {
    return root.isDefault ? path : `${root.name}:${path === "." ? "" : path}`;
  }
}

/** Whether canonical `path` is `folder` or lies below it (POSIX or Windows forms). */
function isInside(path: string, folder: string): boolean {
  const windows = /^[A-Za-z]:[\\/]/.test(folder);
  const normalize = (p: string) => (windows ? p.replace(/\\/g, "/").toLowerCase() : p).replace(/\/+$/, "");
  const base = normalize(folder);
  const target = normalize(path);
  return target === base || base === "" || target.startsWith(base + "/");
}

/**
 * The host path of a client's root URI, for `file:` URIs only (others name
 * nothing on this disk and are ignored).
 *
 * @param uri The root's URI, e.g. `file:///home/me/project`.
 * @returns The path, or `undefined`.
 */
export function fileUriPath(uri: string): string | undefined {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return undefined;
  }
  if (url.protocol !== "file:" || (url.host !== "" && url.host !== "localhost")) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
  if (path.includes("\0")) return undefined;
  // file:///C:/x → C:/x
  return /^\/[A-Za-z]:\//.test(path) ? path.slice(1) : path;
}
