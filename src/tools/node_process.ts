import * as z from "zod";
import { randomSuffix } from "../core/fs/atomic_write.ts";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { joinHostPath } from "../core/path/host_path.ts";
import {
  NODE_PROCESS_MAX_ARGUMENT_BYTES,
  NODE_PROCESS_MAX_ARGUMENTS,
  NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES,
  NODE_PROCESS_MAX_OUTPUT_BYTES,
  NODE_PROCESS_MAX_SOURCE_BYTES,
  NODE_PROCESS_MAX_WINDOWS_COMMAND_LINE,
  NODE_PROCESS_TIMEOUT_MS,
} from "../core/limits.ts";
import type { Sandbox } from "../core/process/command_sandbox.ts";
import { mapSpawnError } from "../core/process/map_spawn_error.ts";
import { protectedLayout } from "../core/fs/protected_layout.ts";
import { runtimeDenial, sandboxLayout } from "../core/fs/sandbox_layout.ts";
import { protectedPathsInForce, protectionDeclared } from "../core/fs/change_policy.ts";
import { removeOwnFile } from "../core/fs/remove_own_file.ts";
import { runProcess, toExecResult } from "../core/process/run_process.ts";
import { sanitizeScriptOutput, SCRIPT_DISPLAY_NAME } from "../core/process/script_output.ts";
import { encodeUtf8, utf8ByteLength } from "../core/text/utf8.ts";
import { windowsCommandLineLength } from "../core/process/windows_command_line.ts";
import type { Identity, Workspace } from "../core/fs/workspace.ts";
import { nodeProcessReach, privatePathsOfSource, privateReach, runtimeOfSource } from "./process_reach.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";
import type { ShellExecResult } from "../shell_provider.ts";
import { backgroundChild } from "../core/process/background_child.ts";
import { type KeptOutputFields, keptSink, showStream } from "../core/process/kept_result.ts";
import { backgroundProcessesOf } from "../core/process/background_processes.ts";
import {
  BACKGROUND_DESCRIPTION,
  type BackgroundStarted,
  journaledWhenEnded,
  startedResult,
} from "./start_in_background.ts";
import { startCommandCapture } from "../core/fs/command_capture.ts";
import { createScript, sandboxed, scriptLaunch } from "./_node_script.ts";

/** Prefix of the temp script files node_process writes in the workspace root. */
export const NODE_SCRIPT_PREFIX = ".paddock-node-";

/** Options of {@link createNodeProcessTool}. */
export interface NodeProcessToolOptions extends BaseToolOptions {
  /** UTF-8 bytes of source. @default 32768 */
  maxSourceBytes?: number;
  /** Number of arguments. @default 32 */
  maxArguments?: number;
  /** UTF-8 bytes of one argument. @default 2048 */
  maxArgumentBytes?: number;
  /** UTF-8 bytes of all arguments. @default 8192 */
  maxArgumentsTotalBytes?: number;
  /** UTF-16 units of the arguments quoted for a Windows command line. @default 30000 */
  maxWindowsCommandLine?: number;
  /** Milliseconds before the process group is killed. @default 500 */
  timeoutMs?: number;
  /** Bytes kept of stdout and of stderr, each. @default 32768 */
  maxOutputBytes?: number;
  /**
   * `"workspace"`: the runtime's permission model allows reading and writing
   * the workspace only (Deno: no net, env, run, ffi or sys either; Node: no
   * child processes or workers). `"inherit"`: the child has the runtime's full
   * rights. @default "workspace"
   */
  permissions?: "workspace" | "inherit";
  /**
   * An OS sandbox to run the script in (e.g. `BubblewrapSandbox` from
   * `@paddock/tools/sandbox`), on top of `permissions`: the workspace is the
   * only writable place and nothing outside it (not even through a link that
   * points out) is visible. Fails closed with `SANDBOX_UNAVAILABLE`.
   * @default undefined (no OS sandbox)
   */
  sandbox?: Sandbox;
  /**
   * Paths the script may not change (see `DEFAULT_PROTECTED_PATHS`),
   * replacing what is in force for the workspace; `[]` protects nothing. Under
   * `permissions: "workspace"` the runtime may write only the workspace's
   * entries that hold no protected path and no link (so nothing new at the top
   * of the workspace, or in a folder holding a protected path); with `sandbox`,
   * the protected paths are also read-only inside it. Not enforced with
   * `permissions: "inherit"` and no sandbox (the description says so).
   * @default what is in force for the workspace at each call (`protectedPathsInForce`); the
   *   description states the protection known when the tool is made
   */
  protectedPaths?: readonly string[];
}

/** Arguments of `node_process` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface NodeProcessArguments {
  /** CommonJS source to run. */
  source: string;
  /** The script's arguments (`process.argv.slice(1)`). @default [] */
  arguments?: string[];
  /** Start it in the background and return at once with a `process_id`. @default false */
  background?: boolean;
}

/** Arguments of `node_process`, validated. */
export interface NodeProcessInput {
  /** The script's source as UTF-8 bytes. */
  source: Uint8Array;
  /** The script's arguments. */
  args: string[];
  /** Whether it runs in the background (no time limit; see `process_output`). @default false */
  background?: boolean;
  /** What `process_list` shows: the source's start. @default "node_process" */
  summary?: string;
}

/** Result of `node_process`. A non-zero exit is data, not an error; `timedOut` is always false (a timeout is `NODE_PROCESS_TIMEOUT`). */
export type NodeProcessOutput = ShellExecResult & BackgroundStarted & KeptOutputFields;

const schema = z.object({
  source: z.string().describe("CommonJS source to run; `require` and `process` are available"),
  arguments: z.array(z.string()).optional().describe("Arguments; inside the script process.argv.slice(1) equals them"),
  background: z.boolean().optional().describe(BACKGROUND_DESCRIPTION + "; no time limit then"),
}).strict();

function argumentError(code: WorkspaceError["code"], message: string): WorkspaceError {
  return new WorkspaceError(code, message);
}

/**
 * Creates `node_process` `{source, arguments?}` → `{exitCode, signal, stdout,
 * stderr, stdoutTruncated, stderrTruncated, timedOut}`: runs CommonJS source
 * with the host runtime's own executable (`process.execPath` on Node,
 * `Deno.execPath()` on Deno; never a `node` from PATH, never a shell), in the
 * workspace root, with the minimal environment, bounded in time and output,
 * confined by the runtime's permission model by default.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limits, permissions and name.
 * @returns The tool.
 *
 * @example Running a script
 * ```ts
 * import { createNodeProcessTool } from "@paddock/tools";
 * const node = createNodeProcessTool("./project");
 * const result = await node.execute({ source: "console.log(process.argv.slice(1))", arguments: ["a"] });
 * // result.stdout === "[ 'a' ]\n"
 * ```
 */
export function createNodeProcessTool(
  workspace: WorkspaceSource,
  options: NodeProcessToolOptions = {},
): Tool<NodeProcessInput, NodeProcessOutput, NodeProcessArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const limits = {
    source: options.maxSourceBytes ?? NODE_PROCESS_MAX_SOURCE_BYTES,
    count: options.maxArguments ?? NODE_PROCESS_MAX_ARGUMENTS,
    each: options.maxArgumentBytes ?? NODE_PROCESS_MAX_ARGUMENT_BYTES,
    total: options.maxArgumentsTotalBytes ?? NODE_PROCESS_MAX_ARGUMENTS_TOTAL_BYTES,
    windows: options.maxWindowsCommandLine ?? NODE_PROCESS_MAX_WINDOWS_COMMAND_LINE,
    timeoutMs: options.timeoutMs ?? NODE_PROCESS_TIMEOUT_MS,
    output: options.maxOutputBytes ?? NODE_PROCESS_MAX_OUTPUT_BYTES,
  };
  const permissions = options.permissions ?? "workspace";
  const getProtected = async (opened: Workspace) => options.protectedPaths ?? await protectedPathsInForce(opened);
  const guarded = options.protectedPaths !== undefined
    ? options.protectedPaths.length > 0
    : protectionDeclared(getWorkspace.owner);
  const runtime = runtimeOfSource(workspace);
  const base = nodeProcessReach(runtime, permissions, options.sandbox, guarded);
  // A sandbox masks private paths; else Deno denies them; Node's and Bun's permissions cannot.
  const hides: Parameters<typeof privateReach>[0] = options.sandbox !== undefined
    ? "masked"
    : permissions === "workspace" && runtime === "deno"
    ? "denied"
    : "open";
  const reach = privatePathsOfSource(workspace).length === 0
    ? base
    : { ...base, text: base.text + privateReach(hides) };
  const tool = defineTool({
    name: options.name ?? "node_process",
    description: options.description ??
      `Run a CommonJS script with the host JavaScript runtime inside the workspace (cwd = workspace root). ` +
        `Limits: ${limits.timeoutMs} ms, ${limits.output} bytes of stdout and of stderr. ` +
        `With background: true it starts and returns a process_id at once (read it with process_output). ` +
        `Paths in the output are workspace-relative ('.' is the root; the script itself is ${SCRIPT_DISPLAY_NAME}). ${reach.text}`,
    readOnly: false,
    schema,
    prepare: (args): NodeProcessInput => {
      const argv = args.arguments ?? [];
      if (utf8ByteLength(args.source) > limits.source) {
        throw argumentError("SOURCE_TOO_LARGE", `Source is larger than ${limits.source} bytes of UTF-8`);
      }
      if (argv.length > limits.count) {
        throw argumentError("TOO_MANY_ARGUMENTS", `More than ${limits.count} arguments`);
      }
      let total = 0;
      for (const argument of argv) {
        const bytes = utf8ByteLength(argument);
        if (bytes > limits.each) {
          throw argumentError("ARGUMENT_TOO_LARGE", `An argument is larger than ${limits.each} bytes`);
        }
        if (argument.includes("\0")) throw argumentError("INVALID_ARGUMENTS", "An argument holds a NUL character");
        total += bytes;
      }
      if (total > limits.total) {
        throw argumentError("ARGUMENTS_TOO_LARGE", `Arguments are larger than ${limits.total} bytes in all`);
      }
      if (windowsCommandLineLength(argv) > limits.windows) {
        throw argumentError(
          "COMMAND_LINE_TOO_LONG",
          `Arguments take more than ${limits.windows} characters on a Windows command line`,
        );
      }
      return {
        source: encodeUtf8(args.source),
        args: argv,
        background: args.background ?? false,
        summary: summarize(args.source),
      };
    },
    run: async (input, { signal }) => {
      const workspace = await getWorkspace();
      throwIfAborted(signal);
      await workspace.checkRoot();
      const host = workspace.host;
      const base = NODE_SCRIPT_PREFIX + randomSuffix();
      const scriptPath = joinHostPath(host.platform, workspace.root, [`${base}.cjs`]);
      const bootstrapPath = joinHostPath(host.platform, workspace.root, [`${base}.boot.cjs`]);
      const scriptNames = [`${base}.cjs`, `${base}.boot.cjs`];
      // With protected paths: where they lie now, for the runtime's write list and the sandbox's read-only binds.
      const protectedPaths = await getProtected(workspace);
      const layout = protectedPaths.length > 0 && (permissions === "workspace" || options.sandbox !== undefined)
        ? await protectedLayout(workspace, protectedPaths, { signal })
        : undefined;
      const toHost = (list: string[][]) => list.map((segments) => workspace.hostPath(segments));
      // Private paths that exist now: masked in a sandbox, denied by the runtime where it can deny (Deno).
      const hidden = workspace.privatePaths.length > 0 && (permissions === "workspace" || options.sandbox !== undefined)
        ? await sandboxLayout(workspace, protectedPaths, workspace.privatePaths, signal)
        : undefined;
      const denied = hidden === undefined || permissions !== "workspace"
        ? undefined
        : await runtimeDenial(workspace, hidden, signal);
      const launch = scriptLaunch(host, {
        scriptPath,
        bootstrapPath,
        args: input.args,
        confineTo: permissions === "workspace" ? [workspace.root] : null,
        ...(layout === undefined ? {} : { writable: toHost(layout.writable) }),
        ...(denied === undefined ? {} : { denied }),
      });
      // The scripts are created (and removed) at the held root, never through a path a swap could redirect.
      const root = await workspace.rootFolder();
      const atRoot = (name: string) => workspace.childPath(root, name);
      const created: Array<[string, Identity]> = [];
      // In a sandbox the script may run as another uid than the caller's (a root caller's container runs as
      // the workspace's owner), so it must be readable by others; unsandboxed it stays the caller's alone.
      const mode = options.sandbox === undefined ? 0o600 : 0o644;
      const removeScripts = async () => {
        // Remove our own temp files only: each must still be the object we created.
        for (const [path, identity] of created) await removeOwnFile(host, path, identity);
      };
      let handedOver = false;
      try {
        created.push([atRoot(`${base}.cjs`), await createScript(workspace, atRoot(`${base}.cjs`), input.source, mode)]);
        if (launch.bootstrap !== undefined) {
          const at = atRoot(`${base}.boot.cjs`);
          created.push([at, await createScript(workspace, at, encodeUtf8(launch.bootstrap), mode)]);
        }
        // In a sandbox, private paths are masked too (one scan for both kinds, sandbox_layout.ts).
        const inSandbox = options.sandbox === undefined || hidden === undefined
          ? (layout === undefined ? {} : { readOnly: toHost(layout.readOnly), pinned: toHost(layout.pinned) })
          : hidden;
        const command = await sandboxed(options.sandbox, {
          argv: launch.argv,
          env: { ...workspace.childEnvironment(), ...launch.env },
          ...inSandbox,
        }, workspace.root);
        const names = { scriptPath, bootstrapPath: launch.bootstrap === undefined ? undefined : bootstrapPath };
        if (input.background === true) {
          const spec = {
            tool: "node_process",
            command: input.summary ?? "node_process",
            maxOutputBytes: limits.output,
            sanitize: (text: string) => sanitizeScriptOutput(text, names),
          };
          const started = await backgroundProcessesOf(workspace).start(spec, async (sink) => {
            // What it changes is journaled when it ends, a group of its own (not counting its own script files).
            const capture = await startCommandCapture(workspace, { background: true, signal, exclude: scriptNames });
            const child = await host.spawn({ argv: command.argv, cwd: workspace.root, env: command.env, stdin: "pipe" })
              .catch((error: unknown) => {
                throw mapSpawnError(error, "the script");
              });
            handedOver = true;
            return journaledWhenEnded(
              backgroundChild(child, sink, {
                killGraceMs: 0,
                ...(command.drainGraceMs === undefined ? {} : { drainGraceMs: command.drainGraceMs }),
                cleanup: async () => {
                  await command.cleanup?.();
                  await removeScripts();
                },
              }),
              capture,
            );
          }).catch(async (error: unknown) => {
            await command.cleanup?.();
            throw error;
          });
          return { ...startedResult(started), timedOut: false };
        }
        // The whole output is kept (bounded, in memory) under an id process_output pages and searches.
        const kept = backgroundProcessesOf(workspace).keep("node_process", (text) => sanitizeScriptOutput(text, names));
        // What the script changes is one undo group, this call's.
        const capture = await startCommandCapture(workspace, { signal, exclude: scriptNames });
        const result = await runProcess(host, {
          argv: command.argv,
          cwd: workspace.root,
          env: command.env,
          timeoutMs: limits.timeoutMs,
          maxOutputBytes: limits.output,
          ...(command.drainGraceMs === undefined ? {} : { drainGraceMs: command.drainGraceMs }),
          signal,
          output: keptSink(kept),
        }).catch((error: unknown) => {
          throw mapSpawnError(error, "the script");
        }).finally(async () => {
          await command.cleanup?.();
          await capture?.finish();
        });
        kept.end({ exitCode: result.exitCode, signal: result.signal });
        if (result.timedOut) {
          throw new WorkspaceError(
            "NODE_PROCESS_TIMEOUT",
            `Script ran longer than ${limits.timeoutMs} ms and was killed`,
            {
              hint: "make the script finish sooner (no servers, watchers or endless loops); " +
                `its output so far: process_output with process_id "${kept.id}" and offset 1`,
              details: { outputId: kept.id },
            },
          );
        }
        const output = toExecResult(result);
        const stdout = showStream(kept.stdout, sanitizeScriptOutput(output.stdout, names), output.stdoutTruncated);
        const stderr = showStream(kept.stderr, sanitizeScriptOutput(output.stderr, names), output.stderrTruncated);
        return {
          ...output,
          stdout: stdout.text,
          stderr: stderr.text,
          outputId: kept.id,
          ...(output.stdoutTruncated ? { stdoutOmittedLines: stdout.omittedLines } : {}),
          ...(output.stderrTruncated ? { stderrOmittedLines: stderr.omittedLines } : {}),
        };
      } finally {
        // A background script's files are removed when it ended.
        if (!handedOver) await removeScripts();
      }
    },
  });
  return { ...tool, openWorld: reach.openWorld };
}

// What process_list shows of a background script: its first line, clipped.
function summarize(source: string): string {
  const first = source.trim().split("\n", 1)[0] ?? "";
  return `node_process: ${first.length > 80 ? `${first.slice(0, 80)}…` : first}`;
}
