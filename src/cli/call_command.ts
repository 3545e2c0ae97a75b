import { createMcpRegistry } from "../mcp/create_mcp_registry.ts";
import { executeToolCall } from "../registry/execute_tool_call.ts";
import type { CliIo } from "./cli_io.ts";
import { openRoot } from "./open_root.ts";
import { parseArgs } from "./parse_args.ts";
import { UsageError } from "./usage_error.ts";

const FLAGS = { root: { value: true }, "read-only": { value: false } } as const;

/**
 * `paddock call TOOL JSON`: runs one tool call and prints the result JSON.
 *
 * @param args The arguments after `call`.
 * @param io Where the result goes.
 * @returns 0 for a result, 1 for an error result.
 * @throws {UsageError} For missing or extra arguments, or JSON that is not an object.
 */
export async function callCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseArgs(args, FLAGS);
  if (positionals.length < 2) throw new UsageError("expected TOOL and JSON arguments");
  if (positionals.length > 2) throw new UsageError(`unexpected argument '${positionals[2]}'`);
  const [name, json] = positionals;
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    throw new UsageError("the JSON argument is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError("the JSON argument must be an object");
  }
  const workspace = await openRoot(flags.get("root")?.[0] ?? ".");
  // One call per process: nothing can have been read before it, so the stale-write guard is off.
  const registry = createMcpRegistry(workspace, { readOnly: flags.has("read-only"), staleWriteGuard: false });
  const result = await executeToolCall(registry, { id: "cli", name, arguments: parsed });
  io.stdout(result.content + "\n");
  return result.isError ? 1 : 0;
}
