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

/** Agent loop: model calls in one run (one `send`, or one execute and its resumes) before it stops with `finishReason: "max-steps"`, so a model that keeps calling tools cannot loop forever. */
export const AGENT_MAX_STEPS = 20;

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
  AGENT_MAX_STEPS,
});
