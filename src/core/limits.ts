/**
 * Every limit Paddock enforces, with the reason beside it. The README's limits
 * table shows the same numbers; a test keeps the two equal. Each tool factory
 * accepts overrides for its own limits.
 *
 * @module
 */

/** Longest workspace-relative path, in UTF-8 bytes: Linux's PATH_MAX, so a valid path never fails in the kernel for its length. */
export const MAX_PATH_BYTES = 4_096;

/** Longest single path segment, in UTF-8 bytes: NAME_MAX on Linux, macOS and NTFS. */
export const MAX_SEGMENT_BYTES = 255;

/** Symbolic links followed while resolving one path: Linux's own MAXSYMLINKS, so chains the kernel accepts work and loops end. */
export const MAX_SYMLINK_HOPS = 40;

/**
 * Folder levels below the root that one walk holds open at once: each level
 * is one held directory descriptor, so a deep tree cannot exhaust the
 * process's descriptors. A path deeper than this fails with `PATH_TOO_DEEP`;
 * tree walks do not enter deeper folders and report their results as cut.
 */
export const MAX_WALK_DEPTH = 256;

/** read_file: bytes of content returned; the tool reads one more to detect a larger file. 64 KiB fits a model's context comfortably. */
export const READ_FILE_MAX_BYTES = 65_536;

/** write_file: UTF-8 bytes of content accepted, checked before the disk is touched. */
export const WRITE_FILE_MAX_BYTES = 65_536;

/** node_process: UTF-8 bytes of script source. */
export const NODE_PROCESS_MAX_SOURCE_BYTES = 32_768;

/** node_process: number of script arguments. */
export const NODE_PROCESS_MAX_ARGUMENTS = 32;

/** node_process: UTF-8 bytes of one argument. */
export const NODE_PROCESS_MAX_ARGUMENT_BYTES = 2_048;

/** node_process: UTF-8 bytes of all arguments together. */
export const NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES = 8_192;

/** node_process: UTF-16 units of the arguments once quoted for a Windows command line (CreateProcess allows 32,767 in all; the rest is left for the runtime path and flags). */
export const NODE_PROCESS_MAX_WINDOWS_COMMAND_LINE = 30_000;

/** node_process: wall-clock milliseconds before the whole process group is killed. */
export const NODE_PROCESS_TIMEOUT_MS = 500;

/** node_process: bytes kept of stdout and of stderr, each; cut on a UTF-8 character boundary. */
export const NODE_PROCESS_MAX_OUTPUT_BYTES = 32_768;

/** read_file: bytes read per step while paging; memory stays at the page plus one chunk whatever the file's size. */
export const READ_FILE_CHUNK_BYTES = 65_536;

/** read_file: bytes one windowed read scans at most, from the file's start; a window must start within them (lines have no index, so every page scans from the start): this bounds one call's work, whatever the file. */
export const READ_FILE_MAX_SCAN_BYTES = 67_108_864;

/** read_file: files up to this size get `totalLines` in a paged read (the rest of the file is scanned to count them); larger files report `hasMore` only. */
export const READ_FILE_COUNT_LINES_MAX_BYTES = 8_388_608;

/** edit_file: size of the file edited, in bytes; the whole file is held in memory (old and new text, plus the diff). */
export const EDIT_FILE_MAX_FILE_BYTES = 1_048_576;

/** edit_file: UTF-8 bytes of all old_string and new_string values of one call, checked before the disk is touched. */
export const EDIT_FILE_MAX_INPUT_BYTES = 65_536;

/** edit_file: edits in one multi-edit call. */
export const EDIT_FILE_MAX_EDITS = 64;

/** edit_file: bytes of the unified diff returned; a longer diff is cut on a line boundary and flagged `diffTruncated`. */
export const EDIT_FILE_MAX_DIFF_BYTES = 32_768;

/**
 * edit_file: line edits (lines removed plus lines added) the diff looks for the
 * shortest way to show; a changed region that needs more is shown as one hunk,
 * every old line removed and every new line added (the diff's search costs its
 * edit count times the region's length: edits spread over a whole 1 MiB file took minutes).
 */
export const EDIT_FILE_MAX_DIFF_EDITS = 512;

/** apply_patch: UTF-8 bytes of one patch, checked before it is parsed or the disk is touched. */
export const APPLY_PATCH_MAX_BYTES = 262_144;

/** apply_patch: files one patch adds, updates, moves or deletes (each target is read and held in memory before the first change). */
export const APPLY_PATCH_MAX_FILES = 64;

/** apply_patch: size of a file the patch updates, and of each file it writes, in bytes (old and new text are held in memory together). */
export const APPLY_PATCH_MAX_FILE_BYTES = 1_048_576;

/**
 * apply_patch: steps spent locating the hunks of one patch, all its files together (all passes, exact to
 * tolerant: a line comparison is one step, folding a line for a pass 16 plus one per UTF-16 unit, measured
 * against a comparison); past it the hunk is `PATCH_HUNK_NOT_FOUND` (a search that would cost this much is a
 * hostile or degenerate patch).
 */
export const APPLY_PATCH_MAX_MATCH_STEPS = 33_554_432;

/**
 * Stale-write guard: files one workspace remembers as read (identity, size,
 * mtime); past it the oldest is forgotten, and writing over that file again
 * needs a fresh read (`FILE_NOT_READ`), never a write that skips the check.
 */
export const STALE_WRITE_MAX_TRACKED_FILES = 10_000;

/**
 * Stale-write guard: lines one workspace remembers of what the model read
 * (a hash of each, 8 bytes: 8 MB at most), over all its files; past it the
 * least recently seen files' lines are forgotten, and a change to one of them
 * since its read is refused whole-file (`FILE_CHANGED_SINCE_READ`) as before.
 */
export const STALE_WRITE_MAX_REMEMBERED_LINES = 1_000_000;

/**
 * Stale-write guard: line edits between what was read and the file now that
 * the region check follows (a line diff costs about lines × edits); a file
 * changed more is refused whole-file (`FILE_CHANGED_SINCE_READ`).
 */
export const STALE_WRITE_MAX_DIFF_EDITS = 2_000;

/**
 * Stale-write guard: lines of current text an edit's result (`changedSinceRead`)
 * or a refusal's details show at most; past it the list is cut (`truncated`).
 */
export const STALE_WRITE_MAX_SHOWN_LINES = 200;

/** delete_path: entries (files, links, folders, the top folder included) one recursive delete removes; counted before anything is deleted. */
export const DELETE_PATH_MAX_ENTRIES = 10_000;

/** move_path: entries examined for relative links when a folder moves to a shallower place (a moved link must not come to point outside). */
export const MOVE_PATH_MAX_SCAN_ENTRIES = 10_000;

/** shell: default wall-clock milliseconds before the command's process group is killed; long enough for a test run or a build step. */
export const SHELL_TIMEOUT_MS = 30_000;

/** shell: the largest `timeout_ms` a call may ask for (10 minutes), so a model cannot park a call forever. */
export const SHELL_MAX_TIMEOUT_MS = 600_000;

/** shell: bytes kept of stdout and of stderr, each; beyond it the start and the end are kept (half each) and the middle is dropped. */
export const SHELL_MAX_OUTPUT_BYTES = 32_768;

/** shell: UTF-8 bytes of one command line; cmd.exe refuses lines over 8,191 characters, and a longer line is rarely a command. */
export const SHELL_MAX_COMMAND_BYTES = 8_192;

/** shell: milliseconds between SIGTERM and SIGKILL on timeout or abort, so a command can clean up (remove temp files, flush logs). */
export const SHELL_KILL_GRACE_MS = 1_000;

/** shell and node_process: background processes running at once per workspace (`background: true`); one more is `TOO_MANY_BACKGROUND_PROCESSES`. Each holds two pipes and two output buffers. */
export const MAX_BACKGROUND_PROCESSES = 8;

/** process_output: the largest `wait_ms` (milliseconds to wait for new output), so one call cannot park for ever. */
export const PROCESS_OUTPUT_MAX_WAIT_MS = 30_000;

/** process_input: UTF-8 bytes of `text` one call writes to a background process's stdin. */
export const PROCESS_INPUT_MAX_BYTES = 65_536;

/** process_input: bytes handed to a process's stdin pipe and not yet taken by it, at most; text goes in pieces of this size, the next once the last was taken, so a process that never reads holds at most this much of it. */
export const PROCESS_INPUT_CHUNK_BYTES = 16_384;

/** process_input: bytes of text held for one process by calls writing or waiting their turn; a call that would pass it is `PROCESS_INPUT_BLOCKED` at once, so calls to a process that does not read cannot fill memory. */
export const PROCESS_INPUT_MAX_QUEUED_BYTES = 262_144;

/** process_input: milliseconds a call waits for the process to take its text (its turn included); then it returns what was written, or `PROCESS_INPUT_BLOCKED`, so no call (and no MCP slot) is held by a process that does not read. */
export const PROCESS_INPUT_WAIT_MS = 2_000;

/** shell, node_process: bytes of each output stream of one command kept in memory for `process_output` to page and search (the latest; the oldest are dropped and counted). In memory, not in a temp file: nothing is left on disk by a crash, and the bound is small. */
export const KEPT_OUTPUT_MAX_BYTES = 2_097_152;

/** shell, node_process: commands whose whole output a workspace keeps for `process_output` (foreground and background together); one more forgets the oldest (ended ones first). With `KEPT_OUTPUT_MAX_BYTES` per stream: at most 32 MiB per workspace. */
export const MAX_KEPT_OUTPUTS = 8;

/** process_output: lines one page of kept output returns at most (`limit`'s default and ceiling). */
export const PROCESS_OUTPUT_MAX_LINES = 500;

/** process_output: lines one regex search returns at most. */
export const PROCESS_OUTPUT_MAX_MATCHES = 200;

/** process_output: characters of one kept output line shown at most (a page or a match); the rest is cut with a note of its length. */
export const OUTPUT_MAX_LINE_CHARS = 2_000;

/** Milliseconds a finished command's output pipes may stay open before they are closed anyway: a process that left the group (setsid) and holds them must not hang the call. */
export const PIPE_DRAIN_GRACE_MS = 500;

/** Milliseconds a bubblewrap-sandboxed command's output pipes may stay open after bwrap exited: the processes in its PID namespace are being killed with it, and the call waits for them (up to this) rather than returning while they still run. */
export const SANDBOX_DRAIN_GRACE_MS = 5_000;

/** sandbox: milliseconds the startup probe (`bwrap … true`) may take before the sandbox is declared unavailable; generous for a loaded machine. */
export const SANDBOX_PROBE_TIMEOUT_MS = 10_000;

/** sandbox: milliseconds the walk of the shown host folders for entries to hide (`find`, once per sandbox, before its first command) may take; past it that command is `SANDBOX_UNAVAILABLE` and the next one walks again. About 3 s cold for 215,000 entries on a 2-core machine; over 10 s with a parallel `npm ci` and a test suite beside it. */
export const SANDBOX_MASK_WALK_TIMEOUT_MS = 60_000;

/** sandbox: host entries the bubblewrap sandbox hides because other users may not read them (each costs a mount per command); past it the sandbox is unavailable rather than showing them. A system has a handful. */
export const SANDBOX_MASK_MAX_PATHS = 1_000;

/** Protected paths: entries one scan of the workspace visits before a process runs (`node_process`'s write allowlist, a sandbox's read-only binds); past it nothing runs (`TOO_MANY_ENTRIES`), since a partial scan could miss a protected file. Protected folders (`.git`, `node_modules`) are not entered. */
export const PROTECTED_SCAN_MAX_ENTRIES = 100_000;

/** Protected paths: paths one process is handed (its write list, or the sandbox's read-only binds and pinned folders), so its command line stays far below the system's limit (`ARG_MAX`); past it nothing runs (`TOO_MANY_ENTRIES`). */
export const PROTECTED_MAX_PATHS = 4_096;

/** safe git: bytes of a `.git` file or a repository config read at most (a larger one is refused). */
export const GIT_CONFIG_MAX_BYTES = 1_048_576;

/** `paddock mcp --shell ask`: characters of a call's arguments shown in an approval request, at most (its start and end, half each, and the count left out). */
export const APPROVAL_SUMMARY_CHARS = 1_000;

/** egress proxy: milliseconds to resolve and connect to an upstream before answering 502, so a dead host cannot pin a client forever. */
export const EGRESS_PROXY_CONNECT_TIMEOUT_MS = 10_000;

/** Agent loop: model calls in one run (one `send`, or one execute and its resumes) before it stops with `finishReason: "max-steps"`, so a model that keeps calling tools cannot loop forever. */
export const AGENT_MAX_STEPS = 20;

/** list_directory: entries returned by default; the rest are counted and flagged `truncated`. 500 names fit a model's context. */
export const LIST_DIRECTORY_MAX_ENTRIES = 500;

/**
 * A `NOT_FOUND`'s hint: entries of one folder compared with the missing name,
 * at most. The nearest names are a help, not a search: a huge folder costs no
 * more than this many comparisons (each bounded by the name's length).
 */
export const NOT_FOUND_HINT_MAX_ENTRIES = 1_000;

/** A `NOT_FOUND`'s hint: folders listed at most, from the missing name's parent up, to find the first one that exists. */
export const NOT_FOUND_HINT_MAX_FOLDERS = 3;

/** A `NOT_FOUND`'s hint: nearest names offered at most. */
export const NOT_FOUND_HINT_NAMES = 5;

/** read_media_file: bytes of an image or audio file returned (as base64, a third more); a larger file is `FILE_TOO_LARGE` from its size, unread. 4 MiB keeps one reply within what MCP clients take. */
export const READ_MEDIA_FILE_MAX_BYTES = 4_194_304;

/** directory_tree: folder levels below the start listed at most (the default and the ceiling of `max_depth`); deeper folders are shown, not expanded. */
export const DIRECTORY_TREE_MAX_DEPTH = 10;

/** directory_tree: entries (files, folders, links) one tree holds at most; the walk stops there and the result says `truncated`. */
export const DIRECTORY_TREE_MAX_ENTRIES = 1_000;

/** find_files: paths returned by default; more are flagged `truncated`. */
export const FIND_FILES_MAX_RESULTS = 1_000;

/** grep: results (matching lines, files or per-file counts) returned by default; more are flagged `truncated`. */
export const GREP_MAX_RESULTS = 100;

/** find_files and grep: directory entries visited in one walk, so a huge tree (or a generated one) cannot stall a call. */
export const SEARCH_MAX_WALK_ENTRIES = 100_000;

/** find_files and grep: UTF-8 bytes of a glob or regular-expression pattern; compile time and memory grow with it. */
export const SEARCH_MAX_PATTERN_BYTES = 4_096;

/** find_files and grep: bytes of one `.gitignore` file read; a larger one is not applied (real ones are a few KiB). */
export const SEARCH_MAX_IGNORE_FILE_BYTES = 65_536;

/**
 * find_files and grep: characters of `.gitignore` text whose parsed rules are
 * kept between walks (process-wide, by content; the oldest go first). The
 * kernel tree's 306 files hold about 30,000.
 */
export const SEARCH_IGNORE_CACHE_CHARS = 1_048_576;

/** grep: bytes of a file searched; larger files are skipped and counted, so memory stays bounded. */
export const GREP_MAX_FILE_BYTES = 1_048_576;

/** grep: a file this large or larger is read and searched this many bytes at a time (a part ends at its last line ending; a longer line grows the part), so a search holds about this much of a file, not all of it. */
export const GREP_READ_CHUNK_BYTES = 1_048_576;

/** grep: leading bytes checked for a NUL byte; a file holding one is binary and skipped (what git and ripgrep do). */
export const GREP_BINARY_SNIFF_BYTES = 8_192;

/** grep: characters (UTF-16 units) of a matching or context line returned; a longer line is cut around the match. */
export const GREP_MAX_LINE_CHARS = 500;

/** grep: lines of context before and after a match, at most. */
export const GREP_MAX_CONTEXT_LINES = 10;

/** grep: worker threads one call searches files on, at most (never more than the machine's cores less one); the calling thread walks, searches files too while the workers have work queued, and merges. */
export const GREP_MAX_THREADS = 4;

/** grep: files searched in the calling thread before worker threads are used, so a small search (or a `limit` met early) never waits for one to start (about 50 ms of work; the grep tool starts them ahead, in the background). */
export const GREP_THREADS_AFTER_FILES = 2_000;

/** grep: {@link GREP_THREADS_AFTER_FILES} when the worker threads are already running (started ahead, `Host.warmSearchThreads`): nothing to wait for, so the files go to them early. */
export const GREP_THREADS_AFTER_FILES_WARM = 256;

/** grep with `warmUp`: milliseconds its background searches of the workspace run at most (they also end when the first call begins), so that the first call does not pay the runtime's first runs of the search code (an 8,000-file tree takes 1 s for its 10 passes on Node, a 70,000-file one over 2 s for its first). */
export const GREP_WARM_UP_MS = 2_000;

/** grep with `warmUp`: searches of the workspace it makes at most, one after the other (a small tree needs few; a large one meets {@link GREP_WARM_UP_MS} first). */
export const GREP_WARM_UP_PASSES = 10;

/**
 * grep: milliseconds past which a file's synchronous search in the calling
 * thread counts as slow; after {@link GREP_SLOW_FILES} slow ones in a row that thread
 * searches no more files itself in this call (and starts the worker threads at
 * once). A cold page cache makes most reads wait for the disk and would stall
 * the event loop (the kernel tree with the cache dropped: 28 stalls over 50 ms,
 * the longest 711 ms); warm, a file takes tens of microseconds.
 */
export const GREP_SLOW_FILE_MS = 5;

/**
 * grep: slow files ({@link GREP_SLOW_FILE_MS}) in a row the calling thread
 * searches before it leaves every later file of the call to the worker
 * threads. In a row, and more than one: warm, a large file, a collection or
 * the scheduler makes one file slow now and then (in 3 of 8 kernel-tree
 * calls, 5–18 ms), while a cold cache makes file after file slow.
 */
export const GREP_SLOW_FILES = 3;

/** grep: files handed to worker threads and not yet merged back, at most; each keeps its folder held (one descriptor), so this bounds descriptors and memory. */
export const GREP_MAX_QUEUED_FILES = 1_024;

/**
 * grep: files searched (on any thread) whose outcomes wait to be merged back
 * in walk order, at most; bounds the memory a slow batch makes the others
 * hold (a few hundred bytes a file: a path and its outcome; a result's lines
 * are bounded apart). At 4,096 the calling thread waited at this bound 75
 * times in six kernel-tree greps (10% of their time) while the worker's
 * oldest batch came back; at 16,384, never.
 */
export const GREP_MAX_PENDING_FILES = 16_384;

/** MCP server: bytes of one JSON-RPC message it buffers and parses. The largest legitimate call (64 KiB of content, JSON-escaped up to six-fold: 384 KiB) is far below; a larger message is skipped as it streams in and answered with an error, so one huge argument cannot exhaust memory or end the session. */
export const MCP_MAX_MESSAGE_BYTES = 4_194_304;

/** MCP server: tool calls running at once; the rest wait in order. Bounds memory and open files under a burst (each running read may hold 64 KiB). */
export const MCP_MAX_CONCURRENT_CALLS = 16;

/** MCP server: calls waiting for a slot before the server stops reading its input (the client then waits in the pipe), so a flood of large calls cannot fill memory. */
export const MCP_MAX_QUEUED_CALLS = 64;

/** MCP server: `process_kill` and `process_list` calls running at once, beside the other calls' slots, so a process can always be listed and ended however many calls are waiting on it. */
export const MCP_MAX_CONTROL_CALLS = 4;

/**
 * MCP server: milliseconds the calls already read are given to finish and be
 * answered once stdin has closed; then the session ends (an approval asked of
 * a client that has gone could otherwise wait for ever).
 */
export const MCP_EXIT_DRAIN_MS = 10_000;

/** `paddock mcp --http`: bytes of one request body, at most; a larger one is answered 413 before it is parsed (a declared `Content-Length` over it without reading anything). The same bound as stdio's message ({@link MCP_MAX_MESSAGE_BYTES}). */
export const MCP_HTTP_MAX_BODY_BYTES = 4_194_304;

/** `paddock mcp --http`: milliseconds a client gets to send a request's headers; a slower one (slowloris) is cut. */
export const MCP_HTTP_HEADERS_TIMEOUT_MS = 10_000;

/** `paddock mcp --http`: milliseconds a client gets to send a whole request (headers and body); a slower one is cut with 408. */
export const MCP_HTTP_REQUEST_TIMEOUT_MS = 30_000;

/**
 * `paddock mcp --http`: milliseconds an idle keep-alive connection stays open between requests. Longer than a
 * client's own idle timeout (undici's 4 s, a proxy's 60 s), so that the client is the one to close it: at 5 s,
 * 50 busy sessions on two cores met the race where the server closes a connection as the client sends on it
 * ("other side closed"). Idle connections are bounded by {@link MCP_HTTP_MAX_CONNECTIONS}.
 */
export const MCP_HTTP_KEEP_ALIVE_MS = 65_000;

/** `paddock mcp --http`: milliseconds a session may go without a request (and with none open) before it is ended like a `DELETE`: its background processes killed, its per-session folder removed. */
export const MCP_HTTP_IDLE_SESSION_MS = 600_000;

/** `paddock mcp --http`: sessions open at once; one more `initialize` is answered 503. Each holds its own workspace handles and tool state. */
export const MCP_HTTP_MAX_SESSIONS = 64;

/** `paddock mcp --http`: requests of one session open at once (the stdio server's running plus waiting calls, {@link MCP_MAX_CONCURRENT_CALLS} + {@link MCP_MAX_QUEUED_CALLS}); one more is answered 429, so one session cannot fill memory. */
export const MCP_HTTP_MAX_OPEN_REQUESTS = 80;

/**
 * `paddock mcp --http`: connections open at once, all sessions together. One more closes, to make room, the
 * oldest connection that never carried a request past the token check and has none open, else the one idle the
 * longest; a connection carrying an open request (a call, an SSE stream) is never closed for another, and with
 * every one busy the newcomer is closed.
 */
export const MCP_HTTP_MAX_CONNECTIONS = 512;

/** `paddock mcp --http`: sessions one principal (an OAuth token's `sub`) may hold at once; one more `initialize` is answered 429. A shared bearer token is one principal, bounded by {@link MCP_HTTP_MAX_SESSIONS} alone. */
export const MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL = 16;

/** `paddock mcp --http`: bytes of request bodies held at once while they arrive, all requests together (16 bodies at {@link MCP_HTTP_MAX_BODY_BYTES}); a request whose body would pass it is answered 503 with `Retry-After: 1`. */
export const MCP_HTTP_BODY_BUDGET_BYTES = 67_108_864;

/** `paddock mcp --http`: bytes of one session's sent messages kept for a client that reconnects with `Last-Event-ID`; the oldest are dropped first. */
export const MCP_HTTP_REPLAY_BYTES = 4_194_304;

/** `paddock mcp --http`: characters a bearer token must have at least (`--token-file`, `PADDOCK_MCP_TOKEN`): 32 random characters are beyond guessing. */
export const MCP_HTTP_MIN_TOKEN_CHARS = 32;

/** `paddock mcp --http`: milliseconds a client is told (SSE `retry`) to wait before it reconnects a broken stream with `Last-Event-ID`. */
export const MCP_HTTP_SSE_RETRY_MS = 1_000;

/**
 * Checkpoints: bytes of a file's previous content the change journal keeps
 * before a tool replaces or deletes it. A larger file is still journaled
 * (path, mode, identity) but recorded as not restorable: one huge file must
 * not push every other change out of the journal.
 */
export const CHECKPOINT_FILE_BYTES = 1_048_576;

/**
 * Checkpoints: bytes the change journal of one workspace holds at most (the
 * previous contents plus a small fixed cost per entry). When full, the oldest
 * entries are dropped; a checkpoint that needed them restores only partly and
 * says so.
 */
export const CHECKPOINT_JOURNAL_BYTES = 33_554_432;

/**
 * Commands' changes (`shell`, `node_process`): entries (files, folders, links)
 * of the workspace walked before and after each command to tell what it
 * changed. A larger workspace is still run; the command's undo group is marked
 * incomplete (`CHANGES_INCOMPLETE`) when the walk stopped here.
 */
export const COMMAND_CAPTURE_MAX_ENTRIES = 20_000;

/**
 * Commands' changes: bytes of file contents kept per workspace so that a
 * command's change can be taken back (each file up to `CHECKPOINT_FILE_BYTES`,
 * read before a command and kept while unchanged, so only changed files are
 * read again). A file past the bound that a command changes makes its group
 * incomplete.
 */
export const COMMAND_CAPTURE_MAX_BYTES = 33_554_432;

/** All limits by name, as printed in the README's table. */
export const LIMITS: Readonly<Record<string, number>> = Object.freeze({
  MAX_PATH_BYTES,
  MAX_SEGMENT_BYTES,
  MAX_SYMLINK_HOPS,
  MAX_WALK_DEPTH,
  READ_FILE_MAX_BYTES,
  WRITE_FILE_MAX_BYTES,
  NODE_PROCESS_MAX_SOURCE_BYTES,
  NODE_PROCESS_MAX_ARGUMENTS,
  NODE_PROCESS_MAX_ARGUMENT_BYTES,
  NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES,
  NODE_PROCESS_MAX_WINDOWS_COMMAND_LINE,
  NODE_PROCESS_TIMEOUT_MS,
  NODE_PROCESS_MAX_OUTPUT_BYTES,
  READ_FILE_CHUNK_BYTES,
  READ_FILE_MAX_SCAN_BYTES,
  READ_FILE_COUNT_LINES_MAX_BYTES,
  EDIT_FILE_MAX_FILE_BYTES,
  EDIT_FILE_MAX_INPUT_BYTES,
  EDIT_FILE_MAX_EDITS,
  EDIT_FILE_MAX_DIFF_BYTES,
  EDIT_FILE_MAX_DIFF_EDITS,
  APPLY_PATCH_MAX_BYTES,
  APPLY_PATCH_MAX_FILES,
  APPLY_PATCH_MAX_FILE_BYTES,
  APPLY_PATCH_MAX_MATCH_STEPS,
  STALE_WRITE_MAX_TRACKED_FILES,
  STALE_WRITE_MAX_REMEMBERED_LINES,
  STALE_WRITE_MAX_DIFF_EDITS,
  STALE_WRITE_MAX_SHOWN_LINES,
  DELETE_PATH_MAX_ENTRIES,
  MOVE_PATH_MAX_SCAN_ENTRIES,
  SHELL_TIMEOUT_MS,
  SHELL_MAX_TIMEOUT_MS,
  SHELL_MAX_OUTPUT_BYTES,
  SHELL_MAX_COMMAND_BYTES,
  SHELL_KILL_GRACE_MS,
  MAX_BACKGROUND_PROCESSES,
  PROCESS_OUTPUT_MAX_WAIT_MS,
  PROCESS_INPUT_MAX_BYTES,
  PROCESS_INPUT_CHUNK_BYTES,
  PROCESS_INPUT_MAX_QUEUED_BYTES,
  PROCESS_INPUT_WAIT_MS,
  KEPT_OUTPUT_MAX_BYTES,
  MAX_KEPT_OUTPUTS,
  PROCESS_OUTPUT_MAX_LINES,
  PROCESS_OUTPUT_MAX_MATCHES,
  OUTPUT_MAX_LINE_CHARS,
  PIPE_DRAIN_GRACE_MS,
  SANDBOX_DRAIN_GRACE_MS,
  COMMAND_CAPTURE_MAX_ENTRIES,
  COMMAND_CAPTURE_MAX_BYTES,
  SANDBOX_PROBE_TIMEOUT_MS,
  SANDBOX_MASK_WALK_TIMEOUT_MS,
  SANDBOX_MASK_MAX_PATHS,
  PROTECTED_SCAN_MAX_ENTRIES,
  PROTECTED_MAX_PATHS,
  GIT_CONFIG_MAX_BYTES,
  APPROVAL_SUMMARY_CHARS,
  EGRESS_PROXY_CONNECT_TIMEOUT_MS,
  AGENT_MAX_STEPS,
  LIST_DIRECTORY_MAX_ENTRIES,
  NOT_FOUND_HINT_MAX_ENTRIES,
  NOT_FOUND_HINT_MAX_FOLDERS,
  NOT_FOUND_HINT_NAMES,
  READ_MEDIA_FILE_MAX_BYTES,
  DIRECTORY_TREE_MAX_DEPTH,
  DIRECTORY_TREE_MAX_ENTRIES,
  FIND_FILES_MAX_RESULTS,
  GREP_MAX_RESULTS,
  SEARCH_MAX_WALK_ENTRIES,
  SEARCH_MAX_PATTERN_BYTES,
  SEARCH_MAX_IGNORE_FILE_BYTES,
  SEARCH_IGNORE_CACHE_CHARS,
  GREP_MAX_FILE_BYTES,
  GREP_READ_CHUNK_BYTES,
  GREP_BINARY_SNIFF_BYTES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_CONTEXT_LINES,
  GREP_MAX_THREADS,
  GREP_THREADS_AFTER_FILES,
  GREP_THREADS_AFTER_FILES_WARM,
  GREP_WARM_UP_MS,
  GREP_WARM_UP_PASSES,
  GREP_SLOW_FILE_MS,
  GREP_SLOW_FILES,
  GREP_MAX_QUEUED_FILES,
  GREP_MAX_PENDING_FILES,
  MCP_MAX_MESSAGE_BYTES,
  MCP_MAX_CONCURRENT_CALLS,
  MCP_MAX_QUEUED_CALLS,
  MCP_MAX_CONTROL_CALLS,
  MCP_EXIT_DRAIN_MS,
  MCP_HTTP_MAX_BODY_BYTES,
  MCP_HTTP_HEADERS_TIMEOUT_MS,
  MCP_HTTP_REQUEST_TIMEOUT_MS,
  MCP_HTTP_KEEP_ALIVE_MS,
  MCP_HTTP_IDLE_SESSION_MS,
  MCP_HTTP_MAX_SESSIONS,
  MCP_HTTP_MAX_OPEN_REQUESTS,
  MCP_HTTP_MAX_CONNECTIONS,
  MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL,
  MCP_HTTP_BODY_BUDGET_BYTES,
  MCP_HTTP_REPLAY_BYTES,
  MCP_HTTP_MIN_TOKEN_CHARS,
  MCP_HTTP_SSE_RETRY_MS,
  CHECKPOINT_FILE_BYTES,
  CHECKPOINT_JOURNAL_BYTES,
});
