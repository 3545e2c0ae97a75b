import type { ErrorCode } from "../../src/core/errors.ts";
import type { Tree } from "../helpers/fixture.ts";
import { LINKED_CONTENT, LINKED_FILE, SYMLINK_TREE, type SymlinkCase } from "./symlink_fixtures.ts";

/**
 * What one call must give for a case and leave behind in the workspace. The
 * replay (test/helpers/replay.ts) also checks, for every call, that nothing
 * outside the workspace changed, that no temp file is left and that no byte
 * from outside is in the result.
 */
export interface ReplayOutcome {
  /** The error code of the result, `null` for success. */
  code: ErrorCode | null;
  /** Entries gone from the workspace afterwards (every other entry stays). */
  gone: readonly string[];
  /** Entries new in the workspace afterwards. */
  added: readonly string[];
  /** Files and the content each must hold afterwards (read without Paddock). */
  contents: Readonly<Record<string, string>>;
  /** On success: the file whose content the result must carry as `content`. */
  returns?: string;
  /** On success: fields the result must have. */
  result?: Readonly<Record<string, unknown>>;
}

/** A tool that takes a workspace path, and how to call it on one case. */
export interface ReplayTool {
  /** The row's label, e.g. `move_path (source)`. */
  label: string;
  /** The tool's registered name (as a model or an MCP client calls it). */
  name: string;
  /** The call's arguments, with `path` where this tool takes a path. */
  args(path: string): Record<string, unknown>;
  /** What the call gives on a symlink case, and what it leaves behind. */
  onLink(row: SymlinkCase): ReplayOutcome;
}

/** The file move_path (destination) moves; in {@link REPLAY_TREE}. */
export const MOVE_SOURCE = "src.txt";
const MOVE_SOURCE_CONTENT = "moving";
/** Where move_path (source) moves to. */
export const MOVE_DESTINATION = "moved";

/** The symlink fixture plus the file move_path (destination) moves. */
export const REPLAY_TREE: Tree = [...SYMLINK_TREE, `${MOVE_SOURCE}=${MOVE_SOURCE_CONTENT}`];

const unchanged = { [LINKED_FILE]: LINKED_CONTENT, [MOVE_SOURCE]: MOVE_SOURCE_CONTENT };

/** A refusal or a call that changes no entry: the two fixture files keep their content. */
function changesNothing(code: ErrorCode | null, returns?: string): ReplayOutcome {
  return { code, gone: [], added: [], contents: unchanged, ...(returns === undefined ? {} : { returns }) };
}

/** A write through the path: on success `row.target` holds `content`, and no entry is added or removed (links stay links). */
function writesThrough(row: SymlinkCase, content: string): ReplayOutcome {
  if (row.write !== null) return changesNothing(row.write);
  return { code: null, gone: [], added: [], contents: { ...unchanged, [row.target!]: content } };
}

/**
 * Every tool that takes a workspace path, each replayed over the hostile-path
 * table (refused before any I/O, nothing changes) and the symlink table (on
 * {@link REPLAY_TREE}) by test/path_tools_replay.test.ts on every host, and
 * through the MCP server by test/mcp_server.test.ts. A new path tool is one
 * new row. (The search tools, {@link SEARCH_TOOLS}, replay the same tables in
 * test/fs_search_tools.test.ts, where what they find is checked against read_file.)
 */
export const PATH_TOOLS: readonly ReplayTool[] = [
  {
    label: "read_file",
    name: "read_file",
    args: (path) => ({ path }),
    onLink: (row) => changesNothing(row.read, row.target ?? undefined),
  },
  {
    label: "read_file (window)",
    name: "read_file",
    args: (path) => ({ path, offset: 1, limit: 1 }),
    onLink: (row) => ({
      ...changesNothing(row.read, row.target ?? undefined),
      result: { startLine: 1, endLine: 1, totalLines: 1, hasMore: false },
    }),
  },
  {
    label: "write_file",
    name: "write_file",
    args: (path) => ({ path, content: "new" }),
    onLink: (row) => writesThrough(row, "new"),
  },
  {
    label: "edit_file",
    name: "edit_file",
    args: (path) => ({ path, old_string: LINKED_CONTENT, new_string: "edited" }),
    onLink: (row) => writesThrough(row, "edited"),
  },
  {
    label: "delete_path",
    name: "delete_path",
    args: (path) => ({ path }),
    // Deleting a link removes the link, never what it names.
    onLink: (row) =>
      row.delete !== null ? changesNothing(row.delete) : {
        code: null,
        gone: [row.entry!],
        added: [],
        contents: row.entry === LINKED_FILE ? { [MOVE_SOURCE]: MOVE_SOURCE_CONTENT } : unchanged,
      },
  },
  {
    label: "move_path (source)",
    name: "move_path",
    args: (path) => ({ source: path, destination: MOVE_DESTINATION }),
    // Moving a link moves the link; a moved file keeps its content.
    onLink: (row) =>
      row.moveFrom !== null ? changesNothing(row.moveFrom) : {
        code: null,
        gone: [row.entry!],
        added: [MOVE_DESTINATION],
        contents: row.entry === LINKED_FILE
          ? { [MOVE_SOURCE]: MOVE_SOURCE_CONTENT, [MOVE_DESTINATION]: LINKED_CONTENT }
          : unchanged,
      },
  },
  {
    label: "move_path (destination)",
    name: "move_path",
    args: (path) => ({ source: MOVE_SOURCE, destination: path }),
    onLink: (row) => changesNothing(row.moveOnto),
  },
  {
    label: "create_directory",
    name: "create_directory",
    args: (path) => ({ path }),
    // Every case a write may follow names an existing file: refused as ALREADY_EXISTS.
    onLink: (row) => changesNothing(row.write ?? "ALREADY_EXISTS"),
  },
  {
    label: "read_media_file",
    name: "read_media_file",
    args: (path) => ({ path }),
    // Followed as read_file follows; the fixture's files are text, so no media type is found in them.
    onLink: (row) => changesNothing(row.read ?? (leadsToFolder(row) ? "NOT_A_FILE" : "UNSUPPORTED_MEDIA_TYPE")),
  },
  {
    label: "get_file_info",
    name: "get_file_info",
    args: (path) => ({ path }),
    // Followed as read_file follows, files and folders alike.
    onLink: (row) => changesNothing(row.read),
  },
  {
    label: "directory_tree",
    name: "directory_tree",
    args: (path) => ({ path }),
    onLink: (row) => changesNothing(row.read ?? (leadsToFolder(row) ? null : "NOT_A_DIRECTORY")),
  },
];

/** Whether the case's path leads to a folder of the fixture (in the tree notation a folder ends in `/`). */
function leadsToFolder(row: SymlinkCase): boolean {
  return row.target !== null && (row.target === "" || SYMLINK_TREE.includes(`${row.target}/`));
}

/**
 * The tools that search or list below a path: each replays the hostile-path
 * table and the symlink table in test/fs_search_tools.test.ts on every host,
 * where what a call finds through a link is checked against what read_file
 * sees through the same path.
 */
export const SEARCH_TOOLS: readonly { name: string; args(path: string): Record<string, unknown> }[] = [
  { name: "list_directory", args: (path) => ({ path }) },
  { name: "find_files", args: (path) => ({ pattern: "**", path }) },
  { name: "grep", args: (path) => ({ pattern: ".", path }) },
  { name: "directory_tree", args: (path) => ({ path }) },
];
