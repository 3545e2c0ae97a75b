import type { FileOutcome } from "../core/search/search_file.ts";
import type { GrepOutputMode, LineMatch } from "../core/search/search_text.ts";

/** One matching line. */
export interface GrepMatch extends LineMatch {
  /** The file, workspace-relative, `/`-separated. */
  path: string;
}

/** Files grep passed over without searching them. */
export interface GrepSkipped {
  /** Files with a NUL byte in their first 8 KiB. */
  binary: number;
  /** Files larger than the size bound. */
  tooLarge: number;
  /** Files that could not be read (removed meanwhile, no permission, replaced by a link). */
  unreadable: number;
}

/** What every `grep` result holds. */
export interface GrepOutputBase {
  /** Whether more results exist than returned, or the walk stopped at its bound. */
  truncated: boolean;
  /** Present (true) when the walk stopped at its bound of visited entries: search a narrower `path`. */
  walkLimitReached?: true;
  /** Files not searched, by reason. */
  skipped: GrepSkipped;
  /** Present when private paths (`WorkspaceOptions.privatePaths`) were left out: how many entries (a private folder counts once). */
  privateLeftOut?: number;
}

/** Result of `grep` with `output_mode: "content"`. */
export interface GrepContentOutput extends GrepOutputBase {
  /** Matching lines in path order, then line order. */
  matches: GrepMatch[];
}

/** Result of `grep` with `output_mode: "files_with_matches"`. */
export interface GrepFilesOutput extends GrepOutputBase {
  /** Files with at least one matching line, sorted. */
  files: string[];
}

/** Result of `grep` with `output_mode: "count"`. */
export interface GrepCountOutput extends GrepOutputBase {
  /** Matching lines per file, for files with at least one, sorted by path. */
  counts: { path: string; count: number }[];
  /** The sum of the counts listed. */
  total: number;
}

/** Result of `grep`. */
export type GrepOutput = GrepContentOutput | GrepFilesOutput | GrepCountOutput;

/**
 * Gathers files' outcomes, taken in walk order, into one `grep` result of at
 * most `limit` results, with `truncated` set only when a result exists
 * beyond the limit.
 */
export class GrepResults {
  readonly #mode: GrepOutputMode;
  readonly #limit: number;
  readonly #skipped: GrepSkipped = { binary: 0, tooLarge: 0, unreadable: 0 };
  readonly #matches: GrepMatch[] = [];
  readonly #files: string[] = [];
  readonly #counts: { path: string; count: number }[] = [];
  #truncated = false;
  /** Entries the walk left out as private (see {@link GrepOutputBase.privateLeftOut}). */
  privateLeftOut = 0;
  /** Files taken so far (searched or skipped). */
  files = 0;

  constructor(mode: GrepOutputMode, limit: number) {
    this.#mode = mode;
    this.#limit = limit;
  }

  /** Results held so far (lines, files or counts). */
  get size(): number {
    return this.#mode === "content"
      ? this.#matches.length
      : (this.#mode === "count" ? this.#counts : this.#files).length;
  }

  /**
   * Takes one file's outcome, in walk order.
   *
   * @returns `false` once the results are full and one more exists: the search can stop.
   */
  take(path: string, outcome: FileOutcome): boolean {
    this.files++;
    if (outcome.skipped !== undefined) this.#skipped[outcome.skipped]++;
    if (outcome.count === 0) return true;
    // A file with a match once the results are full: there is more than the limit.
    if (this.size === this.#limit) {
      this.#truncated = true;
      return false;
    }
    if (this.#mode === "files_with_matches") this.#files.push(path);
    else if (this.#mode === "count") this.#counts.push({ path, count: outcome.count });
    else {
      const room = this.#limit - this.#matches.length;
      for (const match of outcome.matches.slice(0, room)) this.#matches.push({ path, ...match });
      if (outcome.count > room) {
        this.#truncated = true;
        return false;
      }
    }
    return true;
  }

  /**
   * The result.
   *
   * @param walkLimitReached Whether the walk stopped at its bound (then the result is truncated too).
   */
  output(walkLimitReached: boolean): GrepOutput {
    const truncated = this.#truncated || walkLimitReached;
    const base: GrepOutputBase = walkLimitReached
      ? { truncated, walkLimitReached: true, skipped: this.#skipped }
      : { truncated, skipped: this.#skipped };
    if (this.privateLeftOut > 0) base.privateLeftOut = this.privateLeftOut;
    if (this.#mode === "content") return { matches: this.#matches, ...base };
    if (this.#mode === "files_with_matches") return { files: this.#files, ...base };
    return { counts: this.#counts, total: this.#counts.reduce((sum, entry) => sum + entry.count, 0), ...base };
  }
}
