import * as z from "zod";
import { compileGlob, type GlobMatcher } from "../core/search/compile_glob.ts";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { portableByteSearch } from "../core/search/byte_search.ts";
import {
  GREP_MAX_CONTEXT_LINES,
  GREP_MAX_FILE_BYTES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_RESULTS,
  GREP_MAX_THREADS,
  GREP_THREADS_AFTER_FILES,
  GREP_THREADS_AFTER_FILES_WARM,
  GREP_WARM_UP_MS,
  GREP_WARM_UP_PASSES,
  SEARCH_MAX_WALK_ENTRIES,
} from "../core/limits.ts";
import { compileLineMatcher, type LineMatcher } from "../core/search/line_matcher.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { holdFolder } from "../core/fs/resolve_folder.ts";
import { searchFile, SearchRequest } from "../core/search/search_file.ts";
import type { GrepOutputMode } from "../core/search/search_text.ts";
import { searchFolder } from "./grep_folder.ts";
import { type GrepOutput, GrepResults } from "./grep_results.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";
import { Workspace } from "../core/fs/workspace.ts";

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
  /** Worker threads a search of a folder may use (never more than the cores); 0 searches in the calling thread only. @default 4 (`GREP_MAX_THREADS`) */
  threads?: number;
  /** Files a search of a folder searches in the calling thread before it uses worker threads. @default 2000 (`GREP_THREADS_AFTER_FILES`); 256 (`GREP_THREADS_AFTER_FILES_WARM`) when they are running already */
  threadsAfterFiles?: number;
  /**
   * Search the workspace in the background when the tool is made, a few
   * times over, and drop what is found: the runtime then runs the search code
   * its first few times before the first call does (a cold first call on an
   * 8,000-file tree is about twice a warm one). At most
   * {@link GREP_WARM_UP_PASSES} searches and {@link GREP_WARM_UP_MS}; it ends
   * as soon as a call begins, or when the signal given instead of `true`
   * aborts (a session that ends: the warm-up would otherwise keep the process
   * alive until its bound). On in `paddock mcp`. @default false
   */
  warmUp?: boolean | AbortSignal;
  /**
   * With `warmUp`: the warm-up begins once this settles, its time bound
   * from then (`paddock mcp`: once the client's handshake is done, so that
   * its first pass does not delay the answer to `initialize`). @default undefined (at once)
   */
  warmUpAfter?: Promise<unknown>;
}

export type { GrepOutputMode } from "../core/search/search_text.ts";
export type {
  GrepContentOutput,
  GrepCountOutput,
  GrepFilesOutput,
  GrepMatch,
  GrepOutput,
  GrepOutputBase,
  GrepSkipped,
} from "./grep_results.ts";

/** Arguments of `grep` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface GrepArguments {
  /** The regular expression (RE2 syntax), or plain text with `literal`. */
  pattern: string;
  /** Workspace-relative file or folder to search. @default "." */
  path?: string;
  /** Only files whose path matches this glob. @default undefined */
  glob?: string;
  /** Match without regard to case. @default false */
  ignore_case?: boolean;
  /** Treat the pattern as plain text. @default false */
  literal?: boolean;
  /** Lines of context before and after each match. @default 0 */
  context?: number;
  /** What to return. @default "content" */
  output_mode?: "content" | "files_with_matches" | "count";
  /** Results returned at most. @default the tool's `maxResults` */
  limit?: number;
  /** Also search files that `.gitignore` files exclude. @default false */
  include_ignored?: boolean;
}

/** Arguments of `grep`, validated. */
export interface GrepInput {
  /** The compiled pattern. */
  matcher: LineMatcher;
  /** The pattern as given (compiled again by worker threads). */
  pattern: string;
  /** Whether the pattern is plain text. */
  literal: boolean;
  /** Whether matching ignores case. */
  ignoreCase: boolean;
  /** The normalized segments of the file or folder searched. */
  segments: string[];
  /** The path as given ended in `/`: it must name a folder. @default false */
  folder?: boolean;
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

/**
 * Creates `grep`: searches file contents inside the workspace for a regular
 * expression (or plain text) and returns matching lines, matching files, or
 * counts per file.
 *
 * Patterns run on RE2 (re2js), in time linear in the input, so no pattern can
 * hang the process; an invalid pattern is `INVALID_PATTERN` before any I/O.
 * The plain text a pattern requires is looked for in each file's bytes
 * first, so most files are ruled out undecoded. The walk is the one of
 * `find_files`: confined, links never followed, `.git` skipped, `.gitignore`
 * honoured unless `include_ignored`; every file is opened at its held folder.
 * Binary files (a NUL in the first 8 KiB) and files over the size bound are
 * skipped and counted; lines are cut at a bounded length; at most `limit`
 * results are returned, with `truncated` when there were more, and the walk
 * ends as soon as that is known. CRLF line endings count as line ends; text
 * is decoded as UTF-8, invalid bytes as U+FFFD. The event loop gets a turn at
 * least every few milliseconds, so an abort ends the call promptly.
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
export function createGrepTool(
  workspace: WorkspaceSource,
  options: GrepToolOptions = {},
): Tool<GrepInput, GrepOutput, GrepArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxResults = options.maxResults ?? GREP_MAX_RESULTS;
  const maxFileBytes = options.maxFileBytes ?? GREP_MAX_FILE_BYTES;
  const maxLineChars = options.maxLineChars ?? GREP_MAX_LINE_CHARS;
  const maxWalkEntries = options.maxWalkEntries ?? SEARCH_MAX_WALK_ENTRIES;
  // The worker threads a search of a folder would use, started ahead of the first one (in the background).
  const threads = Math.min(options.threads ?? GREP_MAX_THREADS, GREP_MAX_THREADS);
  const warmThreads = (workspace: Workspace): boolean =>
    threads > 0 && (workspace.host.warmSearchThreads?.(threads) ?? false);
  if (workspace instanceof Workspace) warmThreads(workspace);
  // The warm-up's own call is told apart by its signal; any other call ends it.
  let warmUp: AbortController | undefined;
  const tool = defineTool({
    name: options.name ?? "grep",
    description: options.description ??
      `Search file contents inside the workspace with a regular expression (RE2 syntax) or plain text. Returns matching lines (with optional context), matching files, or counts. Skips .git, binary files, files over ${maxFileBytes} bytes and what .gitignore excludes. At most ${maxResults} results.`,
    readOnly: true,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): GrepInput => ({
      segments: normalizeWorkspacePath(args.path ?? "."),
      folder: namesFolder(args.path ?? "."),
      matcher: compileLineMatcher(args.pattern, { literal: args.literal, ignoreCase: args.ignore_case }),
      pattern: args.pattern,
      literal: args.literal ?? false,
      ignoreCase: args.ignore_case ?? false,
      glob: args.glob === undefined ? null : compileGlob(args.glob),
      context: args.context ?? 0,
      outputMode: args.output_mode ?? "content",
      limit: Math.min(args.limit ?? maxResults, maxResults),
      includeIgnored: args.include_ignored ?? false,
    }),
    run: async (input, { signal, onProgress }) => {
      if (warmUp !== undefined && signal !== warmUp.signal) {
        warmUp.abort();
        warmUp = undefined;
      }
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const start = await workspace.resolve(input.segments, { action: "search", display, folder: input.folder });
      const results = new GrepResults(input.outputMode, input.limit);
      const request = new SearchRequest({
        matcher: input.matcher,
        outputMode: input.outputMode,
        context: input.context,
        cap: input.limit + 1,
        maxLineChars,
        maxFileBytes,
        search: workspace.host.byteSearch ?? portableByteSearch,
      });
      let walkLimitReached = false;
      try {
        if (start.stat !== null && start.stat.kind === "file") {
          // A file named directly (through links inside, resolved above) is searched whatever the glob;
          // it must be the file the walk found, and a failure is the call's.
          const outcome = await searchFile(workspace.host, start.hostPath, request, start.stat, display).catch(
            (error) => {
              throw mapHostError(error, "search", display);
            },
          );
          results.take(display, outcome);
        } else if (start.stat !== null && start.stat.kind === "directory") {
          // Running already: the files go to them early. Else (a workspace opened at this call) they start now.
          const running = warmThreads(workspace);
          const held = await holdFolder(workspace, start, { action: "search", display });
          try {
            walkLimitReached = await searchFolder(workspace, held, {
              request,
              spec: {
                pattern: input.pattern,
                literal: input.literal,
                ignoreCase: input.ignoreCase,
                outputMode: input.outputMode,
                context: input.context,
                cap: request.cap,
                maxLineChars,
                maxFileBytes,
              },
              segments: input.segments,
              glob: input.glob,
              includeIgnored: input.includeIgnored,
              maxWalkEntries,
              maxIgnoreFileBytes: options.maxIgnoreFileBytes,
              threads: options.threads,
              threadsAfterFiles: options.threadsAfterFiles ??
                (running ? GREP_THREADS_AFTER_FILES_WARM : GREP_THREADS_AFTER_FILES),
              signal,
              onProgress,
            }, results);
          } finally {
            await held.release();
          }
        } else {
          throw new WorkspaceError("NOT_A_FILE", `Cannot search '${display}': it is neither a file nor a folder`, {
            path: display,
          });
        }
      } finally {
        await start.release();
      }
      throwIfAborted(signal);
      return results.output(walkLimitReached);
    },
  });
  const ending = options.warmUp instanceof AbortSignal ? options.warmUp : undefined;
  if ((options.warmUp === true || ending !== undefined) && ending?.aborted !== true) {
    const controller = warmUp = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const end = () => controller.abort();
    ending?.addEventListener("abort", end, { once: true });
    // A literal most code trees hold here and there, counted per file: the walk, the byte search, line ends.
    // No result bound: a pass that stopped at the 100th file with a match would search a few hundred files
    // of a large tree, never sending the threads the batches a whole-tree search does (the Go tree: a
    // first call after 3 s of such passes still took twice a warm one). Pass after pass: V8 optimizes the
    // search code after a few runs (one pass of an 8,000-file tree is not enough).
    const input: GrepInput = {
      ...tool.validate({ pattern: "TODO", literal: true, output_mode: "count" }),
      limit: Number.MAX_SAFE_INTEGER - 1,
    };
    void (async () => {
      // Until it settles, or the warm-up is ended (a call began, the session ended) before.
      await new Promise<unknown>((resolve) => {
        controller.signal.addEventListener("abort", resolve, { once: true });
        if (options.warmUpAfter === undefined) resolve(undefined);
        else options.warmUpAfter.then(resolve, resolve);
      });
      timer = setTimeout(end, GREP_WARM_UP_MS);
      for (let pass = 0; pass < GREP_WARM_UP_PASSES && !controller.signal.aborted; pass++) {
        await tool.run(input, { signal: controller.signal });
      }
    })().catch(() => {}).finally(() => {
      clearTimeout(timer);
      ending?.removeEventListener("abort", end);
      if (warmUp === controller) warmUp = undefined;
    });
  }
  return tool;
}
