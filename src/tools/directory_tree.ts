import * as z from "zod";
import { type ReportedKind, toReportedKind } from "../core/fs/reported_kind.ts";
import { DIRECTORY_TREE_MAX_DEPTH, DIRECTORY_TREE_MAX_ENTRIES } from "../core/limits.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { resolveFolder } from "../core/fs/resolve_folder.ts";
import { walkWorkspace } from "../core/fs/walk_workspace.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createDirectoryTreeTool}. */
export interface DirectoryTreeToolOptions extends BaseToolOptions {
  /** Folder levels listed at most (the default and the ceiling of `max_depth`). @default 10 ({@link DIRECTORY_TREE_MAX_DEPTH}) */
  maxDepth?: number;
  /** Entries one tree holds at most. @default 1000 ({@link DIRECTORY_TREE_MAX_ENTRIES}) */
  maxEntries?: number;
}

/** Arguments of `directory_tree` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface DirectoryTreeArguments {
  /** Workspace-relative folder. @default "." */
  path?: string;
  /** Folder levels to list. @default the tool's `maxDepth` */
  max_depth?: number;
  /** Also show what `.gitignore` files exclude. @default false */
  include_ignored?: boolean;
}

/** Arguments of `directory_tree`, validated. */
export interface DirectoryTreeInput {
  /** The normalized segments of the folder. */
  segments: string[];
  /** Folder levels to list. */
  maxDepth: number;
  /** Also show what `.gitignore` files exclude. */
  includeIgnored: boolean;
}

/** One entry of a tree. */
export interface TreeNode {
  /** Its name (one segment). */
  name: string;
  /** What it is, links not followed: a link is `symlink`, whatever it points to. */
  kind: ReportedKind;
  /** A folder's entries, sorted by name; absent for a folder `max_depth` levels down (not listed). */
  children?: TreeNode[];
}

/** Result of `directory_tree`. */
export interface DirectoryTreeOutput {
  /** The folder, workspace-relative (normalized, `.` for the root). */
  path: string;
  /** Its entries, sorted by name, folders with their own. */
  tree: TreeNode[];
  /** Entries in the tree. */
  entries: number;
  /** Whether the walk stopped at the entry limit: some folders show only part of what they hold. */
  truncated: boolean;
  /** Whether some folders were not listed because they lie `max_depth` levels down. */
  depthLimited: boolean;
  /** Present when private paths (`WorkspaceOptions.privatePaths`) were left out: how many entries (a private folder counts once). */
  privateLeftOut?: number;
}

const schema = z.object({
  path: z.string().optional().describe("Workspace-relative folder; default '.' (the workspace root)"),
  max_depth: z.number().int().positive().optional().describe(
    "Folder levels to list; deeper folders are shown without children",
  ),
  include_ignored: z.boolean().optional().describe("Also show what .gitignore files exclude; default false"),
}).strict();

/**
 * Creates `directory_tree` `{path?, max_depth?, include_ignored?}` → `{path,
 * tree, entries, truncated, depthLimited}`: the folders and files below one
 * folder as a nested tree, names sorted, bounded in depth and in entries.
 *
 * Walked by the same walker as `find_files` and `grep`: each folder opened at
 * its held parent and listed through its own handle, links shown (`symlink`)
 * and never followed, `.git` and what `.gitignore` excludes left out unless
 * `include_ignored`.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Bounds and name.
 * @returns The tool.
 *
 * @example The tree of the source folder, two levels deep
 * ```ts
 * import { createDirectoryTreeTool } from "@paddock/tools";
 * const tree = createDirectoryTreeTool("./project");
 * const { tree: nodes, truncated } = await tree.execute({ path: "src", max_depth: 2 });
 * ```
 */
export function createDirectoryTreeTool(
  workspace: WorkspaceSource,
  options: DirectoryTreeToolOptions = {},
): Tool<DirectoryTreeInput, DirectoryTreeOutput, DirectoryTreeArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxDepth = options.maxDepth ?? DIRECTORY_TREE_MAX_DEPTH;
  const maxEntries = options.maxEntries ?? DIRECTORY_TREE_MAX_ENTRIES;
  return defineTool({
    name: options.name ?? "directory_tree",
    description: options.description ??
      `Show the folders and files below a workspace folder as a nested tree (name, kind, children), at most ${maxDepth} levels and ${maxEntries} entries; says when it was cut. Skips .git and what .gitignore excludes (unless include_ignored); links are shown, not followed.`,
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): DirectoryTreeInput => ({
      segments: normalizeWorkspacePath(args.path ?? "."),
      maxDepth: Math.min(args.max_depth ?? maxDepth, maxDepth),
      includeIgnored: args.include_ignored ?? false,
    }),
    run: async (input, { signal, onProgress }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const start = await resolveFolder(workspace, input.segments, {
        action: "list",
        display,
        hint: "use get_file_info for a file",
      });
      const walk = await walkWorkspace(workspace, start, {
        includeIgnored: input.includeIgnored,
        includeFolders: true,
        maxDepth: input.maxDepth,
        maxEntries,
        signal,
        onProgress: onProgress === undefined
          ? undefined
          : (visited) => onProgress({ progress: visited, message: `${visited} entries visited` }),
      }).finally(() => start.release());
      // Each entry's parent comes before it (folders are yielded before what they hold).
      const root: TreeNode[] = [];
      const folders = new Map<string, TreeNode>();
      for (const entry of walk.entries) {
        const node: TreeNode = { name: entry.name, kind: toReportedKind(entry.kind) };
        const depth = entry.path.split("/").length;
        if (entry.kind === "directory") {
          if (depth < input.maxDepth) node.children = [];
          folders.set(entry.path, node);
        }
        const cut = entry.path.lastIndexOf("/");
        const siblings = cut < 0 ? root : folders.get(entry.path.slice(0, cut))?.children;
        siblings?.push(node);
      }
      const byName = (a: TreeNode, b: TreeNode) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      const sort = (nodes: TreeNode[]): void => {
        nodes.sort(byName);
        for (const node of nodes) if (node.children !== undefined) sort(node.children);
      };
      sort(root);
      const shown: DirectoryTreeOutput = {
        path: display,
        tree: root,
        entries: walk.entries.length,
        truncated: walk.limitReached,
        depthLimited: walk.depthReached === true,
      };
      if (walk.privateLeftOut !== undefined) shown.privateLeftOut = walk.privateLeftOut;
      return shown;
    },
  });
}
