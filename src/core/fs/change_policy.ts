/**
 * The one place that decides which paths of a workspace a change may not
 * touch (`PROTECTED_PATH`), whichever tool makes the change and however the
 * tools were put together.
 *
 * Protection is declared for a workspace *folder*: by the workspace itself
 * (`openWorkspace(root, { protectedPaths })`, the same option on
 * `DeferredWorkspace`, `NodeWorkspace` and `MemoryWorkspace`), and by every
 * `shell` tool with an allow list (`createShellTool(ws, { allow })` declares
 * `DEFAULT_PROTECTED_PATHS` for its workspace when it is created). Every change
 * path asks {@link protectedPathsInForce} at call time: `atomicWrite` (so
 * `write_file`, `edit_file` and any `defineTool` tool that writes through it),
 * `delete_path`, `move_path`, `create_directory`, and `node_process`'s write
 * list. What is in force for a folder is the union of every declaration for
 * it that is still alive, over any workspace object on the same folder (the
 * same canonical root on the disk, the same memory host and root in memory),
 * so the order in which tools are made, and whether they share one workspace
 * object or each open their own from a path, changes nothing.
 *
 * A declaration lives as long as the object it was made on (the workspace
 * object; for a shell made from a root path, the shell tool): it is held
 * weakly and dropped once that object is collected.
 *
 * A tool's own `protectedPaths` option, when given, replaces what is in force
 * for that tool alone (`[]` is the explicit opt-out).
 *
 * @module
 */
import { assertNotProtected, protectedPattern } from "./protected_paths.ts";
import { segmentsBelow } from "../path/host_path.ts";
import { protectionFor } from "./protection_for.ts";
import type { Workspace } from "./workspace.ts";

/** What protection can be declared on: an opened workspace, or a source that opens one on first use (`DeferredWorkspace`, `NodeWorkspace`). */
export type ProtectionOwner = Workspace | { open(): Promise<Workspace> };

interface Declaration {
  owner: WeakRef<ProtectionOwner>;
  patterns: readonly string[];
}

// Every live declaration, in the order made. Few: one per workspace object or shell tool that declares.
const declarations = new Set<Declaration>();

/**
 * Declares that changes to `patterns` are refused in `owner`'s folder, through
 * any workspace object on that folder, for as long as `owner` is alive. The
 * `shell` tool calls it for an allow list; call it yourself when commands run
 * over the workspace some other way (a `ShellProvider` of your own).
 *
 * @param owner The workspace, or a source that opens one (its folder is learnt when it opens).
 * @param patterns Protected paths (see `DEFAULT_PROTECTED_PATHS`); an empty list declares nothing.
 *
 * @example Protecting the defaults for every tool over a folder
 * ```ts
 * import { createWriteTool, DEFAULT_PROTECTED_PATHS, declareProtectedPaths, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * declareProtectedPaths(workspace, DEFAULT_PROTECTED_PATHS);
 * await createWriteTool("./project").execute({ path: "package.json", content: "{}" }); // throws PROTECTED_PATH
 * ```
 */
export function declareProtectedPaths(owner: ProtectionOwner, patterns: readonly string[]): void {
  if (patterns.length === 0) return;
  declarations.add({ owner: new WeakRef(owner), patterns: Object.freeze([...patterns]) });
}

/**
 * The protected paths in force for changes through `workspace` now: the union
 * of every live declaration for its folder. A declaring source that has not
 * opened its workspace yet is opened here (once; it is memoised), so that its
 * folder is known before the first change.
 *
 * @param workspace The workspace a change goes through.
 * @returns The patterns, without repeats, in the order declared (empty: nothing is protected).
 *
 * @example
 * ```ts
 * import { createShellTool, openWorkspace } from "@paddock/tools";
 * import { protectedPathsInForce } from "@paddock/tools/extend";
 * const workspace = await openWorkspace("./project");
 * createShellTool(workspace, { allow: ["npm test"] });
 * (await protectedPathsInForce(workspace)).includes("package.json"); // true
 * ```
 */
export async function protectedPathsInForce(workspace: Workspace): Promise<readonly string[]> {
  const found = new Set<string>();
  for (const { patterns } of await declarationsReaching(workspace)) for (const pattern of patterns) found.add(pattern);
  return [...found];
}

/** A live declaration that reaches a workspace (see {@link declarationsReaching}). */
export interface ReachingDeclaration {
  /** The patterns, as they apply in the workspace (`*` when the workspace lies in a protected folder of the declared one). */
  patterns: readonly string[];
  /** The declared folder's workspace, when it encloses the workspace's root (its own walk finds links outside that root). */
  enclosing?: { workspace: Workspace; prefix: readonly string[] };
}

/**
 * The live declarations for `workspace`'s folder, for a folder that encloses
 * it, and for a folder inside it (nested roots, as an MCP server's `--root
 * proj --root proj/app`): a file protected in one root is protected however
 * it is reached. A declaration on a folder inside applies to every path of
 * the enclosing workspace (commands run in the inner folder read files above
 * it too: git's `.git`, npm's workspace root).
 *
 * @param workspace The workspace a change goes through.
 * @returns The declarations, in the order made.
 */
export async function declarationsReaching(workspace: Workspace): Promise<ReachingDeclaration[]> {
  const found: ReachingDeclaration[] = [];
  for (const declaration of [...declarations]) {
    const owner = declaration.owner.deref();
    if (owner === undefined) {
      declarations.delete(declaration);
      continue;
    }
    const opened = owner === workspace ? workspace : "open" in owner
      ? await owner.open().catch(() => undefined) // a root that does not open protects nothing yet
      : owner;
    if (opened === undefined) continue;
    const nesting = nestingOf(opened, workspace);
    if (nesting === null) continue;
    if (nesting === "same" || nesting === "inside") {
      found.push({ patterns: declaration.patterns });
      continue;
    }
    // The workspace lies below the declared folder: inside one of its protected folders, all of it is protected.
    const prefix = nesting;
    const whole = declaration.patterns.some((pattern) =>
      pattern.endsWith("/**") && protectedPattern(prefix, [pattern]) !== undefined
    );
    found.push({ patterns: whole ? ["*"] : declaration.patterns, enclosing: { workspace: opened, prefix } });
  }
  return found;
}

/**
 * Whether protection is known now, without I/O, for `owner`'s folder: a
 * declaration on the same object, or on an opened workspace of the same
 * folder. For what a tool's description says when it is made; the checks
 * themselves ask {@link protectedPathsInForce} at each call.
 *
 * @param owner The workspace, or the source a tool opens it from.
 * @returns `true` when some protected path is known to be in force for it.
 */
export function protectionDeclared(owner: ProtectionOwner): boolean {
  const opened = openedNow(owner);
  for (const declaration of declarations) {
    const other = declaration.owner.deref();
    if (other === undefined) continue;
    if (other === owner) return true;
    const otherOpened = openedNow(other);
    if (opened !== undefined && otherOpened !== undefined && sameOpenedFolder(opened, otherOpened)) return true;
  }
  return false;
}

/** Options of {@link assertChangeAllowed}. */
export interface ChangeCheckOptions {
  /** What the change does, for the message ("write", "delete", "move", …). @default "change" */
  action?: string;
  /** The path as shown in messages. @default the segments joined by "/" */
  display?: string;
  /** The caller's own list, replacing what is in force (`[]`: nothing protected). @default {@link protectedPathsInForce} */
  protectedPaths?: readonly string[];
}

/**
 * Refuses a change to a protected path of `workspace`: the check a custom
 * change path makes on the canonical workspace-relative segments it is about
 * to change (`atomicWrite` makes it by itself). Besides the patterns, one walk
 * of the workspace finds the protected entries and where each protected name
 * that is a link leads: the path is refused when it is one, lies in one, or
 * holds one.
 *
 * @param workspace The workspace the change goes through.
 * @param segments The canonical workspace-relative path about to change.
 * @param options The action and path for the message, and an explicit list.
 * @throws {WorkspaceError} `PROTECTED_PATH`.
 *
 * @example A custom tool that removes a file checks first
 * ```ts
 * import { normalizeWorkspacePath, type Workspace } from "@paddock/tools";
 * import { assertChangeAllowed } from "@paddock/tools/extend";
 * declare const workspace: Workspace;
 * await assertChangeAllowed(workspace, normalizeWorkspacePath("build/out.js"), { action: "delete" });
 * ```
 */
export async function assertChangeAllowed(
  workspace: Workspace,
  segments: readonly string[],
  options: ChangeCheckOptions = {},
): Promise<void> {
  const protection = await protectionFor(workspace, options.protectedPaths);
  assertNotProtected(segments, protection, options.action ?? "change", options.display ?? (segments.join("/") || "."));
}

// How the folder of `declared` lies to `workspace`'s: the same, inside it, or enclosing it (then the
// segments from the declared folder down to the workspace's root), or not nested at all (`null`).
function nestingOf(declared: Workspace, workspace: Workspace): "same" | "inside" | string[] | null {
  if (declared === workspace) return "same";
  // Memory hosts are separate trees (every one has a /workspace); disk hosts share one filesystem.
  if ((declared.host.runtime === "memory" || workspace.host.runtime === "memory") && declared.host !== workspace.host) {
    return null;
  }
  const platform = workspace.host.platform;
  const below = segmentsBelow(platform, declared.root, workspace.root);
  if (below !== null) return below.length === 0 ? "same" : below;
  return segmentsBelow(platform, workspace.root, declared.root) !== null ? "inside" : null;
}

function sameOpenedFolder(a: Workspace, b: Workspace): boolean {
  return nestingOf(a, b) !== null;
}

// The workspace of `owner` if it is open now (a DeferredWorkspace says so by `current`).
function openedNow(owner: ProtectionOwner): Workspace | undefined {
  if (!("open" in owner)) return owner;
  const current = (owner as { current?: unknown }).current;
  return current !== null && typeof current === "object" && "root" in current ? current as Workspace : undefined;
}
