import * as z from "zod";
import { compileGlob, type GlobMatcher } from "../core/compile_glob.ts";
import { isAbortError, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import {
  GREP_BINARY_SNIFF_BYTES,
  GREP_MAX_CONCURRENT_FILES,
  GREP_MAX_CONTEXT_LINES,
  GREP_MAX_FILE_BYTES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_RESULTS,
  SEARCH_MAX_WALK_ENTRIES,
} from "../core/limits.ts";
import { compileLineMatcher, type LineMatcher } from "../core/line_matcher.ts";
import { mapHostError } from "../core/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/normalize_workspace_path.ts";
import { readRegularFile, readRegularFileSync, type RegularFileRead } from "../core/read_regular_file.ts";
import { stillSame } from "../core/still_same.ts";
import { decodeUtf8Lenient } from "../core/utf8.ts";
import { type WalkEntry, walkWorkspace } from "../core/walk_workspace.ts";
import type { Identity } from "../core/workspace.ts";
import type { Host, HostStat } from "../host.ts";
import {
  type BaseToolOptions,
  beginCall,
  defineTool,
  type Tool,
  workspaceGetter,
  type WorkspaceSource,
} from "./tool.ts";

/** Options of {@link createGrepTool}. */
export interface GrepToolOptions extends BaseToolOptions {
  /** Results returned at most (the default and the ceiling of `limit`). @default 100 ({@link GREP_MAX_RESULTS}) */
  maxResults?: number;
  /** Bytes of a file searched at most; larger files are skipped. @default 1048576 ({@link GREP_MAX_FILE_BYTES}) */
  maxFileBytes?: number;
  /** Characters of a returned line at most. @default 500 ({@link GREP_MAX_LINE_CHARS}) */
  maxLineChars?: number;
  /** Entries one walk visits at most. @default 100000 ({@link SEARCH_MAX_WALK_ENTRIES}) */
  maxWalkEntries?: number;
  /** Bytes of one `.gitignore` read at most. @default 65536 (`SEARCH_MAX_IGNORE_FILE_BYTES`) */
  maxIgnoreFileBytes?: number;
}

/** What `grep` returns: matching lines, matching files, or counts per file. */
export type GrepOutputMode = "content" | "files_with_matches" | "count";

/** Arguments of `grep`, validated. */
export interface GrepInput {
  /** The compiled pattern. */
  matcher: LineMatcher;
  /** The normalized segments of the file or folder searched. */
  segments: string[];
  /** Only files whose path (or, for a glob without `/`, name) matches, when set. */
  glob: GlobMatcher | null;
  /** Lines of context before and after each match (content mode). */
  context: number;
  /** What to return. */
  outputMode: GrepOutputMode;
  /** Results returned at most. */
  limit: number;
  /** Whether `.gitignore` rules are ignored. */
  includeIgnored: boolean;
}

/** One matching line. */
export interface GrepMatch {
  /** The file, workspace-relative, `/`-separated. */
  path: string;
  /** The line number, from 1. */
  line: number;
  /** Where the first match starts in the line, from 1 (UTF-16 units). */
  column: number;
  /** The line without its line ending; a long line is cut to a window around the match. */
  text: string;
  /** Present (true) when `text` is a cut of a longer line. */
  cut?: true;
  /** Up to `context` lines before (each cut to the line bound). */
  before?: string[];
  /** Up to `context` lines after (each cut to the line bound). */
  after?: string[];
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

const schema = z.object({
  pattern: z.string().describe(
    "Regular expression (RE2 syntax: like JavaScript's, without backreferences or lookaround), or plain text with literal: true. ^ and $ match at line ends",
  ),
  path: z.string().optional().describe("Workspace-relative file or folder to search; default '.' (the workspace root)"),
  glob: z.string().optional().describe(
    "Only search files matching this glob: against the file name when it has no '/', e.g. '*.ts', else against the path below `path`, e.g. 'src/**/*.ts'",
  ),
  ignore_case: z.boolean().optional().describe("Match without regard to case; default false"),
  literal: z.boolean().optional().describe("Treat the pattern as plain text; default false"),
  context: z.number().int().min(0).max(GREP_MAX_CONTEXT_LINES).optional().describe(
    `Lines of context before and after each match (content mode), 0 to ${GREP_MAX_CONTEXT_LINES}; default 0`,
  ),
  output_mode: z.enum(["content", "files_with_matches", "count"]).optional().describe(
    "'content' (matching lines, the default), 'files_with_matches' (paths only) or 'count' (matching lines per file)",
  ),
  limit: z.number().int().positive().optional().describe("Results (lines, files or counts) returned at most"),
  include_ignored: z.boolean().optional().describe("Also search files that .gitignore files exclude; default false"),
}).strict();

// The reused read buffer of a host that reads synchronously: files smaller
// than this (most source files) need no buffer of their own.
const GREP_SCRATCH_BYTES = 65_536;

interface FileOutcome {
  /** Why the search failed (the call fails with it once this file's turn comes). */
  error?: unknown;
  skipped?: keyof GrepSkipped;
  /** Matching lines found (content mode: at most the limit plus one). */
  matches: Omit<GrepMatch, "path">[];
  count: number;
}

/**
 * Creates `grep`: searches file contents inside the workspace for a regular
 * expression (or plain text) and returns matching lines, matching files, or
 * counts per file.
 *
 * Patterns run on RE2 (re2js), in time linear in the input, so no pattern can
 * hang the process; an invalid pattern is `INVALID_PATTERN` before any I/O.
 * The walk is the one of `find_files`: confined, links never followed,
 * `.git` skipped, `.gitignore` honoured unless `include_ignored`. Binary files
 * (a NUL in the first 8 KiB) and files over the size bound are skipped and
 * counted; lines are cut at a bounded length; at most `limit` results are
 * returned, with `truncated` when there were more. CRLF line endings count
 * as line ends; text is decoded as UTF-8, invalid bytes as U+FFFD.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limits and name.
 * @returns The tool.
 *
 * @example Searching for a function
 * ```ts
 * import { createGrepTool } from "@paddock/tools";
 * const grep = createGrepTool("./project");
 * const result = await grep.execute({ pattern: "function \\w+Tool\\(", glob: "*.ts", context: 2 });
 * ```
 */
export function createGrepTool(workspace: WorkspaceSource, options: GrepToolOptions = {}): Tool<GrepInput, GrepOutput> {
  const getWorkspace = workspaceGetter(workspace);
  const maxResults = options.maxResults ?? GREP_MAX_RESULTS;
  const maxFileBytes = options.maxFileBytes ?? GREP_MAX_FILE_BYTES;
  const maxLineChars = options.maxLineChars ?? GREP_MAX_LINE_CHARS;
  const maxWalkEntries = options.maxWalkEntries ?? SEARCH_MAX_WALK_ENTRIES;
  return defineTool({
    name: options.name ?? "grep",
    description: options.description ??
      `Search file contents inside the workspace with a regular expression (RE2 syntax) or plain text. Returns matching lines (with optional context), matching files, or counts. Skips .git, binary files, files over ${maxFileBytes} bytes and what .gitignore excludes. At most ${maxResults} results.`,
    readOnly: true,
    schema,
    prepare: (args) => ({
      segments: normalizeWorkspacePath(args.path ?? "."),
      matcher: compileLineMatcher(args.pattern, { literal: args.literal, ignoreCase: args.ignore_case }),
      glob: args.glob === undefined ? null : compileGlob(args.glob),
      context: args.context ?? 0,
      outputMode: args.output_mode ?? "content",
      limit: Math.min(args.limit ?? maxResults, maxResults),
      includeIgnored: args.include_ignored ?? false,
    }),
    run: async (input, { signal }) => {
      const { ws, display } = await beginCall(getWorkspace, input.segments, signal);
      const start = await ws.resolve(input.segments, { action: "search", display });

      // 1. The files to search: a walk of the folder, or the one file named.
      let files: WalkEntry[];
      let walkLimitReached = false;
      let listedFolders: ReadonlyMap<string, HostStat> = new Map();
      const walked = start.stat !== null && start.stat.kind === "directory";
      if (walked) {
        const walk = await walkWorkspace(ws, start, {
          includeIgnored: input.includeIgnored,
          maxEntries: maxWalkEntries,
          maxIgnoreFileBytes: options.maxIgnoreFileBytes,
          signal,
        });
        walkLimitReached = walk.limitReached;
        listedFolders = walk.folders;
        const prefix = input.segments.length === 0 ? "" : `${input.segments.join("/")}/`;
        files = walk.entries.filter((entry) => entry.kind === "file" && matchesGlob(input.glob, entry.path));
        if (prefix !== "") files = files.map((entry) => ({ ...entry, path: prefix + entry.path }));
      } else if (start.stat !== null && start.stat.kind === "file") {
        // A file named directly (through links inside, resolved above) is searched whatever the glob.
        files = [{ path: display, hostPath: start.hostPath, kind: "file", folder: start.parentHostPath }];
      } else {
        throw new WorkspaceError("NOT_A_FILE", `Cannot search '${display}': it is neither a file nor a folder`, {
          path: display,
        });
      }

      // 2. Search them a few at a time, taking results in path order. Below a
      // folder an unreadable file is counted; a file named directly fails.
      // A search never rejects: a failure waits in its outcome until the file's
      // turn, so no rejection goes unhandled while earlier files are awaited.
      const failed = (error: unknown): FileOutcome => {
        if (isAbortError(error) || !walked) {
          return { error: mapHostError(error, "search", display), matches: [], count: 0 };
        }
        return { skipped: "unreadable", matches: [], count: 0 };
      };
      // On a host that reads small files synchronously (the Node host), a
      // file below a folder is read and searched in one step, with no promise
      // per file; the buffer is reused, as nothing keeps the bytes once
      // searched. A file named directly takes the checked asynchronous way
      // (its identity must be the one resolve saw).
      const readsSync = walked && ws.host.readSync !== undefined;
      const scratch = new Uint8Array(readsSync ? GREP_SCRATCH_BYTES : 0);
      const searchOne = (entry: WalkEntry): FileOutcome | Promise<FileOutcome> => {
        const limits: SearchLimits = {
          maxFileBytes,
          maxLineChars,
          cap: input.limit + 1,
          signal,
          // The file named by `path` must be the one resolve checked.
          expected: walked ? undefined : start.stat ?? undefined,
          display: entry.path,
        };
        if (readsSync) {
          try {
            const outcome = searchFileSync(ws.host, entry.hostPath, input, limits, scratch);
            if (outcome !== null) return outcome;
          } catch (error) {
            return failed(error);
          }
        }
        return searchFile(ws.host, entry.hostPath, input, limits).catch(failed);
      };
      const skipped: GrepSkipped = { binary: 0, tooLarge: 0, unreadable: 0 };
      const matches: GrepMatch[] = [];
      const matchedFiles: string[] = [];
      const counts: { path: string; count: number }[] = [];
      let truncated = walkLimitReached;
      const reportedFolders = new Set<string>();
      // Outcomes by file index, started up to GREP_MAX_CONCURRENT_FILES files ahead of the one taken.
      const inFlight: Array<FileOutcome | Promise<FileOutcome> | undefined> = [];
      let next = 0;
      const refill = (taken: number) => {
        while (next < files.length && next < taken + GREP_MAX_CONCURRENT_FILES) {
          inFlight[next] = searchOne(files[next]);
          next++;
        }
      };
      refill(0);
      try {
        for (let index = 0; index < files.length; index++) {
          const pending = inFlight[index] as FileOutcome | Promise<FileOutcome>;
          inFlight[index] = undefined;
          const outcome = pending instanceof Promise ? await pending : pending;
          if (outcome.error !== undefined) throw outcome.error;
          refill(index + 1);
          throwIfAborted(signal);
          if (outcome.skipped !== undefined) skipped[outcome.skipped]++;
          if (outcome.count === 0) continue;
          const path = files[index].path;
          reportedFolders.add(files[index].folder);
          // A file with a match once the results are full: there is more than the limit.
          const full = input.outputMode === "content"
            ? matches.length === input.limit
            : (input.outputMode === "count" ? counts : matchedFiles).length === input.limit;
          if (full) {
            truncated = true;
            break;
          }
          if (input.outputMode === "files_with_matches") matchedFiles.push(path);
          else if (input.outputMode === "count") counts.push({ path, count: outcome.count });
          else {
            const room = input.limit - matches.length;
            for (const match of outcome.matches.slice(0, room)) matches.push({ path, ...match });
            if (outcome.count > room) {
              truncated = true;
              break;
            }
          }
        }
      } finally {
        // Let the reads still running finish and close their files before returning.
        await Promise.allSettled(inFlight.filter((pending) => pending instanceof Promise));
      }
      throwIfAborted(signal);

      // 3. Opening a listed file refuses a link only in the last component: a
      //    folder swapped for a link after it was listed would let its files be
      //    read from elsewhere. Every folder a reported match came from must
      //    still be the folder the walk listed; else nothing is reported.
      if (walked) {
        for (const folder of reportedFolders) {
          const listed = listedFolders.get(folder);
          if (listed === undefined || !(await stillSame(ws.host, folder, listed, "directory"))) {
            throw new WorkspaceError(
              "PATH_CHANGED",
              `Cannot search '${display}': a folder changed while it was searched`,
              {
                path: display,
              },
            );
          }
        }
      }

      const base: GrepOutputBase = walkLimitReached
        ? { truncated, walkLimitReached: true, skipped }
        : { truncated, skipped };
      if (input.outputMode === "content") return { matches, ...base };
      if (input.outputMode === "files_with_matches") return { files: matchedFiles, ...base };
      return { counts, total: counts.reduce((sum, entry) => sum + entry.count, 0), ...base };
    },
  });
}

function matchesGlob(glob: GlobMatcher | null, path: string): boolean {
  if (glob === null) return true;
  if (glob.pattern.includes("/")) return glob.match(path);
  return glob.match(path.slice(path.lastIndexOf("/") + 1));
}

interface SearchLimits {
  maxFileBytes: number;
  maxLineChars: number;
  /** Matching lines kept per file at most. */
  cap: number;
  /** The identity the opened file must have, for a file named directly. */
  expected?: Identity;
  /** The file's path as the caller named it, for messages. */
  display: string;
  signal?: AbortSignal;
}

// Reads and searches one file.
async function searchFile(
  host: Host,
  hostPath: string,
  input: GrepInput,
  limits: SearchLimits,
): Promise<FileOutcome> {
  throwIfAborted(limits.signal);
  return searchRead(await readRegularFile(host, hostPath, limits.maxFileBytes, limits.expected), input, limits);
}

// Reads and searches one file a walk listed in one synchronous step, on a
// host that reads synchronously; `null` when the host cannot (then `searchFile`).
function searchFileSync(
  host: Host,
  hostPath: string,
  input: GrepInput,
  limits: SearchLimits,
  scratch: Uint8Array,
): FileOutcome | null {
  throwIfAborted(limits.signal);
  const read = readRegularFileSync(host, hostPath, limits.maxFileBytes, scratch);
  return read === null ? null : searchRead(read, input, limits);
}

// Searches what was read (the bytes may be a reused buffer: nothing here keeps them).
function searchRead(read: RegularFileRead, input: GrepInput, limits: SearchLimits): FileOutcome {
  if (read.kind === "changed") {
    throw new WorkspaceError(
      "PATH_CHANGED",
      `Cannot search '${limits.display}': the file changed while it was opened`,
      {
        path: limits.display,
      },
    );
  }
  if (read.kind === "too-large") return { skipped: "tooLarge", matches: [], count: 0 };
  if (read.kind === "not-a-file") return { skipped: "unreadable", matches: [], count: 0 };
  const bytes = read.bytes;
  // Binary: a NUL byte in the first bytes. A typed array's own search is slow
  // next to a string's, so a small file is decoded first and its text looked
  // at: a NUL byte always decodes to U+0000 (never into U+FFFD), so no U+0000
  // means no NUL byte, and the bytes are checked only when there is one.
  let text: string;
  if (bytes.length > GREP_BINARY_SNIFF_BYTES) {
    if (bytes.subarray(0, GREP_BINARY_SNIFF_BYTES).includes(0)) return { skipped: "binary", matches: [], count: 0 };
    text = decodeUtf8Lenient(bytes);
  } else {
    text = decodeUtf8Lenient(bytes);
    if (text.includes("\0") && bytes.includes(0)) return { skipped: "binary", matches: [], count: 0 };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes("\r\n")) text = text.replaceAll("\r\n", "\n");
  if (!input.matcher.mayMatch(text)) return { matches: [], count: 0 };

  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop(); // the final line ending ends no line
  const matches: Omit<GrepMatch, "path">[] = [];
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    const column = input.matcher.find(lines[i]);
    if (column < 0) continue;
    count++;
    if (input.outputMode === "files_with_matches") break;
    if (input.outputMode === "count" || matches.length >= limits.cap) continue;
    const { text: shown, cut } = cutLine(lines[i], column, limits.maxLineChars);
    const match: Omit<GrepMatch, "path"> = { line: i + 1, column: column + 1, text: shown };
    if (cut) match.cut = true;
    if (input.context > 0) {
      match.before = lines.slice(Math.max(0, i - input.context), i).map((line) =>
        cutLine(line, 0, limits.maxLineChars).text
      );
      match.after = lines.slice(i + 1, i + 1 + input.context).map((line) => cutLine(line, 0, limits.maxLineChars).text);
    }
    matches.push(match);
  }
  return { matches, count };
}

// A line of at most `max` UTF-16 units: the start of the line, or, when the
// match lies further in, a window that begins a little before it. Never
// splits a surrogate pair.
function cutLine(line: string, column: number, max: number): { text: string; cut: boolean } {
  if (line.length <= max) return { text: line, cut: false };
  const lead = Math.floor(max / 4);
  // Start a quarter of the window before the match, but keep the window full at the line's end.
  let start = column < max - lead ? 0 : Math.min(column - lead, line.length - max);
  let end = start + max;
  if (start > 0 && isLowSurrogate(line.charCodeAt(start))) start++;
  if (end < line.length && isLowSurrogate(line.charCodeAt(end))) end--;
  return { text: line.slice(start, end), cut: true };
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
