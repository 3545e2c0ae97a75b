import { abortError, throwIfAborted } from "../core/errors.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { keepHeadAndTail } from "../core/text/keep_head_and_tail.ts";
import { resolveShellExec } from "../core/process/resolve_shell_exec.ts";
import { decodeUtf8Lenient } from "../core/text/utf8.ts";
import { Workspace } from "../core/fs/workspace.ts";
import { createMemoryHost, type MemoryHost } from "../hosts/memory.ts";
import type { ShellExecOptions, ShellExecRequest, ShellExecResult, ShellProvider } from "../shell_provider.ts";

/** The root folder of every {@link MemoryWorkspace} in its memory host; the rest of the tree is "outside". */
export const MEMORY_WORKSPACE_ROOT = "/workspace";

/**
 * A scripted reply to a command: a string is its stdout (exit code 0);
 * an object gives stdout, stderr (both default `""`) and the exit code
 * (default 0; `null` with a `signal` for a killed command).
 */
export type ExecReply = string | {
  stdout?: string;
  stderr?: string;
  /** @default 0 */
  exitCode?: number | null;
  /** The signal that ended the command. @default null */
  signal?: string | null;
};

/**
 * How a {@link MemoryWorkspace} answers commands: a map from the exact
 * command line to its reply, or a function of the command line (which may be
 * async, and returns `undefined` for a command it does not script).
 */
export type ExecScript =
  | Readonly<Record<string, ExecReply>>
  | ((command: string) => ExecReply | undefined | Promise<ExecReply | undefined>);

/** One command a {@link MemoryWorkspace} was asked to run, with its settled options. */
export interface ExecRecord {
  /** The command line. */
  command: string;
  /** The working folder, workspace-relative (`.` for the root). */
  cwd: string;
  /** Its time limit in milliseconds. */
  timeoutMs: number;
  /** Its output bound in bytes, per stream. */
  maxOutputBytes: number;
}

/** Options of {@link MemoryWorkspace}. */
export interface MemoryWorkspaceOptions {
  /**
   * Files by workspace-relative path (`/`-separated; folders on the way are
   * created); a string is stored as UTF-8. A key ending in `/` makes an
   * (empty) folder. @default {}
   */
  files?: Record<string, string | Uint8Array>;
  /**
   * Symbolic links by workspace-relative path, each with its target stored
   * verbatim: relative (`"../d/f.txt"`) or absolute in the memory tree
   * (`"/etc/passwd"`, `"/workspace/d"`). Created after `files`. @default {}
   */
  links?: Record<string, string>;
  /** Replies to `exec()`. @default {} (every command is unscripted) */
  exec?: ExecScript;
  /** Variables given to child processes. @default {} */
  env?: Record<string, string>;
  /** Parent variables passed through to child processes. @default [] */
  inheritEnv?: string[];
  /** Paths no tool may change (`PROTECTED_PATH`; see `DEFAULT_PROTECTED_PATHS`). @default [] */
  protectedPaths?: readonly string[];
  /** Paths no tool reads, lists or changes (`PATH_PRIVATE`; see `WorkspaceOptions.privatePaths`). @default [] */
  privatePaths?: readonly string[];
}

/**
 * A workspace held in memory, for tests and examples: a {@link MemoryHost}
 * whose folder {@link MEMORY_WORKSPACE_ROOT} is the root, built
 * synchronously from a map of files and links, plus a scripted
 * {@link ShellProvider} whose commands are logged in {@link commands}.
 *
 * Every tool runs on it unchanged (it is a {@link Workspace}). The one
 * difference from a disk: no process can run, so `node_process` reports
 * `SPAWN_FAILED`, and shell commands are answered by the `exec` script.
 *
 * @example Testing a tool without a disk
 * ```ts
 * import { createCodingTools } from "@paddock/tools";
 * import { MemoryWorkspace } from "@paddock/tools/testing";
 * const ws = new MemoryWorkspace({ files: { "src/a.ts": "export {};\n" }, exec: { "npm test": "ok\n" } });
 * const [read] = createCodingTools(ws);
 * await read.execute({ path: "src/a.ts" }); // { path: "src/a.ts", content: "export {};\n", bytes: 11 }
 * ws.snapshot(); // { "src/a.ts": "export {};\n" }
 * await ws.exec("npm test"); // stdout "ok\n", exit 0
 * ws.commands.map((c) => c.command); // ["npm test"]
 * ```
 */
export class MemoryWorkspace extends Workspace implements ShellProvider {
  /** The memory host holding the tree; use its `*Sync` helpers to add or inspect objects outside the root. */
  declare readonly host: MemoryHost;
  /** Every command passed to {@link exec}, in order (scripted or not), with its settled options. */
  readonly commands: ExecRecord[] = [];
  private readonly script: ExecScript;

  /**
   * Builds the tree: the root folder, then `files`, then `links`.
   *
   * @param options Files, links, the command script and the child environment.
   * @throws {WorkspaceError} `INVALID_RELATIVE_PATH` or `PATH_TOO_LONG` for a key the path grammar
   * refuses; `ALREADY_EXISTS` (or `NOT_A_DIRECTORY`) when keys clash (`"a"` and `"a/b"`, a link over a file).
   */
  constructor(options: MemoryWorkspaceOptions = {}) {
    const host = createMemoryHost();
    host.mkdirSync(MEMORY_WORKSPACE_ROOT);
    super(host, MEMORY_WORKSPACE_ROOT, MEMORY_WORKSPACE_ROOT, host.lstatSync(MEMORY_WORKSPACE_ROOT), {
      env: options.env,
      inheritEnv: options.inheritEnv,
      protectedPaths: options.protectedPaths,
      privatePaths: options.privatePaths,
    });
    this.script = options.exec ?? {};
    for (const [key, content] of Object.entries(options.files ?? {})) {
      const segments = normalizeWorkspacePath(key);
      this.seed(key, () => {
        if (key.endsWith("/") || segments.length === 0) {
          host.mkdirSync(this.hostPath(segments), { recursive: true });
          return;
        }
        host.mkdirSync(this.hostPath(segments.slice(0, -1)), { recursive: true });
        host.writeFileSync(this.hostPath(segments), content);
      });
    }
    for (const [key, target] of Object.entries(options.links ?? {})) {
      const segments = normalizeWorkspacePath(key);
      this.seed(key, () => {
        host.mkdirSync(this.hostPath(segments.slice(0, -1)), { recursive: true });
        host.symlinkSync(target, this.hostPath(segments));
      });
    }
  }

  /**
   * Runs one step of building the tree; a clash (a file where a folder is
   * needed, a name given twice) becomes a WorkspaceError naming the key.
   */
  private seed(key: string, step: () => void): void {
    try {
      step();
    } catch (error) {
      throw mapHostError(error, "create", key);
    }
  }

  /**
   * Answers a command from the script and logs it in {@link commands}. An
   * unscripted command exits with 127 and says so on stderr. Output over
   * `maxOutputBytes` keeps its start and its end (as a real shell provider
   * does); a reply slower than `timeoutMs` ends with `timedOut: true`.
   *
   * @param command The command line, or the whole request `{ command, ...options }`.
   * @param options Working folder (recorded only), time and output limits, cancel signal; each defaults when missing.
   * @returns The scripted result.
   * @throws An AbortError when the signal aborts (nothing is logged if it was aborted before the call);
   *   {@link WorkspaceError} `INVALID_ARGUMENTS` for an invalid option.
   */
  async exec(command: string | ShellExecRequest, options?: ShellExecOptions): Promise<ShellExecResult> {
    const request = resolveShellExec(command, options);
    const { signal } = request;
    throwIfAborted(signal);
    this.commands.push({
      command: request.command,
      cwd: request.cwd.join("/") || ".",
      timeoutMs: request.timeoutMs,
      maxOutputBytes: request.maxOutputBytes,
    });
    const script = this.script;
    const pending = Promise.resolve().then(() =>
      typeof script === "function"
        ? script(request.command)
        : Object.hasOwn(script, request.command)
        ? script[request.command]
        : undefined
    );
    const outcome = await settle(pending, request.timeoutMs, signal);
    if (outcome === "timeout") {
      return {
        exitCode: null,
        signal: "SIGKILL",
        stdout: "",
        stderr: "",
        stdoutTruncated: false,
        stderrTruncated: false,
        timedOut: true,
      };
    }
    const reply = outcome.reply;
    const full = reply === undefined
      ? {
        stdout: "",
        stderr: `memory workspace: command not scripted: ${request.command}\n`,
        exitCode: 127,
        signal: null,
      }
      : typeof reply === "string"
      ? { stdout: reply, stderr: "", exitCode: 0, signal: null }
      : {
        stdout: reply.stdout ?? "",
        stderr: reply.stderr ?? "",
        exitCode: reply.exitCode === undefined ? 0 : reply.exitCode,
        signal: reply.signal ?? null,
      };
    const stdout = keepHeadAndTail(full.stdout, request.maxOutputBytes);
    const stderr = keepHeadAndTail(full.stderr, request.maxOutputBytes);
    return {
      exitCode: full.exitCode,
      signal: full.signal,
      stdout: stdout.text,
      stderr: stderr.text,
      stdoutTruncated: stdout.truncated,
      stderrTruncated: stderr.truncated,
      timedOut: false,
    };
  }

  /**
   * Every file in the workspace with its content decoded as UTF-8 (invalid
   * bytes become U+FFFD), keyed by workspace-relative path with `/`, sorted.
   * Folders and links are left out; links are not followed.
   *
   * @returns `{ path: content }`.
   */
  snapshot(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, kind] of this.walk()) {
      if (kind === "file") out[path] = decodeUtf8Lenient(this.host.readFileSync(this.hostPath(path.split("/"))));
    }
    return out;
  }

  /**
   * Every symbolic link in the workspace with its stored target, keyed by
   * workspace-relative path, sorted. Links are not followed.
   *
   * @returns `{ path: target }`.
   */
  snapshotLinks(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [path, kind] of this.walk()) {
      if (kind === "symlink") out[path] = this.host.readlinkSync(this.hostPath(path.split("/")));
    }
    return out;
  }

  /** Every entry below the root, depth first, sorted by path; never through a link. */
  private walk(): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    const visit = (segments: string[]): void => {
      for (const entry of this.host.readdirSync(this.hostPath(segments))) {
        const child = [...segments, entry.name];
        out.push([child.join("/"), entry.kind]);
        if (entry.kind === "directory") visit(child);
      }
    };
    visit([]);
    return out.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

type Settled = "timeout" | { reply: ExecReply | undefined };

// Waits for a scripted reply, bounded by the time limit and the abort signal.
function settle(
  pending: Promise<ExecReply | undefined>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<Settled> {
  return new Promise<Settled>((resolve, reject) => {
    const timer = setTimeout(() => finish(() => resolve("timeout")), timeoutMs);
    const onAbort = (): void => finish(() => reject(abortError(signal)));
    const finish = (then: () => void): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      then();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    pending.then(
      (reply) => finish(() => resolve({ reply })),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
