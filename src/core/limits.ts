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

/** list_directory: entries returned by default; the rest are counted and flagged `truncated`. 500 names fit a model's context. */
export const LIST_DIRECTORY_MAX_ENTRIES = 500;

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

/** grep: bytes of a file searched; larger files are skipped and counted, so memory stays bounded. */
export const GREP_MAX_FILE_BYTES = 1_048_576;

/** grep: leading bytes checked for a NUL byte; a file holding one is binary and skipped (what git and ripgrep do). */
export const GREP_BINARY_SNIFF_BYTES = 8_192;

/** grep: characters (UTF-16 units) of a matching or context line returned; a longer line is cut around the match. */
export const GREP_MAX_LINE_CHARS = 500;

/** grep: lines of context before and after a match, at most. */
export const GREP_MAX_CONTEXT_LINES = 10;

/** All limits by name, as printed in the README's table. */
export const LIMITS: Readonly<Record<string, number>> = Object.freeze({
  MAX_PATH_BYTES,
  MAX_SEGMENT_BYTES,
  MAX_SYMLINK_HOPS,
  READ_FILE_MAX_BYTES,
  WRITE_FILE_MAX_BYTES,
  NODE_PROCESS_MAX_SOURCE_BYTES,
  NODE_PROCESS_MAX_ARGUMENTS,
  NODE_PROCESS_MAX_ARGUMENT_BYTES,
  NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES,
  NODE_PROCESS_MAX_WINDOWS_COMMAND_LINE,
  NODE_PROCESS_TIMEOUT_MS,
  NODE_PROCESS_MAX_OUTPUT_BYTES,
  LIST_DIRECTORY_MAX_ENTRIES,
  FIND_FILES_MAX_RESULTS,
  GREP_MAX_RESULTS,
  SEARCH_MAX_WALK_ENTRIES,
  SEARCH_MAX_PATTERN_BYTES,
  SEARCH_MAX_IGNORE_FILE_BYTES,
  GREP_MAX_FILE_BYTES,
  GREP_BINARY_SNIFF_BYTES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_CONTEXT_LINES,
});
