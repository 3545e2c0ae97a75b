import type { ErrorCode } from "./errors.ts";
import {
  MAX_PATH_BYTES,
  MAX_SEGMENT_BYTES,
  MAX_WALK_DEPTH,
  NODE_PROCESS_MAX_ARGUMENT_BYTES,
  NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES,
} from "./limits.ts";

// A limit as the hints write it: 4096 as "4,096".
function shown(limit: number): string {
  return String(limit).replace(/\B(?=(\d{3})+$)/g, ",");
}

/**
 * What a model can do next, for every {@link ErrorCode}: the hint a tool
 * result carries when the error itself brings none (`toErrorBody`). A throw
 * site that knows more (the limit it met, the names near a missing one, the
 * relative form of an absolute path) gives its own hint, which wins. The
 * table is a `Record` over the whole union, so a new code does not compile
 * without its hint; `test/error_hints.test.ts` holds it equal to the error
 * table of docs/tools.md.
 */
export const ERROR_HINTS: Readonly<Record<ErrorCode, string>> = Object.freeze({
  // Bad input, found before any side effect.
  INVALID_ARGUMENTS:
    "send one JSON object with exactly the properties the tool's input schema lists, each of its type; fix the one named and call again",
  INVALID_JSON:
    'send the arguments as one JSON object, e.g. {"path": "a.txt"}: double quotes around names and strings, no trailing comma, a newline inside a string written \\n',
  INVALID_RELATIVE_PATH:
    "give the path relative to the workspace root, with '/' between names, e.g. 'src/index.ts': no leading '/', drive, '~' or '..'",
  PATH_TOO_LONG: `use a shorter path: at most ${shown(MAX_PATH_BYTES)} bytes in all and ${
    shown(MAX_SEGMENT_BYTES)
  } bytes per name`,
  CONTENT_TOO_LARGE:
    "send less per call: split the text into parts under the tool's limit and send them in several calls",
  SOURCE_TOO_LARGE:
    "write the script to a file with write_file and run a short node_process source that require()s it, or split it",
  TOO_MANY_ARGUMENTS: "pass at most 32 arguments; put the rest in a file the script reads",
  ARGUMENT_TOO_LARGE: `keep each argument under ${
    shown(NODE_PROCESS_MAX_ARGUMENT_BYTES)
  } bytes; put longer data in a file and pass its path`,
  ARGUMENTS_TOO_LARGE: `keep all arguments under ${
    shown(NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES)
  } bytes together; put the data in a file and pass its path`,
  COMMAND_LINE_TOO_LONG: "shorten the command: write a long script to a file with write_file and run that file",
  INVALID_PATTERN:
    "fix the pattern: a glob relative to the workspace (no leading '/', no '..'), or a regular expression without back-references or look-around; literal: true searches the text as written",
  // Registry.
  TOOL_ARGUMENTS_INVALID: "fix the arguments as the message's code says and call again; nothing was changed",
  TOOL_NOT_FOUND: "call one of the tools offered to you, by its exact name",
  TOOL_CALL_DENIED: "do not retry the same call; ask the user how to proceed",
  TOOL_APPROVAL_REQUIRED: "this call was not run; ask the user to approve it",
  APPROVAL_UNAVAILABLE:
    "this call needs a person's approval and this client cannot ask for it; ask the user to run it, or use another tool",
  // MCP server.
  ROOT_NOT_SERVED: "use a path in one of the folders the client shares (its roots)",
  // Agent loop.
  AGENT_MAX_STEPS: "the run stopped at its step limit; sum up what was done and what is left, or ask to continue",
  // Workspace and filesystem.
  WORKSPACE_ROOT_CHANGED: "the workspace folder was deleted, replaced or moved; open the workspace again",
  WORKSPACE_ROOT_INVALID:
    "the workspace folder is missing or is a file: the program's author must pass an existing folder (no path change fixes it)",
  PATH_ESCAPES_WORKSPACE:
    "a link on this path leads outside the workspace, which no tool can reach; use a path that stays inside",
  PATH_CHANGED: "the path changed while the call ran (something else is changing it); call again",
  PATH_TOO_DEEP: `use a path with fewer folder levels (at most ${MAX_WALK_DEPTH} below the root)`,
  SYMLINK_LOOP: "the links on this path form a loop; use the path of the real file or folder instead",
  DANGLING_SYMLINK:
    "a link on this path points to nothing and is never followed; name its target's real path, or delete the link with delete_path",
  NOT_FOUND:
    "check the name: list_directory shows a folder's entries, find_files finds a file by name anywhere in the workspace",
  NOT_A_FILE: "this is a folder (or a device or socket): use list_directory for a folder, or name a file inside it",
  NOT_A_DIRECTORY: "this is a file, not a folder: use read_file for it, or name its parent folder",
  ALREADY_EXISTS: "the name is taken: choose another name, or delete or move the existing entry first",
  DIRECTORY_NOT_EMPTY: "the folder is not empty: pass recursive: true to delete it with everything inside",
  PERMISSION_DENIED:
    "the operating system refuses access to this path; use another path or ask the user to grant access",
  FILE_TOO_LARGE:
    "read it in parts: read_file with offset and limit (lines), or grep for the lines you need; get_file_info gives its size",
  INVALID_UTF8:
    "the file is not UTF-8 text (binary?): read an image or audio file with read_media_file, get_file_info gives its size and kind",
  UNSUPPORTED_MEDIA_TYPE:
    "read_media_file reads images and audio only: read text with read_file, and use get_file_info for any other file",
  // Text files.
  BINARY_FILE:
    "the file is not text: read an image or audio file with read_media_file, get_file_info gives its size and kind",
  ENCODING_UNKNOWN:
    "pass encoding (e.g. utf-8, utf-16le, windows-1252) to read_file or edit_file to say how to read the file",
  UNREPRESENTABLE_CHARACTER:
    "use characters the file's encoding holds (e.g. ASCII), or rewrite the whole file as utf-8 with write_file",
  IO_ERROR: "the filesystem failed on this call; call again once, and tell the user if it fails again",
  // File editing and moving.
  EDIT_NOT_FOUND:
    "read the file again with read_file and copy old_string exactly from it, with enough lines around it to be unique",
  EDIT_NOT_UNIQUE: "add surrounding lines to old_string until it matches once, or pass replace_all: true",
  WORKSPACE_ROOT_PROTECTED: "name a file or folder inside the workspace, not the workspace folder itself",
  MOVE_INTO_ITSELF: "move the folder to a place outside itself",
  TOO_MANY_ENTRIES: "the folder holds too many entries for one call: act on its subfolders one at a time",
  PATCH_INVALID:
    "write the patch as '*** Begin Patch', then '*** Update File: path' / '*** Add File: path' / '*** Delete File: path' sections, then '*** End Patch'",
  PATCH_HUNK_NOT_FOUND:
    "read the file again and copy the hunk's context and '-' lines exactly from it, or use edit_file for this change",
  PATCH_FILE_EXISTS:
    "the file exists: change it with '*** Update File:' instead of '*** Add File:', or pick another name",
  // Stale-write guard.
  FILE_CHANGED_SINCE_READ: "the file changed since you read it: read it again with read_file, then make the change",
  FILE_NOT_READ: "read the file with read_file first, then make the change",
  PROTECTED_PATH:
    "this path is protected (it makes allowed commands run code): leave it as it is, or ask the user to change it",
  PATH_PRIVATE:
    "the workspace's owner made this path private: no tool reads, lists or changes it; work without it or ask the user for what you need",
  // Checkpoints.
  CHANGED_SINCE_CHECKPOINT:
    "someone else changed the file since the tool did; read it to see its state, and ask the user before replacing it",
  NOT_RESTORABLE: "the earlier content was not kept; restore the file by hand (write_file), or ask the user",
  CHANGES_INCOMPLETE:
    "a command changed files that were not captured before it ran; pass force: true to put back what was captured, or put the rest back by hand",
  CHECKPOINT_UNKNOWN: "use a checkpoint taken on this same workspace",
  NOTHING_TO_UNDO: "no change of this session is left to undo; nothing was changed",
  // Processes.
  NODE_PROCESS_TIMEOUT:
    "the script ran past its time limit and was stopped: make it do less per call, or run it with background: true and read it with process_output",
  NODE_PROCESS_PERMISSIONS_UNAVAILABLE:
    'this runtime cannot confine the script to the workspace; run it without permissions: "workspace" only if the user agrees',
  SPAWN_FAILED: "the program could not be started: check its name, or ask the user whether it is installed",
  SHELL_TIMEOUT:
    "the command ran past its time limit and was killed: pass a larger timeout_ms, or run it with background: true and read it with process_output",
  TOO_MANY_BACKGROUND_PROCESSES:
    "stop a background process you no longer need with process_kill (process_list shows them), then start again",
  PROCESS_NOT_FOUND: "use an id that process_list shows; a process whose last output was read is gone",
  PROCESS_NOT_RUNNING: "the process has ended: read its last output with process_output, or start it again",
  PROCESS_INPUT_UNSUPPORTED: "this shell runs commands to the end without input: pass the input in the command itself",
  PROCESS_INPUT_BLOCKED:
    "the process is not reading its stdin: read process_output to see what it waits for, then send again, or end it with process_kill",
  COMMAND_FAILED: "the command failed: read its stderr in the message, fix the cause, and run it again",
  OUTPUT_TOO_LARGE:
    "the command printed too much: filter its output (grep, head, tail) or write it to a file and read parts",
  SHELL_COMMAND_DENIED: "this command is denied by the shell policy; do the task another way, or ask the user",
  SHELL_COMMAND_NOT_ALLOWED: "run one of the commands the allow list lets through, or ask the user to run this one",
  GIT_REPOSITORY_UNSAFE:
    "this git repository points outside the workspace or its config runs programs; ask the user to fix it before running git",
  // Sandboxes.
  SANDBOX_UNAVAILABLE: "no command can run here (the sandbox is unavailable); use the file tools, or ask the user",
  SANDBOX_ENGINE_UNSUPPORTED: "the container engine cannot isolate commands here; use the file tools, or ask the user",
  SANDBOX_EGRESS_UNSUPPORTED:
    "the network limits asked for cannot be enforced here; run without network access, or ask the user",
  INTERNAL_ERROR: "the tool failed unexpectedly (a bug): do not retry the same call; tell the user what you were doing",
});
