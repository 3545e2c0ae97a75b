import type { ShellToolOptions } from "../tools/shell.ts";

/**
 * How the MCP server offers the `shell` tool (`--shell`):
 * - `off`: not offered;
 * - `ask`: offered; every command is put to the person through MCP
 *   elicitation, and refused with `APPROVAL_UNAVAILABLE` when the client cannot ask;
 * - `allow`: offered; commands matching one of `patterns` (the `shell` tool's
 *   string allow rules) run without asking, any other is `SHELL_COMMAND_NOT_ALLOWED`.
 */
export type McpShellMode =
  | { mode: "off" }
  | { mode: "ask" }
  | { mode: "allow"; patterns: string[] };

/** The default: no shell. */
export const SHELL_OFF: McpShellMode = Object.freeze({ mode: "off" });

/**
 * The `shell` tool's options for a mode, or `undefined` for no shell tool.
 *
 * @param mode The mode.
 * @returns Options for `createCodingTools({ shell })`.
 *
 * @example The shell tool of `--shell allow:npm test`
 * ```ts
 * import { createCodingTools } from "@paddock/tools";
 * import { shellToolOptions } from "@paddock/tools/mcp";
 * const shell = shellToolOptions({ mode: "allow", patterns: ["npm test", "git status"] });
 * // { needsApproval: false, allow: ["npm test", "git status"] }
 * const tools = createCodingTools("./project", { shell });
 * ```
 */
export function shellToolOptions(mode: McpShellMode): ShellToolOptions | undefined {
  switch (mode.mode) {
    case "off":
      return undefined;
    case "ask":
      return { needsApproval: true };
    case "allow":
      return { needsApproval: false, allow: [...mode.patterns] };
  }
}
