import { createFindFilesTool, type FindFilesToolOptions } from "./find_files.ts";
import { createGrepTool, type GrepToolOptions } from "./grep.ts";
import { createListDirectoryTool, type ListDirectoryToolOptions } from "./list_directory.ts";
import { createNodeProcessTool, type NodeProcessToolOptions } from "./node_process.ts";
import { createReadTool, type ReadToolOptions } from "./read_file.ts";
import type { AnyTool, WorkspaceSource } from "./tool.ts";
import { createWriteTool, type WriteToolOptions } from "./write_file.ts";

/** Per-tool options of {@link createCodingTools}; `false` leaves a tool out. */
export interface CodingToolsOptions {
  /** Options of `read_file`. @default {} */
  read?: ReadToolOptions;
  /** Options of `write_file`, or `false` to leave it out. @default {} */
  write?: WriteToolOptions | false;
  /** Options of `node_process`, or `false` to leave it out. @default {} */
  nodeProcess?: NodeProcessToolOptions | false;
  /** Options of `list_directory`, or `false` to leave it out. @default {} */
  listDirectory?: ListDirectoryToolOptions | false;
  /** Options of `find_files`, or `false` to leave it out. @default {} */
  findFiles?: FindFilesToolOptions | false;
  /** Options of `grep`, or `false` to leave it out. @default {} */
  grep?: GrepToolOptions | false;
}

/**
 * Creates the full set of coding tools over one workspace.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Per-tool options.
 * @returns The tools, ready for a {@link ToolRegistry}.
 *
 * @example Handing the tools to a registry
 * ```ts
 * import { createCodingTools, openWorkspace, ToolRegistry } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const registry = new ToolRegistry(createCodingTools(workspace));
 * ```
 */
export function createCodingTools(workspace: WorkspaceSource, options: CodingToolsOptions = {}): AnyTool[] {
  const tools: AnyTool[] = [createReadTool(workspace, options.read)];
  if (options.write !== false) tools.push(createWriteTool(workspace, options.write));
  if (options.nodeProcess !== false) tools.push(createNodeProcessTool(workspace, options.nodeProcess));
  if (options.listDirectory !== false) tools.push(createListDirectoryTool(workspace, options.listDirectory));
  if (options.findFiles !== false) tools.push(createFindFilesTool(workspace, options.findFiles));
  if (options.grep !== false) tools.push(createGrepTool(workspace, options.grep));
  return tools;
}

/**
 * Creates the read-only tools over one workspace: nothing they do changes a
 * file or starts a process.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Per-tool options.
 * @returns The read-only tools.
 */
export function createReadOnlyTools(workspace: WorkspaceSource, options: CodingToolsOptions = {}): AnyTool[] {
  return createCodingTools(workspace, options).filter((tool) => tool.readOnly);
}
