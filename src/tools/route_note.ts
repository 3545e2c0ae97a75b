import { Workspace } from "../core/fs/workspace.ts";
import type { AnyTool } from "./tool.ts";
import type { WorkspaceSource } from "./workspace_source.ts";

/** What a file tool's description adds on the `paths` route (`Workspace.route`). */
export const PATHS_ROUTE_NOTE =
  "Confinement here is the fallback path walk (route: paths), which is not race-free: another process swapping a folder for a link during a call can get around it.";

// Tools that name no workspace path: the route does not bear on them.
const NOT_FILE_TOOLS = new Set([
  "shell",
  "node_process",
  "process_output",
  "process_input",
  "process_kill",
  "process_list",
]);

/**
 * Says in each file tool's description when its workspace walks paths (the
 * fallback route; on Deno anything short of `--allow-all`), so that the model
 * and the person reading the tool list see it. A workspace given as a root
 * path is opened at first use, after the descriptions were made: its route is
 * `Workspace.route` once it is open.
 *
 * @param source The tools' workspace.
 * @param tools The tools made over it.
 * @returns The same tools, the file tools' descriptions noted on the `paths` route.
 *
 * @example The note on a workspace forced onto the fallback route
 * ```ts
 * import { createCodingTools, openWorkspace } from "@paddock/tools";
 * const workspace = await openWorkspace(".", { confinement: "paths" });
 * const read = createCodingTools(workspace).find((tool) => tool.name === "read_file");
 * console.log(workspace.route, read?.description.includes("route: paths")); // "paths" true
 * ```
 */
export function withRouteNote(source: WorkspaceSource, tools: AnyTool[]): AnyTool[] {
  if (!(source instanceof Workspace) || source.route !== "paths") return tools;
  return tools.map((tool) =>
    NOT_FILE_TOOLS.has(tool.name) ? tool : { ...tool, description: `${tool.description} ${PATHS_ROUTE_NOTE}` }
  );
}
