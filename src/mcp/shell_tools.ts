import type { Workspace } from "../core/workspace.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { ShellPolicy } from "./shell_policy.ts";

/**
 * The `shell` tool for a {@link ShellPolicy}, or no tool for `off`.
 *
 * MERGE NOTE (for the lead): the `shell` tool lives on the `shell` branch.
 * Once it is merged, replace the body with
 * `createShellTool(workspace, { needsApproval: policy.mode === "ask", allow: policy.mode === "allow" ? policy.patterns : undefined })`
 * (adjusting to its final options). Until then a policy other than `off`
 * is refused, so the server never pretends to offer a tool it lacks.
 *
 * @param workspace The workspace the commands run in.
 * @param policy How the shell is offered.
 * @returns The tools to add to the registry.
 * @throws {Error} When the policy asks for a shell this build does not have.
 */
export function createShellToolsForPolicy(workspace: Workspace, policy: ShellPolicy): AnyTool[] {
  void workspace;
  if (policy.mode === "off") return [];
  throw new Error("Cannot offer the shell tool: this build has no shell tool");
}
