import { VERSION } from "../version.ts";
import { registerCallScope } from "../core/fs/call_scope.ts";
import { asyncCallScope } from "../hosts/async_call_scope.ts";
import type { CliIo } from "./cli_io.ts";
import { HELP } from "./help.ts";
import { UsageError } from "./usage_error.ts";

// The command loads neither package entry, which register this for a library user: without it, MCP calls that
// overlap in time would share one undo group.
registerCallScope(asyncCallScope);

// Each command's modules are loaded when it runs: `paddock mcp` starts grep's warm-up before the
// MCP server's own modules (about half its start-up) are loaded.
const COMMANDS: Readonly<Record<string, (args: string[], io: CliIo) => Promise<number>>> = {
  mcp: async (args, io) => (await import("./mcp_command.ts")).mcpCommand(args, io),
  call: async (args, io) => (await import("./call_command.ts")).callCommand(args, io),
  demo: async (args, io) => (await import("./demo_command.ts")).demoCommand(args, io),
};

/** Whether `args` asks for `flags` before any `--`. */
function wants(args: readonly string[], ...flags: string[]): boolean {
  const end = args.indexOf("--");
  return (end === -1 ? args : args.slice(0, end)).some((arg) => flags.includes(arg));
}

/**
 * Runs the `paddock` command.
 *
 * @param argv The arguments after the program name.
 * @param io Output streams and environment.
 * @returns The exit code: 0 success, 1 an error result or a failed demo, 2 a usage error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const known = command !== undefined && Object.hasOwn(COMMANDS, command);
  const args = known ? rest : [...argv];
  if (wants(args, "-h", "--help")) {
    io.stdout(HELP[known ? command : ""]);
    return 0;
  }
  if (wants(args, "-V", "--version")) {
    io.stdout(`${VERSION}\n`);
    return 0;
  }
  try {
    if (command === undefined) throw new UsageError("missing command (mcp, call or demo)");
    if (!known) {
      throw new UsageError(command.startsWith("-") ? `unknown option '${command}'` : `unknown command '${command}'`);
    }
    return await COMMANDS[command](rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`paddock: ${error.message} (see 'paddock${known ? ` ${command}` : ""} --help')\n`);
      return 2;
    }
    throw error;
  }
}
