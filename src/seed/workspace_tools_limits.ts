/**
 * The limits of seed 004's `createWorkspaceTools`, as that chapter states
 * them. They are the seed's numbers, kept apart from Paddock's own
 * (`LIMITS`), which its own tools use.
 *
 * @module
 */

/** read: characters (UTF-16 units) returned whole; a longer file keeps its head and its tail. 16,000 fits a model's context with room to spare. */
export const MAX_READ_CHARS = 16_000;

/** read: characters kept from each end of a longer file (definitions sit at the start, errors and results at the end). */
export const READ_KEEP_CHARS = 8_000;

/** bash: wall-clock milliseconds before the command is killed: a resource limit, not a safety check. */
export const BASH_TIMEOUT_MS = 10_000;

/** bash: bytes of stdout and of stderr, each, before the command is a failure; also the characters returned at most. */
export const BASH_MAX_BUFFER_BYTES = 65_536;

/** read and write: bytes of one file at most. The seed reads and writes without a bound; Paddock keeps memory bounded. */
export const WORKSPACE_TOOLS_MAX_FILE_BYTES = 16_777_216;
