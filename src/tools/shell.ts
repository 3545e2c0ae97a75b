import * as z from "zod";
import { WorkspaceError } from "../core/errors.ts";
import { createHostShellProvider } from "../core/process/host_shell_provider.ts";
import { startCommandCapture } from "../core/fs/command_capture.ts";
import {
  SHELL_KILL_GRACE_MS,
  SHELL_MAX_COMMAND_BYTES,
  SHELL_MAX_OUTPUT_BYTES,
  SHELL_MAX_TIMEOUT_MS,
  SHELL_TIMEOUT_MS,
} from "../core/limits.ts";
import { evaluateShellPolicy, type ShellPattern } from "../core/process/shell_policy.ts";
import { keepHeadAndTail } from "../core/text/keep_head_and_tail.ts";
import { utf8ByteLength } from "../core/text/utf8.ts";
import { isShellProvider, type ShellExecResult, type ShellProvider } from "../shell_provider.ts";
import { type BackgroundProcesses, backgroundProcessesOf } from "../core/process/background_processes.ts";
import { BACKGROUND_DESCRIPTION, type BackgroundStarted, startShellInBackground } from "./start_in_background.ts";
import { privatePathsOfSource, privateReach, shellReach } from "./process_reach.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { defineTool } from "./define_tool.ts";
import { DeferredWorkspace, type WorkspaceGetter, workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";
import { Workspace } from "../core/fs/workspace.ts";
import { type KeptOutputFields, keptSink, showStream } from "../core/process/kept_result.ts";
import { declareProtectedPaths } from "../core/fs/change_policy.ts";
import { DEFAULT_PROTECTED_PATHS } from "../core/fs/protected_paths.ts";

/** Where the `shell` tool runs commands: a workspace (on its host), its root folder, or any {@link ShellProvider}. */
export type ShellSource = WorkspaceSource | ShellProvider;

/** Whether a command needs a person's approval: a fixed answer, or a function of the command line. */
export type ShellApproval = boolean | ((command: string) => boolean | Promise<boolean>);

/** Options of {@link createShellTool}. */
export interface ShellToolOptions extends BaseToolOptions {
  /**
   * Whether a call must be approved by a person before it runs; the call
   * layer asks after the arguments and the allow / deny lists passed.
   * @default true
   */
  needsApproval?: ShellApproval;
  /**
   * When given, only matching commands run; anything else is
   * `SHELL_COMMAND_NOT_ALLOWED`. A string matches a command equal to it or
   * starting with it and a space, and then the command may hold no shell
   * operator; a RegExp is tested against the whole command line (anchor it).
   * @default undefined (every command not denied)
   */
  allow?: readonly ShellPattern[];
  /**
   * Commands refused with `SHELL_COMMAND_DENIED`; deny wins over allow. A
   * string is checked against every part of the command split at `;`, `&`, `|`
   * and newlines; a RegExp against the whole command line.
   * @default []
   */
  deny?: readonly ShellPattern[];
  /** Milliseconds a command may run when the call gives no `timeout_ms`. @default 30000 */
  defaultTimeoutMs?: number;
  /** The largest `timeout_ms` a call may ask for. @default 600000 */
  maxTimeoutMs?: number;
  /** Bytes kept of stdout and of stderr, each; beyond it the start and the end are kept. @default 32768 */
  maxOutputBytes?: number;
  /** UTF-8 bytes of the command line. @default 8192 */
  maxCommandBytes?: number;
  /**
   * The shell program (workspace sources only; a {@link ShellProvider} brings its own).
   * @default "/bin/sh" on POSIX hosts, "cmd.exe" on Windows hosts
   */
  shell?: string;
  /** Milliseconds between SIGTERM and SIGKILL on timeout or abort (workspace sources only). @default 1000 */
  killGraceMs?: number;
  /**
   * Run git without the settings that make it run other programs
   * (`core.fsmonitor`, hooks, pagers, drivers, …), and refuse a git command
   * while `.git` points out of the workspace (`GIT_REPOSITORY_UNSAFE`).
   * Workspace sources only: a {@link ShellProvider} runs commands its own way.
   * @default true when `allow` is given, else false
   */
  safeGit?: boolean;
  /**
   * The paths that decide what allowed commands run: declared for the
   * workspace when the tool is made (`declareProtectedPaths`), so every tool
   * that changes files over the same folder refuses them (`PROTECTED_PATH`),
   * whenever and however it was made. `[]` declares nothing (the explicit
   * opt-out). Workspace sources only (a `Workspace`, a root path, a
   * `DeferredWorkspace`, `NodeWorkspace` or `MemoryWorkspace`); a plain
   * {@link ShellProvider} has no folder to declare them on.
   * @default `DEFAULT_PROTECTED_PATHS` when `allow` is given, else []
   */
  protectedPaths?: readonly string[];
  /**
   * Where `background: true` commands are kept (see `process_output`): the
   * table `process_*` tools read. @default the workspace's own table (a
   * provider source: the provider's)
   */
  processes?: BackgroundProcesses;
  /**
   * The workspace whose change journal records what each command changed, so
   * that `undo_last_change` and `restore` take it back (see the README's
   * "Commands' changes"). A workspace source is its own; give it for a
   * {@link ShellProvider} that runs commands over a workspace (`SandboxShell`).
   * @default the source's workspace; none for a plain provider
   */
  journal?: Workspace;
}

/** Arguments of `shell` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface ShellArguments {
  /** The command line. */
  command: string;
  /** Time limit in milliseconds. @default the tool's `defaultTimeoutMs` */
  timeout_ms?: number;
  /** Start it in the background and return at once with a `process_id`. @default false */
  background?: boolean;
}

/** Arguments of `shell`, validated. */
export interface ShellInput {
  /** The command line, as given. */
  command: string;
  /** The time limit for this call (a background command: only when given). */
  timeoutMs: number;
  /** Whether it runs in the background. @default false */
  background?: boolean;
  /** Whether `timeout_ms` was given (a background command has a time limit only then). @default false */
  timeoutGiven?: boolean;
}

/** Result of `shell`. A non-zero exit code is data, not an error; a timeout is `SHELL_TIMEOUT`. */
export type ShellOutput = Omit<ShellExecResult, "timedOut"> & BackgroundStarted & KeptOutputFields;

function describeRule(rule: ShellPattern): string {
  return typeof rule === "string" ? `'${rule}'` : String(rule);
}

function invalid(message: string, hint: string): WorkspaceError {
  return new WorkspaceError("INVALID_ARGUMENTS", `Invalid arguments: ${message}`, { hint });
}

/**
 * Creates `shell` `{command, timeout_ms?}` → `{exitCode, signal, stdout,
 * stderr, stdoutTruncated, stderrTruncated}`: runs a command line with the
 * shell, in the workspace's canonical root, stdin closed, with the minimal
 * environment plus the workspace's `env` and `inheritEnv`.
 *
 * Before anything runs, the command is checked against `deny` and `allow`
 * (see {@link evaluateShellPolicy} for the exact rules): a refused command is
 * `SHELL_COMMAND_DENIED` or `SHELL_COMMAND_NOT_ALLOWED`, reported under its
 * own code so the model sees why. Calls need approval by default
 * (`needsApproval: true`), which the call layer enforces. A command that runs
 * past its time limit is killed with its whole process group and reported as
 * `SHELL_TIMEOUT`, whose `details` hold the partial output.
 *
 * Allow / deny lists and approvals reduce risk; they are not isolation. The
 * command runs with the rights of the calling process (or of the provider's
 * box), so give this tool only where that is acceptable.
 *
 * @param source The workspace (or its root folder), or a {@link ShellProvider}
 *   (a remote box, a sandbox, `MemoryWorkspace`'s scripted `exec`). A source
 *   that is both a workspace and a provider runs through its `exec`.
 * @param options Policy, approval, limits, shell and name.
 * @returns The tool.
 *
 * @example Let the agent run tests and git status, never rm, without asking
 * ```ts
 * import { createShellTool } from "@paddock/tools";
 * const shell = createShellTool("./project", {
 *   allow: ["npm test", "git status", /^git diff( [\w./-]+)*$/],
 *   deny: ["rm"],
 *   needsApproval: false,
 * });
 * const { exitCode, stdout } = await shell.execute({ command: "npm test" });
 * ```
 */
export function createShellTool(
  source: ShellSource,
  options: ShellToolOptions = {},
): Tool<ShellInput, ShellOutput, ShellArguments> {
  const limits = {
    defaultTimeoutMs: options.defaultTimeoutMs ?? SHELL_TIMEOUT_MS,
    maxTimeoutMs: options.maxTimeoutMs ?? SHELL_MAX_TIMEOUT_MS,
    output: options.maxOutputBytes ?? SHELL_MAX_OUTPUT_BYTES,
    command: options.maxCommandBytes ?? SHELL_MAX_COMMAND_BYTES,
  };
  if (limits.defaultTimeoutMs > limits.maxTimeoutMs) {
    throw new RangeError("Cannot create the shell tool: defaultTimeoutMs is above maxTimeoutMs");
  }
  const policy = { allow: options.allow, deny: options.deny ?? [] };
  const getWorkspace = isShellProvider(source) ? undefined : workspaceGetter(source);
  const getProvider = providerGetter(source, getWorkspace, options);
  const getOwner = getWorkspace ?? (() => Promise.resolve(source as ShellProvider));
  // An allow list is only as good as the files its commands read: protect them in this folder, for every tool.
  const owner = source instanceof Workspace || source instanceof DeferredWorkspace
    ? source
    : typeof source === "string"
    ? getWorkspace?.owner
    : undefined;
  if (owner !== undefined) {
    declareProtectedPaths(
      owner,
      options.protectedPaths ?? (options.allow !== undefined ? DEFAULT_PROTECTED_PATHS : []),
    );
  }
  const approval = options.needsApproval ?? true;

  const schema = z.object({
    command: z.string().describe("The command line, run by the shell in the workspace root, e.g. 'npm test'"),
    timeout_ms: z.number().int().positive().max(limits.maxTimeoutMs).optional().describe(
      `Time limit in milliseconds (default ${limits.defaultTimeoutMs}, at most ${limits.maxTimeoutMs}; in the background: none unless given)`,
    ),
    background: z.boolean().optional().describe(BACKGROUND_DESCRIPTION),
  }).strict();

  const allowed = policy.allow === undefined
    ? ""
    : ` Only these commands are allowed: ${
      policy.allow.map(describeRule).join(", ") || "none"
    }; a command allowed by a string pattern must be a single command without ; & | \` $( < > or line breaks.`;

  const provided = shellReach(!isShellProvider(source), isShellProvider(source) ? source.reach : undefined);
  // On the host nothing keeps a command from the private paths; a sandboxed provider says what it does.
  const reach = !isShellProvider(source) && privatePathsOfSource(source).length > 0
    ? { ...provided, text: provided.text + privateReach("open") }
    : provided;
  const tool = defineTool({
    name: options.name ?? "shell",
    description: options.description ??
      `Run a shell command line in the workspace root (stdin closed). The exit code is reported as data. ` +
        `With background: true it starts and returns a process_id at once (for servers and watchers; read it with process_output). ` +
        `Limits: ${limits.defaultTimeoutMs} ms by default (timeout_ms, at most ${limits.maxTimeoutMs}); ` +
        `${limits.output} bytes of stdout and of stderr, each (the start and the end are kept; the lines left out are counted, ` +
        `and process_output with the result's outputId and offset or regex pages and searches the whole output).` +
        allowed +
        ` ${reach.text}`,
    readOnly: false,
    schema,
    prepare: (args): ShellInput => {
      const { command } = args;
      if (command.trim() === "") throw invalid("the command is empty", "property 'command': give a command line");
      if (command.includes("\0")) {
        throw invalid("the command holds a NUL character", "property 'command': remove the NUL character");
      }
      if (utf8ByteLength(command) > limits.command) {
        throw new WorkspaceError(
          "COMMAND_LINE_TOO_LONG",
          `The command is longer than ${limits.command} bytes of UTF-8`,
        );
      }
      const decision = evaluateShellPolicy(command, policy);
      if (decision.verdict === "denied") {
        throw new WorkspaceError(
          "SHELL_COMMAND_DENIED",
          `Cannot run the command: it matches the deny rule ${describeRule(decision.rule as ShellPattern)}`,
          { hint: "this command is refused by policy; do not retry it in another form" },
        );
      }
      if (decision.verdict === "not-allowed") {
        if (decision.rule !== undefined) {
          throw new WorkspaceError(
            "SHELL_COMMAND_NOT_ALLOWED",
            `Cannot run the command: ${
              describeRule(decision.rule)
            } is allowed only as a single command, without ; & | \` $( < > or line breaks`,
            { hint: "run one command per call" },
          );
        }
        throw new WorkspaceError("SHELL_COMMAND_NOT_ALLOWED", "Cannot run the command: it is not in the allow list", {
          hint: `allowed commands: ${(policy.allow ?? []).map(describeRule).join(", ") || "none"}`,
        });
      }
      return {
        command,
        timeoutMs: args.timeout_ms ?? limits.defaultTimeoutMs,
        // Only a background command carries these: a foreground input stays the seeds' { command, timeoutMs }.
        ...(args.background === true ? { background: true, timeoutGiven: args.timeout_ms !== undefined } : {}),
      };
    },
    run: async (input, { signal }): Promise<ShellOutput> => {
      const provider = await getProvider();
      const journaled = options.journal ?? await getWorkspace?.();
      if (input.background === true) {
        const table = options.processes ?? backgroundProcessesOf(await getOwner());
        return await startShellInBackground(
          table,
          provider,
          {
            command: input.command,
            maxOutputBytes: limits.output,
            ...(input.timeoutGiven === true ? { timeoutMs: input.timeoutMs } : {}),
          },
          signal,
          journaled === undefined ? undefined : () => startCommandCapture(journaled, { background: true, signal }),
        );
      }
      // What the command changes is one undo group, this call's.
      const capture = journaled === undefined ? null : await startCommandCapture(journaled, { signal });
      // The whole output is kept (bounded, in memory) under an id process_output pages and searches.
      const kept = (options.processes ?? backgroundProcessesOf(await getOwner())).keep(tool.name);
      const result = await provider.exec(input.command, {
        timeoutMs: input.timeoutMs,
        maxOutputBytes: limits.output,
        signal,
        output: keptSink(kept),
      }).catch((error: unknown) => {
        kept.end({ exitCode: null, signal: null });
        throw error;
      }).finally(() => capture?.finish());
      kept.end({ exitCode: result.exitCode ?? null, signal: result.signal ?? null });
      // A provider may leave out what it does not know, or send more than
      // asked; output it already cut (with its marker) is kept as it is.
      const bound = (text: unknown, cut: boolean | undefined) =>
        cut === true ? { text: String(text), truncated: true } : keepHeadAndTail(String(text ?? ""), limits.output);
      const stdout = bound(result.stdout, result.stdoutTruncated);
      const stderr = bound(result.stderr, result.stderrTruncated);
      const shownOut = showStream(kept.stdout, stdout.text, stdout.truncated);
      const shownErr = showStream(kept.stderr, stderr.text, stderr.truncated);
      const output: ShellOutput = {
        exitCode: result.exitCode ?? null,
        signal: result.signal ?? null,
        stdout: shownOut.text,
        stderr: shownErr.text,
        stdoutTruncated: stdout.truncated,
        stderrTruncated: stderr.truncated,
        outputId: kept.id,
        ...(stdout.truncated ? { stdoutOmittedLines: shownOut.omittedLines } : {}),
        ...(stderr.truncated ? { stderrOmittedLines: shownErr.omittedLines } : {}),
      };
      if (result.timedOut) {
        throw new WorkspaceError("SHELL_TIMEOUT", `Command ran longer than ${input.timeoutMs} ms and was killed`, {
          hint:
            `make it finish sooner (no servers or watchers), or pass a larger timeout_ms (at most ${limits.maxTimeoutMs})`,
          details: { ...output, timeoutMs: input.timeoutMs },
        });
      }
      return output;
    },
  });
  const needsApproval = typeof approval === "function"
    ? (input: ShellInput): boolean | Promise<boolean> => approval(input.command)
    : approval;
  return { ...tool, needsApproval, openWorld: reach.openWorld };
}

// The provider for `source`: a provider as is (preferred when a workspace is
// also one), otherwise the host shell over the workspace, opened on first use.
function providerGetter(
  source: ShellSource,
  getWorkspace: WorkspaceGetter | undefined,
  options: ShellToolOptions,
): () => Promise<ShellProvider> {
  if (isShellProvider(source) || getWorkspace === undefined) return () => Promise.resolve(source as ShellProvider);
  let provider: ShellProvider | undefined;
  return async () =>
    provider ??= createHostShellProvider(await getWorkspace(), {
      shell: options.shell,
      killGraceMs: options.killGraceMs ?? SHELL_KILL_GRACE_MS,
      safeGit: options.safeGit ?? options.allow !== undefined,
    });
}
