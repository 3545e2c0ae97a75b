/**
 * How the MCP server offers the `shell` tool:
 * - `off`: not offered;
 * - `ask`: offered; every command is put to the person through MCP
 *   elicitation, and refused with `APPROVAL_UNAVAILABLE` when the client cannot ask;
 * - `allow`: offered; commands matching one of `patterns` run, others are refused.
 */
export type ShellPolicy =
  | { mode: "off" }
  | { mode: "ask" }
  | { mode: "allow"; patterns: string[] };

/** The default policy: no shell. */
export const SHELL_OFF: ShellPolicy = Object.freeze({ mode: "off" });
