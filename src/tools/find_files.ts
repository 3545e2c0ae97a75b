import * as z from "zod";
import { compileGlob, type GlobMatcher } from "../core/search/compile_glob.ts";
import { FIND_FILES_MAX_RESULTS, SEARCH_MAX_WALK_ENTRIES } from "../core/limits.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { resolveFolder } from "../core/fs/resolve_folder.ts";
import { walkWorkspace } from "../core/fs/walk_workspace.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createFindFilesTool}. */
export interface FindFilesToolOptions extends BaseToolOptions {
  /** Paths returned at most (the default and the ceiling of `limit`). @default 1000 ({@link FIND_FILES_MAX_RESULTS}) */
  maxResults?: number;
  /** Entries one walk visits at most. @default 100000 ({@link SEARCH_MAX_WALK_ENTRIES}) */
  maxWalkEntries?: number;
  /** Bytes of one `.gitignore` read at most. @default 65536 (`SEARCH_MAX_IGNORE_FILE_BYTES`) */
  maxIgnoreFileBytes?: number;
}

/** Arguments of `find_files` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface FindFilesArguments {
  /** The glob, e.g. `**\/*.ts`. */
  pattern: string;
  /** Workspace-relative folder to search. @default "." */
  path?: string;
  /** Paths returned at most. @default the tool's `maxResults` */
  limit?: number;
  /** Also find files that `.gitignore` files exclude. @default false */
  include_ignored?: boolean;
}

/** Arguments of `find_files`, validated. */
export interface FindFilesInput {
  /** The compiled glob. */
  glob: GlobMatcher;
  /** The normalized segments of the folder searched. */
  segments: string[];
  /** Paths returned at most. */
  limit: number;
  /** Whether `.gitignore` rules are ignored. */
  includeIgnored: boolean;
}

/** Result of `find_files`. */
export interface FindFilesOutput {
  /** Matching files and links, workspace-relative, `/`-separated, sorted. */
  paths: string[];
  /** Whether more matched than `limit`, or the walk stopped at its bound. */
  truncated: boolean;
  /** Present (true) when the walk stopped at its bound of visited entries: search a narrower `path`. */
  walkLimitReached?: true;
  /** Present when private paths (`WorkspaceOptions.privatePaths`) were left out: how many entries (a private folder counts once). */
  privateLeftOut?: number;
}

const schema = z.object({
  pattern: z.string().describe(
    "Glob matched against paths relative to `path`, e.g. '**/*.ts', 'src/**/*.{ts,tsx}', '*.md'. Dot files match; `/` separates",
  ),
  path: z.string().optional().describe("Workspace-relative folder to search; default '.' (the workspace root)"),
  limit: z.number().int().positive().optional().describe("Paths returned at most"),
  include_ignored: z.boolean().optional().describe("Also find files that .gitignore files exclude; default false"),
}).strict();

/**
 * Creates `find_files` `{pattern, path?, limit?, include_ignored?}` →
 * `{paths, truncated}`: files (and links, not followed) whose path below
 * `path` matches a glob.
 *
 * The walk is confined and never follows a link (a link is matched by its
 * own path; what it points to is never entered), skips `.git`, and honours
 * `.gitignore` files (each for its folder and below) unless
 * `include_ignored`. Globs use picomatch's syntax and are matched in linear
 * time. Results are workspace-relative and sorted; at most `limit` are
 * returned, and the walk itself visits a bounded number of entries.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limits and name.
 * @returns The tool.
 *
 * @example Finding TypeScript files
 * ```ts
 * import { createFindFilesTool } from "@paddock/tools";
 * const find = createFindFilesTool("./project");
 * const { paths } = await find.execute({ pattern: "**\/*.ts", path: "src" });
 * ```
 */
export function createFindFilesTool(
  workspace: WorkspaceSource,
  options: FindFilesToolOptions = {},
): Tool<FindFilesInput, FindFilesOutput, FindFilesArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxResults = options.maxResults ?? FIND_FILES_MAX_RESULTS;
  const maxWalkEntries = options.maxWalkEntries ?? SEARCH_MAX_WALK_ENTRIES;
  return defineTool({
    name: options.name ?? "find_files",
    description: options.description ??
      `Find files inside the workspace whose path matches a glob (e.g. '**/*.ts'). Skips .git and what .gitignore excludes (unless include_ignored); links are not followed. Returns workspace-relative paths, sorted, at most ${maxResults}.`,
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args) => ({
      segments: normalizeWorkspacePath(args.path ?? "."),
      glob: compileGlob(args.pattern),
      limit: Math.min(args.limit ?? maxResults, maxResults),
      includeIgnored: args.include_ignored ?? false,
    }),
    run: async (input, { signal, onProgress }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const start = await resolveFolder(workspace, input.segments, {
        action: "search",
        display,
        hint: "pass a folder as path; the pattern selects the files",
      });
      const prefix = input.segments.length === 0 ? "" : `${input.segments.join("/")}/`;
      // Matched as the walk lists them: only the matches are kept, then put in path order.
      const matched: string[] = [];
      const walk = await walkWorkspace(workspace, start, {
        includeIgnored: input.includeIgnored,
        maxEntries: maxWalkEntries,
        maxIgnoreFileBytes: options.maxIgnoreFileBytes,
        prefix: input.glob.base,
        collect: false,
        signal,
        onProgress: onProgress === undefined
          ? undefined
          : (visited) => onProgress({ progress: visited, message: `${visited} entries visited` }),
        // Tested before the entry's .gitignore rules: most entries fail the glob, and that test is cheaper.
        wants: (path, _name, kind) => (kind === "file" || kind === "symlink") && input.glob.match(path),
        onEntry: (entry) => void matched.push(entry.path),
      }).finally(() => start.release());
      matched.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      let truncated = walk.limitReached;
      if (matched.length > input.limit) {
        truncated = true;
        matched.length = input.limit;
      }
      const paths = prefix === "" ? matched : matched.map((path) => prefix + path);
      const found: FindFilesOutput = walk.limitReached
        ? { paths, truncated, walkLimitReached: true }
        : { paths, truncated };
      if (walk.privateLeftOut !== undefined) found.privateLeftOut = walk.privateLeftOut;
      return found;
    },
  });
}
