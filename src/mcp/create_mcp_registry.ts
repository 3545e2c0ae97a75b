/**
 * The tool registry the MCP server offers.
 *
 * @module
 */
import { DEFAULT_PROTECTED_PATHS } from "../core/fs/protected_paths.ts";
import type { Workspace } from "../core/fs/workspace.ts";
import { ToolRegistry } from "../registry/tool_registry.ts";
import { SandboxShell } from "../sandbox/sandbox_shell.ts";
import { createCodingTools, createReadOnlyTools } from "../tools/coding_tools.ts";
import { createReadTool } from "../tools/read_file.ts";
import { createShellTool } from "../tools/shell.ts";
import { createProcessTools } from "../tools/process_tools.ts";
import { backgroundProcessesOf } from "../core/process/background_processes.ts";
import type { AnyTool } from "../tools/tool.ts";
import { createListAllowedDirectoriesTool } from "./list_allowed_directories.ts";
import { createReadMultipleFilesTool } from "./read_multiple_files.ts";
import { nameRoots, RootSet } from "./root_set.ts";
import type { PaddockMcpServerOptions } from "./server_types.ts";
import { SHELL_OFF, shellToolOptions } from "./shell_mode.ts";

/**
 * Builds the tool registry the MCP server offers: the coding tools (or the
 * read-only ones), without `node_process` when turned off, plus `shell` per
 * its policy, the server's own `read_multiple_files` and
 * `list_allowed_directories`, and any extra tools (only read-only ones in
 * read-only mode). New tools added to {@link createCodingTools} appear here
 * without change.
 *
 * @param workspace The confined workspace.
 * @param options What to offer.
 * @returns The registry.
 *
 * @example The tools a server with an allowlisted shell offers
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { createMcpRegistry } from "@paddock/tools/mcp";
 * const workspace = await openWorkspace("./project");
 * const registry = createMcpRegistry(workspace, { shell: { mode: "allow", patterns: ["npm test"] }, nodeProcess: false });
 * registry.definitions().map((tool) => tool.name); // […, "shell", "read_multiple_files", "list_allowed_directories"]
 * ```
 */
export function createMcpRegistry(
  workspace: Workspace,
  options: Omit<PaddockMcpServerOptions, "root" | "roots"> = {},
): ToolRegistry {
  return registryOf(workspace, options, new RootSet(nameRoots([workspace])));
}

/**
 * {@link createMcpRegistry} over the default root of `roots`: `read_multiple_files` and
 * `list_allowed_directories` see every root served.
 *
 * @param workspace The confined workspace of the default root.
 * @param options What to offer.
 * @param roots Every root served.
 * @param warmUpAfter When grep's warm-up may begin (the handshake). @default undefined (at once)
 * @returns The registry.
 */
export function registryOf(
  workspace: Workspace,
  options: Omit<PaddockMcpServerOptions, "root" | "roots">,
  roots: RootSet,
  warmUpAfter?: Promise<unknown>,
): ToolRegistry {
  const extra = options.tools ?? [];
  // The reference filesystem server's batch read, composed from read_file; each path routed to its root.
  const reads = new Map(roots.roots.map((root) => [root, createReadTool(root.workspace)]));
  const readMany = createReadMultipleFilesTool(workspace, {}, async (path, signal) => {
    const routed = roots.route(path);
    const read = await reads.get(routed.root)!.execute({ path: routed.path }, { signal });
    return { ...read, path: roots.display(routed.root, read.path) };
  });
  const listRoots = createListAllowedDirectoriesTool(roots);
  if (options.readOnly === true) {
    const readOnly = createReadOnlyTools(workspace, {
      nodeProcess: false,
      grep: { warmUp: options.warmUp ?? false, warmUpAfter },
    });
    return new ToolRegistry([...readOnly, readMany, listRoots, ...extra.filter((tool) => tool.readOnly)]);
  }
  const shell = shellToolOptions(options.shell ?? SHELL_OFF);
  const sandbox = options.sandbox;
  // Bun has no permission model: in the sandbox, the sandbox alone confines the script.
  const timeout = options.nodeProcessTimeoutMs === undefined ? {} : { timeoutMs: options.nodeProcessTimeoutMs };
  const nodeProcess = sandbox === undefined ? timeout : {
    ...timeout,
    sandbox,
    permissions: workspace.host.runtime === "bun" ? "inherit" as const : "workspace" as const,
  };
  const tools: AnyTool[] = createCodingTools(workspace, {
    nodeProcess: options.nodeProcess === false ? false : nodeProcess,
    ...(shell === undefined || sandbox !== undefined ? {} : { shell }),
    // With an allow list the defaults are declared for the workspace; without one nothing is (no opt-out).
    ...(shell?.allow !== undefined ? { protectedPaths: true } : {}),
    staleWriteGuard: options.staleWriteGuard ?? true,
    grep: { warmUp: options.warmUp ?? false, warmUpAfter },
  });
  if (shell !== undefined && sandbox !== undefined) {
    // With an allow list, the files that decide what allowed commands run are read-only inside too.
    const protectedPaths = shell.allow === undefined ? [] : DEFAULT_PROTECTED_PATHS;
    const sandboxShell = new SandboxShell(sandbox, {
      cwd: workspace.root,
      protectedPaths,
      privatePaths: workspace.privatePaths,
    });
    // Its background commands live in the workspace's table, where the process tools look.
    tools.push(
      createShellTool(sandboxShell, { ...shell, processes: backgroundProcessesOf(workspace), journal: workspace }),
    );
    if (!tools.some((tool) => tool.name === "process_output")) tools.push(...createProcessTools(workspace));
  }
  return new ToolRegistry([...tools, readMany, listRoots, ...extra]);
}
