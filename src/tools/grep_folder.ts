import type { EntryKind, FileSearchSpec } from "../host.ts";
import type { Folder } from "../core/fs/folder.ts";
import type { GlobMatcher } from "../core/search/compile_glob.ts";
import { OrderedFileSearch, type OrderedFileSearchOptions } from "../core/search/ordered_file_search.ts";
import type { HeldFolder } from "../core/fs/resolve_folder.ts";
import type { FileOutcome, FileSearchRequest } from "../core/search/search_file.ts";
import { type WalkEntry, type WalkOptions, walkWorkspace } from "../core/fs/walk_workspace.ts";
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
  // Threads only where names are opened at held folders: on the `paths` route
  // the later delivery would widen the window its re-check leaves open.
  const threads = (await workspace.confinement()) === "handles" ? search.threads : 0;
  const visitor = new FolderVisitor(workspace, search, results, threads);
  const files = visitor.files;
  try {
    const walk = await walkWorkspace(workspace, held, visitor);
    results.privateLeftOut += walk.privateLeftOut ?? 0;
    if (!walk.stopped) await files.finish();
    return walk.limitReached;
  } finally {
    // Every way out: no thread opens a name at a folder once it is let go.
    await files.settle();
  }
}

// The walk's options and visitor, and where the outcomes go, for one search.
// A class, so that the callbacks are the same functions from call to call
// (see walkWorkspace, OrderedFileSearchOptions.deliver).
class FolderVisitor implements WalkOptions, OrderedFileSearchOptions {
  readonly request: FileSearchRequest;
  readonly spec: FileSearchSpec;
  readonly threads: number | undefined;
  readonly threadsAfter: number | undefined;
  readonly includeIgnored: boolean;
  readonly maxEntries: number;
  readonly maxIgnoreFileBytes: number | undefined;
  readonly prefix: readonly string[];
  readonly collect = false;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((visited: number) => void) | undefined;
  /** Searches the files the walk gives. */
  readonly files: OrderedFileSearch;
  readonly #workspace: Workspace;
  readonly #results: GrepResults;
  /** The start's path as results show it, with a trailing `/` (empty at the root). */
  readonly #shownPrefix: string;
  readonly #glob: GlobMatcher | null;
  readonly #byName: boolean;

  constructor(workspace: Workspace, search: FolderSearch, results: GrepResults, threads: number | undefined) {
    const { glob, onProgress } = search;
    this.#workspace = workspace;
    this.#results = results;
    this.#shownPrefix = search.segments.length === 0 ? "" : `${search.segments.join("/")}/`;
    this.#glob = glob;
    this.#byName = glob !== null && !glob.pattern.includes("/");
    this.includeIgnored = search.includeIgnored;
    this.maxEntries = search.maxWalkEntries;
    this.maxIgnoreFileBytes = search.maxIgnoreFileBytes;
    // A path glob's literal leading folders: nothing outside them is walked.
    this.prefix = glob !== null && !this.#byName ? glob.base : [];
    this.signal = search.signal;
    this.onProgress = onProgress === undefined ? undefined : () =>
      onProgress({
        progress: results.files,
        message: `${results.files} files searched, ${results.size} results`,
      });
    this.request = search.request;
    this.spec = search.spec;
    this.threads = threads;
    this.threadsAfter = search.threadsAfterFiles;
    this.files = new OrderedFileSearch(workspace.host, this);
  }

  // The glob prunes before anything is opened (and before the entry's .gitignore rules, the dearer
  // test): a file it rules out is never read.
  wants(path: string, name: string, kind: EntryKind): boolean {
    return kind === "file" && (this.#glob === null || this.#glob.match(this.#byName ? name : path));
  }

  onEntry(entry: WalkEntry, folder: Folder): boolean | Promise<boolean> {
    return this.files.add(this.#workspace.childPath(folder, entry.name), entry.path, folder);
  }

  retain(folder: Folder): Promise<void> | null {
    return this.files.retain(folder);
  }

  deliver(path: string, folder: Folder, outcome: FileOutcome): boolean | Promise<boolean> {
    if (outcome.count === 0) return this.#results.take("", outcome); // no result: its path is never built
    // `paths` route: the folder must still be the one listed, or the file may have come from elsewhere.
    const confirmed = this.#workspace.confirm(folder);
    if (confirmed === undefined) return this.#results.take(this.#shownPrefix + path, outcome);
    return confirmed.then(() => this.#results.take(this.#shownPrefix + path, outcome));
  }
}
