import { checkPrivatePatterns } from "../core/fs/private_paths.ts";
import * as fs from "node:fs";
import * as os from "node:os";
import process from "node:process";
import { isWorkspaceError } from "../core/errors.ts";
import type { BubblewrapSandbox } from "../sandbox/bubblewrap_sandbox.ts";
import type { McpShellMode } from "../mcp/shell_mode.ts";
import type { CliIo } from "./cli_io.ts";
import { openRoot } from "./open_root.ts";
import { chooseProcessTools } from "./process_tools_choice.ts";
import { parseArgs } from "./parse_args.ts";
import { GREP_MAX_THREADS, SHELL_MAX_TIMEOUT_MS } from "../core/limits.ts";
import { UsageError } from "./usage_error.ts";
import { HTTP_FLAGS } from "./mcp_http_flags.ts";

const FLAGS = {
  root: { value: true, repeat: true },
  "read-only": { value: false },
  "node-process": { value: true },
  "node-process-timeout": { value: true },
  "stale-write-guard": { value: true },
  "warm-up": { value: true },
  shell: { value: true, repeat: true },
  unsandboxed: { value: false },
  private: { value: true, repeat: true },
  "allow-broad-root": { value: false },
  ...HTTP_FLAGS,
} as const;

/**
 * Why a canonical root is too broad to serve without `--allow-broad-root`:
 * the filesystem root, or the user's home folder (keys, tokens, shell
 * history). `undefined` for any other folder.
 *
 * @param canonical The workspace's canonical root.
 * @returns The reason, for messages, or `undefined`.
 */
export function broadRootReason(canonical: string): string | undefined {
  if (canonical === "/" || /^[A-Za-z]:[\\/]?$/.test(canonical)) return "the filesystem root";
  let home: string | undefined;
  try {
    home = fs.realpathSync(os.homedir());
  } catch {
    home = undefined; // no home folder: nothing to compare with
  }
  return home !== undefined && canonical === home ? "your home folder" : undefined;
}

/**
 * Parses the `--shell` values: `off`, `ask`, or one or more `allow:PATTERN`.
 *
 * @param values Every `--shell` value, in order.
 * @returns The policy.
 * @throws {UsageError} For a bad value or a mix of modes.
 */
export function parseShellMode(values: readonly string[]): McpShellMode {
  if (values.length === 0) return { mode: "off" };
  const patterns: string[] = [];
  let single: "off" | "ask" | undefined;
  for (const value of values) {
    if (value === "off" || value === "ask") single = value;
    else if (value.startsWith("allow:") && value.length > "allow:".length) patterns.push(value.slice("allow:".length));
    else throw new UsageError(`bad value '${value}' for --shell: expected off, ask or allow:PATTERN`);
  }
  if (single !== undefined && (values.length > 1)) {
    throw new UsageError(`--shell ${single} cannot be combined with other --shell values`);
  }
  return single !== undefined ? { mode: single } : { mode: "allow", patterns };
}

/**
 * Parses `on` / `off`.
 * @throws {UsageError} For any other value.
 */
function parseOnOff(flag: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (value === "on") return true;
  if (value === "off") return false;
  throw new UsageError(`bad value '${value}' for --${flag}: expected on or off`);
}

/**
 * `paddock mcp`: serves the tools over stdio until stdin closes.
 *
 * @param args The arguments after `mcp`.
 * @param io Output (stdout is left to the protocol).
 * @returns 0 when the session ends.
 */
export async function mcpCommand(args: string[], io: CliIo): Promise<number> {
  const { flags, positionals } = parseArgs(args, FLAGS);
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  const readOnly = flags.has("read-only");
  const requested = {
    readOnly,
    nodeProcess: parseOnOff("node-process", flags.get("node-process")?.[0], true),
    shell: parseShellMode(flags.get("shell") ?? []),
    unsandboxed: flags.has("unsandboxed"),
  };
  const nodeProcessTimeoutMs = parseTimeout(flags.get("node-process-timeout")?.[0]);
  const staleWriteGuard = parseOnOff("stale-write-guard", flags.get("stale-write-guard")?.[0], true);
  const http = flags.has("http");
  // Over HTTP a warm-up per session would make each new session search the tree again: off unless asked for.
  const warmUp = parseOnOff("warm-up", flags.get("warm-up")?.[0], !http);
  const httpOnly = Object.keys(HTTP_FLAGS).find((flag) => flag !== "http" && flags.has(flag));
  if (!http && httpOnly !== undefined) throw new UsageError(`--${httpOnly} goes with --http`);
  // No default: `cd / && paddock mcp` must not serve the whole disk.
  const rootArgs = flags.get("root") ?? [];
  if (http && flags.has("root-per-session")) {
    if (rootArgs.length > 0) {
      throw new UsageError("--root-per-session gives each session its folder: no --root beside it");
    }
  } else if (flags.has("keep")) throw new UsageError("--keep goes with --root-per-session");
  else if (rootArgs.length === 0) {
    throw new UsageError("--root is required: the folder to serve, e.g. --root ./project");
  }
  const log = (line: string): void => io.stderr(`paddock mcp: ${line}\n`);
  // `--private PATTERN`: in every root (a private name is private however it is reached, nested roots too).
  const privatePaths = parsePrivatePatterns(flags.get("private") ?? []);
  // The first --root is the default (bare paths); each further one is addressed as NAME:path.
  const workspaces: Awaited<ReturnType<typeof openRoot>>[] = [];
  for (const root of rootArgs) {
    // One client per process: synchronous filesystem calls cut each call's latency (see createNodeHost({ syncFileCalls })).
    // Over HTTP many sessions share the process: no call may block the others.
    const opened = await openRoot(root, { syncFs: !http, privatePaths });
    const broad = broadRootReason(opened.root);
    if (broad !== undefined) {
      if (!flags.has("allow-broad-root")) {
        throw new UsageError(`--root '${root}' is ${broad}; pass --allow-broad-root to serve it anyway`);
      }
      log(`warning: serving ${broad} (${opened.root}); the client can read and change everything below it`);
    }
    if (workspaces.some((earlier) => earlier.root === opened.root)) {
      throw new UsageError(`--root '${root}' names the same folder as an earlier --root`);
    }
    workspaces.push(opened);
  }
  const [workspace, ...moreRoots] = workspaces;
  // grep's worker threads start now, on the other cores, while the server's modules load on this one
  // (about half of start-up): the warm-up, which starts with the server's grep, then has them at once.
  // (The warm-up itself started here slowed start-up by ~600 ms on the Go tree: its walk shares this
  // thread with the module loading.)
  if (warmUp) workspace?.host.warmSearchThreads?.(GREP_MAX_THREADS);
  const { serveStdio } = await import("../mcp/serve_stdio.ts");
  const wantsProcesses = !readOnly && (requested.nodeProcess || requested.shell.mode !== "off");
  const sandbox = wantsProcesses
    ? new (await import("../sandbox/bubblewrap_sandbox.ts")).BubblewrapSandbox()
    : undefined;
  const sandboxUnavailable = sandbox === undefined ? undefined : await probe(sandbox);
  const choice = chooseProcessTools({ ...requested, sandboxUnavailable });
  for (const note of choice.notes) log(note);
  if (privatePaths.length > 0 && !choice.sandboxed && (choice.nodeProcess || choice.shell.mode !== "off")) {
    log(
      "--private: commands run without the OS sandbox here, so a shell or node_process command can read private paths",
    );
  }
  const options = {
    root: workspace,
    roots: moreRoots,
    readOnly,
    nodeProcess: choice.nodeProcess,
    nodeProcessTimeoutMs,
    staleWriteGuard,
    warmUp,
    shell: choice.shell,
    ...(choice.sandboxed && sandbox !== undefined ? { sandbox } : {}),
  };
  try {
    if (http) await (await import("./mcp_http_command.ts")).serveHttpCommand(flags, options, log);
    else await serveStdio(options, log);
  } finally {
    await sandbox?.close();
  }
  // The session is over: nothing else may keep the process alive.
  process.exitCode = 0;
  return 0;
}

/**
 * Checks the `--private` values: each a name or glob (`.env`, `.env.*`) or `FOLDER/**`, no other `/`.
 *
 * @param values Every `--private` value, in order.
 * @returns The patterns.
 * @throws {UsageError} For an empty value, or one holding `/` other than a final `/**`.
 */
export function parsePrivatePatterns(values: readonly string[]): string[] {
  for (const value of values) {
    try {
      checkPrivatePatterns([value]);
    } catch {
      throw new UsageError(
        `bad value '${value}' for --private: expected a name or glob (.env, .env.*) or FOLDER/** (secrets/**)`,
      );
    }
  }
  return [...values];
}

// `--node-process-timeout MS`: a whole number of milliseconds, 1 to SHELL_MAX_TIMEOUT_MS.
function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const ms = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(ms >= 1 && ms <= SHELL_MAX_TIMEOUT_MS)) {
    throw new UsageError(
      `--node-process-timeout takes whole milliseconds from 1 to ${SHELL_MAX_TIMEOUT_MS}, not '${value}'`,
    );
  }
  return ms;
}

// Why the OS sandbox cannot run here, or undefined when it can.
async function probe(sandbox: BubblewrapSandbox): Promise<string | undefined> {
  try {
    await sandbox.check();
    return undefined;
  } catch (error) {
    if (isWorkspaceError(error, "SANDBOX_UNAVAILABLE")) return error.message;
    throw error;
  }
}
