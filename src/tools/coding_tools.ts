import { DEFAULT_PROTECTED_PATHS } from "../core/fs/protected_paths.ts";
import { declareProtectedPaths } from "../core/fs/change_policy.ts";
import { type ApplyPatchToolOptions, createApplyPatchTool } from "./apply_patch.ts";
import { createDirectoryTool, type CreateDirectoryToolOptions } from "./create_directory.ts";
import { createDeleteTool, type DeleteToolOptions } from "./delete_path.ts";
import { createDirectoryTreeTool, type DirectoryTreeToolOptions } from "./directory_tree.ts";
import { createEditTool, type EditToolOptions } from "./edit_file.ts";
import { createFindFilesTool, type FindFilesToolOptions } from "./find_files.ts";
import { createFileInfoTool, type FileInfoToolOptions } from "./get_file_info.ts";
import { createGrepTool, type GrepToolOptions } from "./grep.ts";
import { createListDirectoryTool, type ListDirectoryToolOptions } from "./list_directory.ts";
import { createMoveTool, type MoveToolOptions } from "./move_path.ts";
import { createNodeProcessTool, type NodeProcessToolOptions } from "./node_process.ts";
import { createProcessTools, type ProcessToolsOptions } from "./process_tools.ts";
import { createReadTool, type ReadToolOptions } from "./read_file.ts";
import { createReadMediaFileTool, type ReadMediaFileToolOptions } from "./read_media_file.ts";
import { createShellTool, type ShellToolOptions } from "./shell.ts";
import type { AnyTool } from "./tool.ts";
import { deferredRoot, type WorkspaceSource } from "./workspace_source.ts";
import { createWriteTool, type WriteToolOptions } from "./write_file.ts";
import { createUndoLastChangeTool, type UndoLastChangeToolOptions } from "./undo_last_change.ts";
import { withRouteNote } from "./route_note.ts";

// The built-in tools whose changes the change journal records (see undo_last_change).
const FILE_CHANGING_TOOLS = new Set([
  "write_file",
  "edit_file",
  "delete_path",
  "move_path",
  "create_directory",
  "apply_patch",
]);

/** Per-tool options of {@link createCodingTools}; `false` leaves a tool out. */
export interface CodingToolsOptions {
  /** Options of `read_file`. @default {} */
  read?: ReadToolOptions;
  /** Options of `write_file`, or `false` to leave it out. @default {} */
  write?: WriteToolOptions | false;
  /** Options of `node_process`, or `false` to leave it out. @default {} */
  nodeProcess?: NodeProcessToolOptions | false;
  /** Options of `edit_file`, or `false` to leave it out. @default {} */
  edit?: EditToolOptions | false;
  /** Options of `apply_patch`, or `false` to leave it out. @default {} */
  applyPatch?: ApplyPatchToolOptions | false;
  /** Options of `delete_path`, or `false` to leave it out. @default {} */
  delete?: DeleteToolOptions | false;
  /** Options of `move_path`, or `false` to leave it out. @default {} */
  move?: MoveToolOptions | false;
  /** Options of `create_directory`, or `false` to leave it out. @default {} */
  createDirectory?: CreateDirectoryToolOptions | false;
  /**
   * Options of `shell`; the tool is included only when this is given. Off by
   * default because a shell is not confined by the workspace's path checks:
   * a command can read and write anything the process can.
   * @default undefined (no shell tool)
   */
  shell?: ShellToolOptions;
  /** Options of `undo_last_change`, or `false` to leave it out; included only with a tool that changes files. @default {} */
  undoLastChange?: UndoLastChangeToolOptions | false;
  /** Options of `list_directory`, or `false` to leave it out. @default {} */
  listDirectory?: ListDirectoryToolOptions | false;
  /** Options of `find_files`, or `false` to leave it out. @default {} */
  findFiles?: FindFilesToolOptions | false;
  /** Options of `grep`, or `false` to leave it out. @default {} */
  grep?: GrepToolOptions | false;
  /** Options of `read_media_file`, or `false` to leave it out. @default {} */
  readMedia?: ReadMediaFileToolOptions | false;
  /** Options of `directory_tree`, or `false` to leave it out. @default {} */
  directoryTree?: DirectoryTreeToolOptions | false;
  /** Options of `get_file_info`, or `false` to leave it out. @default {} */
  fileInfo?: FileInfoToolOptions | false;
  /**
   * Options of `process_output`, `process_input`, `process_kill` and
   * `process_list` (background processes), or `false` to leave them out.
   * Included only with `shell` or `node_process`. @default {}
   */
  processTools?: ProcessToolsOptions | false;
  /**
   * Paths the write tools (`write_file`, `edit_file`, `apply_patch`, `delete_path`,
   * `move_path`, `create_directory`) refuse to change (`PROTECTED_PATH`), and
   * `node_process` may not write (its runtime's write list, its sandbox): the
   * files that make allowed commands run code. `true` is
   * `DEFAULT_PROTECTED_PATHS`; a list is declared for the workspace
   * (`declareProtectedPaths`), so tools made later over the same folder refuse
   * it too; `false` is the explicit opt-out for these tools (and the shell
   * declares nothing). A tool's own `protectedPaths` wins.
   * @default what the `shell` declares: `DEFAULT_PROTECTED_PATHS` with an `allow` list, else nothing
   */
  protectedPaths?: readonly string[] | boolean;
  /**
   * Paths no tool reads, lists, finds, searches, shows, moves or overwrites
   * (`PATH_PRIVATE`; see `WorkspaceOptions.privatePaths`). For a root path the
   * workspace is opened with them; a workspace object must have been opened
   * with them already (they belong to the workspace, not to a tool), else this
   * throws.
   * @default [] (or the workspace's own)
   */
  privatePaths?: readonly string[];
  /**
   * The stale-write guard of `write_file`, `edit_file`, `apply_patch`,
   * `delete_path` and `move_path` (the file it replaces): an existing file
   * must have been read in this session (`FILE_NOT_READ`) and be unchanged
   * since (`FILE_CHANGED_SINCE_READ`) before they change or remove it; a file
   * they wrote counts as read. A tool's own `staleWriteGuard` wins.
   * @default true
   */
  staleWriteGuard?: boolean;
}

/**
 * Creates the full set of coding tools over one workspace.
 *
 * @param source The workspace, or its root folder (opened once, at first use, for all the tools; one that does not exist is refused now).
 * @param options Per-tool options.
 * @returns The tools, ready for a {@link ToolRegistry}.
 * @throws {WorkspaceError} `WORKSPACE_ROOT_INVALID` when `source` is a root path that does not exist or is not a folder.
 *
 * @example Handing the tools to a registry
 * ```ts
 * import { createCodingTools, openWorkspace, ToolRegistry } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const registry = new ToolRegistry(createCodingTools(workspace));
 * ```
 */
export function createCodingTools(source: WorkspaceSource, options: CodingToolsOptions = {}): AnyTool[] {
  // A root path is opened once, on first use, and shared by every tool.
  const privatePaths = options.privatePaths ?? [];
  const workspace = typeof source === "string" ? deferredRoot(source, { privatePaths }) : source;
  if (typeof source !== "string") {
    const missing = privatePaths.filter((pattern) => !source.privatePaths.includes(pattern));
    if (missing.length > 0) {
      throw new TypeError(
        `privatePaths ${
          JSON.stringify(missing)
        } belong to the workspace: open it with openWorkspace(root, { privatePaths })`,
      );
    }
  }
  // With an allow list, a write to .git/config or package.json would turn an allowed command into any command.
  // The protection is declared on the workspace (change_policy.ts decides for every tool over its folder);
  // only the explicit opt-out is handed to the tools themselves.
  const asked = options.protectedPaths;
  const list = asked === true
    ? DEFAULT_PROTECTED_PATHS
    : asked === false
    ? []
    : asked ?? options.shell?.protectedPaths ?? (options.shell?.allow !== undefined ? DEFAULT_PROTECTED_PATHS : []);
  declareProtectedPaths(workspace, list); // before node_process is made, so its description says so
  const guard = asked === false ? { protectedPaths: [] } : {};
  const shellOptions = options.shell === undefined ? undefined : { protectedPaths: list, ...options.shell };
  // What the model last saw of each file is remembered per workspace, so every tool over it shares it.
  const stale = { staleWriteGuard: options.staleWriteGuard ?? true };
  const tools: AnyTool[] = [createReadTool(workspace, options.read)];
  if (options.write !== false) tools.push(createWriteTool(workspace, { ...guard, ...stale, ...options.write }));
  if (options.nodeProcess !== false) tools.push(createNodeProcessTool(workspace, { ...guard, ...options.nodeProcess }));
  if (options.edit !== false) tools.push(createEditTool(workspace, { ...guard, ...stale, ...options.edit }));
  if (options.applyPatch !== false) {
    tools.push(createApplyPatchTool(workspace, { ...guard, ...stale, ...options.applyPatch }));
  }
  if (options.delete !== false) tools.push(createDeleteTool(workspace, { ...guard, ...stale, ...options.delete }));
  if (options.move !== false) tools.push(createMoveTool(workspace, { ...guard, ...stale, ...options.move }));
  if (options.createDirectory !== false) {
    tools.push(createDirectoryTool(workspace, { ...guard, ...options.createDirectory }));
  }
  // Undo takes back what the file tools and commands journaled.
  const changesFiles = tools.some((tool) => FILE_CHANGING_TOOLS.has(tool.name));
  if (options.undoLastChange !== false && changesFiles) {
    tools.push(createUndoLastChangeTool(workspace, options.undoLastChange));
  }
  if (options.listDirectory !== false) tools.push(createListDirectoryTool(workspace, options.listDirectory));
  if (options.findFiles !== false) tools.push(createFindFilesTool(workspace, options.findFiles));
  if (options.grep !== false) tools.push(createGrepTool(workspace, options.grep));
  if (options.readMedia !== false) tools.push(createReadMediaFileTool(workspace, options.readMedia));
  if (options.directoryTree !== false) tools.push(createDirectoryTreeTool(workspace, options.directoryTree));
  if (options.fileInfo !== false) tools.push(createFileInfoTool(workspace, options.fileInfo));
  if (shellOptions !== undefined) tools.push(createShellTool(workspace, shellOptions));
  if (options.processTools !== false && (options.shell !== undefined || options.nodeProcess !== false)) {
    tools.push(...createProcessTools(workspace, options.processTools));
  }
  return withRouteNote(workspace, tools);
}

/**
 * Creates the read-only tools over one workspace: nothing they do changes a
 * file or starts a process.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Per-tool options.
 * @returns The read-only tools.
 *
 * @example A reviewer that can look but not touch
 * ```ts
 * import { createReadOnlyTools, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry(createReadOnlyTools("./project"));
 * registry.definitions().map((tool) => tool.name); // ["read_file", "list_directory", "find_files", "grep", …]
 * ```
 */
export function createReadOnlyTools(workspace: WorkspaceSource, options: CodingToolsOptions = {}): AnyTool[] {
  return createCodingTools(workspace, { ...options, processTools: false }).filter((tool) => tool.readOnly);
}
