import { Workspace } from "../core/fs/workspace.ts";
import { type CodingToolsOptions, createCodingTools } from "../tools/coding_tools.ts";
import type { AnyTool } from "../tools/tool.ts";
import { DeferredWorkspace, type WorkspaceSource } from "../tools/workspace_source.ts";
import { createProviderFsTools } from "./create_provider_fs_tools.ts";
import { type FsProvider, isFsProvider } from "./fs_provider.ts";

/** Options of {@link createFsTools}: each tool's options (`false` leaves it out), plus two switches. */
export interface FsToolsOptions extends Omit<CodingToolsOptions, "nodeProcess" | "shell"> {
  /** Only the tools that change nothing (`read_file`, `list_directory`, `find_files`, `grep`). @default false */
  readOnly?: boolean;
  /** Every tool that changes files needs a person's approval (checked by the call layer). @default false */
  needsApproval?: boolean;
}

/**
 * The file tools of the seed documents: every coding tool that touches only
 * files — `read_file`, `write_file`, `edit_file`, `delete_path`, `move_path`,
 * `create_directory`, `list_directory`, `find_files`, `grep` — without
 * `node_process` and `shell` (and without `apply_patch` and the stale-write
 * guard, unless `applyPatch` or `staleWriteGuard: true` asks). Over a workspace (a `NodeWorkspace`, a
 * `MemoryWorkspace`, an opened `Workspace` or a root folder) they are
 * Paddock's confined tools; over a seed-style {@link FsProvider} they are the
 * same tools (names, schemas, validation, results) on that provider, except
 * `find_files`, `grep` and `move_path`, which need a workspace.
 *
 * @param source Where the files are.
 * @param options Per-tool options, `readOnly` and `needsApproval`.
 * @returns The tools.
 *
 * @example
 * ```ts
 * import { createFsTools, NodeWorkspace, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry();
 * registry.registerMany(createFsTools(new NodeWorkspace({ root: "./project" }), { readOnly: true }));
 * ```
 */
export function createFsTools(source: WorkspaceSource | FsProvider, options: FsToolsOptions = {}): AnyTool[] {
  const { readOnly = false, needsApproval = false, ...perTool } = options;
  const tools = typeof source === "string" || source instanceof Workspace || source instanceof DeferredWorkspace
    // The seeds' set and contract: no apply_patch and no stale-write guard unless asked for.
    ? createCodingTools(source, { applyPatch: false, staleWriteGuard: false, ...perTool, nodeProcess: false })
    : isFsProvider(source)
    ? createProviderFsTools(source, perTool)
    : invalidSource();
  return tools
    .filter((tool) => !readOnly || tool.readOnly)
    .map((tool) => (needsApproval && !tool.readOnly ? { ...tool, needsApproval: true } : tool));
}

function invalidSource(): never {
  throw new TypeError(
    "Cannot create the fs tools: expected a workspace, a root folder or an FsProvider (readFile, writeFile, stat, readdir, mkdir, rm)",
  );
}
