import { UsageError } from "./usage_error.ts";

/** The flags one subcommand accepts: name (without `--`) → whether it takes a value. */
export type FlagSpec = Readonly<Record<string, { value: boolean; repeat?: boolean }>>;

/** Parsed command-line arguments. */
export interface ParsedArgs {
  /** Flag values (a boolean flag holds `"true"`); repeatable flags keep every value in order. */
  flags: Map<string, string[]>;
  /** Arguments that are not flags, in order. */
  positionals: string[];
}

/**
 * Parses `args` against `spec`: `--name value`, `--name=value`, boolean
 * `--name`, and `--` to end the flags.
 *
 * @param args The arguments after the subcommand.
 * @param spec The accepted flags.
 * @returns Flags and positionals.
 * @throws {UsageError} For an unknown flag, a missing value, a value given to a boolean flag, or a repeated flag that may not repeat.
 */
export function parseArgs(args: readonly string[], spec: FlagSpec): ParsedArgs {
  const flags = new Map<string, string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    if (!arg.startsWith("--")) throw new UsageError(`unknown option '${arg}'`);
    const equals = arg.indexOf("=");
    const name = equals === -1 ? arg.slice(2) : arg.slice(2, equals);
    const rule = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (rule === undefined) throw new UsageError(`unknown option '--${name}'`);
    let value: string;
    if (!rule.value) {
      if (equals !== -1) throw new UsageError(`option '--${name}' takes no value`);
      value = "true";
    } else if (equals !== -1) value = arg.slice(equals + 1);
    else {
      if (i + 1 >= args.length) throw new UsageError(`option '--${name}' needs a value`);
      value = args[++i];
    }
    const seen = flags.get(name);
    if (seen !== undefined && rule.repeat !== true) throw new UsageError(`option '--${name}' given twice`);
    flags.set(name, [...(seen ?? []), value]);
  }
  return { flags, positionals };
}
