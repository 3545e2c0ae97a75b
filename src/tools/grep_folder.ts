import type { FileSearchSpec } from "../host.ts";
import type { GlobMatcher } from "../core/search/compile_glob.ts";
import { OrderedFileSearch } from "../core/search/ordered_file_search.ts";
import type { HeldFolder } from "../core/fs/resolve_folder.ts";
import type { FileSearchRequest } from "../core/search/search_file.ts";
import { walkWorkspace } from "../core/fs/walk_workspace.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import type { ToolProgress } from "./tool.ts";
import type { GrepResults } from "./grep_results.ts";

/** How {@link searchFolder} walks and searches. */
export interface FolderSearch {
  /** The search, compiled. */
  request: FileSearchRequest;
  /** The same search as plain data, for worker threads. */
  spec: FileSearchSpec;
  /** The start's segments, as results show them. */
  segments: readonly string[];
  /** Only files matching it, when set. */
  glob: GlobMatcher | null;
  /** Whether `.gitignore` rules are ignored. */
  includeIgnored: boolean;
  /** Entries visited at most. */
  maxWalkEntries: number;
  /** Bytes of one `.gitignore` read at most. */
  maxIgnoreFileBytes?: number;
  /** Worker threads at most (0: none). */
  threads?: number;
  /** Files searched in the calling thread before threads are used. */
  threadsAfterFiles?: number;
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
}

/**
 * Walks a held folder depth first, names sorted, and searches each file at
 * its held folder as the walk reaches it (in this thread, or batched onto
 * worker threads while the walk goes on); outcomes are taken in walk order,
 * and the walk ends as soon as the results are full. An unreadable file is
 * counted, not fatal. A folder is closed only once no thread opens a name at
 * it any more, on every way out (an abort, an error, a full result).
 *
 * @param workspace The workspace.
 * @param held The folder to search, held (the caller releases it).
 * @param search How.
 * @param results Where outcomes go.
 * @returns Whether the walk stopped at its bound.
 */
export async function searchFolder(
  workspace: Workspace,
  held: HeldFolder,
  search: FolderSearch,
  results: GrepResults,
): Promise<boolean> {
  const prefix = search.segments.length === 0 ? "" : `${search.segments.join("/")}/`;
  const { glob, onProgress } = search;
  const byName = glob !== null && !glob.pattern.includes("/");
  const files = new OrderedFileSearch(workspace.host, {
    request: search.request,
    spec: search.spec,
    // Threads only where names are opened at held folders: on the `paths` route
    // the later delivery would widen the window its re-check leaves open.
    threads: (await workspace.confinement()) === "handles" ? search.threads : 0,
    threadsAfter: search.threadsAfterFiles,
    signal: search.signal,
    deliver: (path, folder, outcome) => {
      if (outcome.count === 0) return results.take("", outcome); // no result: its path is never built
      // `paths` route: the folder must still be the one listed, or the file may have come from elsewhere.
      const confirmed = workspace.confirm(folder);
      if (confirmed === undefined) return results.take(prefix + path, outcome);
      return confirmed.then(() => results.take(prefix + path, outcome));
    },
  });
  try {
    const walk = await walkWorkspace(workspace, held, {
      includeIgnored: search.includeIgnored,
      maxEntries: search.maxWalkEntries,
      maxIgnoreFileBytes: search.maxIgnoreFileBytes,
      // A path glob's literal leading folders: nothing outside them is walked.
      prefix: glob !== null && !byName ? glob.base : [],
      collect: false,
      signal: search.signal,
      retain: (folder) => files.retain(folder),
      onProgress: onProgress === undefined ? undefined : () =>
        onProgress({
          progress: results.files,
          message: `${results.files} files searched, ${results.size} results`,
        }),
      // The glob prunes before anything is opened (and before the entry's .gitignore rules, the dearer
      // test): a file it rules out is never read.
      wants: (path, name, kind) => kind === "file" && (glob === null || glob.match(byName ? name : path)),
      onEntry: (entry, folder) => files.add(workspace.childPath(folder, entry.name), entry.path, folder),
    });
    if (!walk.stopped) await files.finish();
    return walk.limitReached;
  } finally {
    // Every way out: no thread opens a name at a folder once it is let go.
    await files.settle();
  }
}
