import type { ToolCallResult } from "../registry/execute_tool_call.ts";
import type { McpRoot } from "./root_set.ts";
import { relativeInside, relativePathHint } from "../core/path/relative_inside.ts";

/**
 * An MCP client's model often sends absolute paths (other filesystem servers
 * take them). When a call was refused as `INVALID_RELATIVE_PATH` and one of
 * its string arguments is an absolute path inside the workspace root, the
 * hint names the relative form to use instead. Paths outside the root keep
 * the generic hint (the root is not revealed for them).
 *
 * @param result The call's result.
 * @param args The call's arguments.
 * @param roots The served roots (their canonical folders, POSIX or Windows form); a path in a root other
 *   than the default gets its `NAME:` form. A string is one default root.
 * @returns The result, with the hint rewritten when it applies.
 */
export function withRelativePathHint(
  result: ToolCallResult,
  args: unknown,
  roots: string | readonly Pick<McpRoot, "name" | "isDefault" | "workspace">[],
): ToolCallResult {
  const folders = typeof roots === "string"
    ? [{ root: roots, prefix: "" }]
    : roots.map((root) => ({ root: root.workspace.root, prefix: root.isDefault ? "" : `${root.name}:` }));
  if (!result.isError || typeof args !== "object" || args === null) return result;
  const body = JSON.parse(result.content) as { error?: { message?: string; hint?: string } };
  if (body.error?.message !== "INVALID_RELATIVE_PATH") return result;
  for (const value of Object.values(args)) {
    if (typeof value !== "string") continue;
    for (const { root, prefix } of folders) {
      const relative = relativeInside(value, root);
      if (relative === undefined) continue;
      body.error.hint = prefix === ""
        ? relativePathHint(relative)
        : `use the path '${prefix}${relative === "." ? "" : relative}' (paths in that folder start with '${prefix}')`;
      return { ...result, content: JSON.stringify(body) };
    }
  }
  return result;
}
