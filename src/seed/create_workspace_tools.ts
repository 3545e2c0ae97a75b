import { isAbortError, WorkspaceError } from "../core/errors.ts";
import { createHostShellProvider } from "../core/process/host_shell_provider.ts";
import type { ReadFileInput } from "../tools/read_file.ts";
import { createReadTool } from "../tools/read_file.ts";
import type { JsonSchema, Tool, ToolExecuteOptions } from "../tools/tool.ts";
import { deferredRoot, workspaceGetter, type WorkspaceSource } from "../tools/workspace_source.ts";
import { createWriteTool, type WriteFileInput } from "../tools/write_file.ts";
import {
  BASH_MAX_BUFFER_BYTES,
  BASH_TIMEOUT_MS,
  MAX_READ_CHARS,
  READ_KEEP_CHARS,
  WORKSPACE_TOOLS_MAX_FILE_BYTES,
} from "./workspace_tools_limits.ts";

/** What a seed 004 tool returns: text for the model, and whether it reports a failure. */
export interface WorkspaceToolResult {
  /** The file's (maybe cut) text, the command's output, or what went wrong. */
  content: string;
  /** Set on failures. @default undefined (success) */
  isError?: boolean;
}

/** A seed 004 tool's declaration, as sent to a provider. */
export interface WorkspaceToolSpec {
  /** The tool's name (`read`, `write`, `bash`). */
  name: string;
  /** What the model reads about it. */
  description: string;
  /** Its arguments, as JSON Schema. */
  inputSchema: JsonSchema;
}

/**
 * One of seed 004's tools. Its own `execute(input, signal?)` never throws: a
 * bad input or a failure is `{ content, isError: true }` (an abort too, as the
 * seed's does). It is also a Paddock {@link Tool}, so a `ToolRegistry`,
 * `executeToolCall`, hooks such as `denyBashByDefault` and the agent loop
 * take it; there `validate` and `run` throw `WorkspaceError`s as every tool's do.
 */
export interface WorkspaceTool extends Tool<unknown, WorkspaceToolResult> {
  /** The declaration: name, description and JSON Schema. */
  readonly spec: WorkspaceToolSpec;
  /** Runs the call; resolves to the result, failures included. */
  execute(input: unknown, signal?: AbortSignal | ToolExecuteOptions): Promise<WorkspaceToolResult>;
}

/**
 * Seed 004's read head+tail cut: up to {@link MAX_READ_CHARS} characters come
 * back whole; a longer text keeps its first and last {@link READ_KEEP_CHARS}
 * around a line `[truncated N characters]` (N = length − 16,000).
 *
 * @param content The whole text.
 * @returns The text for the model.
 */
export function truncateReadContent(content: string): string {
  if (content.length <= MAX_READ_CHARS) return content;
  return `${content.slice(0, READ_KEEP_CHARS)}\n[truncated ${content.length - MAX_READ_CHARS} characters]\n${
    content.slice(-READ_KEEP_CHARS)
  }`;
}

function schema(required: string[], properties: Record<string, unknown>): JsonSchema {
  return { type: "object", properties, required, additionalProperties: false };
}

// The seed's stringField: a string property of an object (not null, not an array), else undefined.
function stringField(input: unknown, field: string): string | undefined {
  const object = typeof input === "object" && input !== null && !Array.isArray(input)
    ? input as Record<string, unknown>
    : undefined;
  const value = object?.[field];
  return typeof value === "string" ? value : undefined;
}

function invalidInput(text: string): WorkspaceError {
  return new WorkspaceError("INVALID_ARGUMENTS", text, { hint: text });
}

// The text a failure shows the model: the seed's wording where it has one.
function failureText(error: unknown): string {
  if (isAbortError(error)) return "The operation was aborted";
  if (!(error instanceof WorkspaceError)) return "The tool failed unexpectedly";
  if (error.code === "INVALID_RELATIVE_PATH" || error.code === "PATH_ESCAPES_WORKSPACE") {
    return `path escapes workspace: ${error.message}`;
  }
  return error.message;
}

function workspaceTool(
  spec: WorkspaceToolSpec,
  readOnly: boolean,
  validate: (args: unknown) => unknown,
  run: (input: unknown, signal: AbortSignal | undefined) => Promise<WorkspaceToolResult>,
): WorkspaceTool {
  return {
    spec,
    name: spec.name,
    description: spec.description,
    inputSchema: spec.inputSchema,
    readOnly,
    needsApproval: false,
    validate,
    run: (input, options = {}) => run(input, options.signal),
    execute: async (input, signalOrOptions) => {
      const signal = signalOrOptions === undefined || typeof (signalOrOptions as AbortSignal).aborted === "boolean"
        ? signalOrOptions as AbortSignal | undefined
        : (signalOrOptions as ToolExecuteOptions).signal;
      try {
        return await run(validate(input), signal);
      } catch (error) {
        return { content: failureText(error), isError: true };
      }
    },
  };
}

/**
 * Seed 004's three tools, on Paddock's confined core:
 *
 * - `read {path}`: the file's text, cut to head + tail past
 *   {@link MAX_READ_CHARS} characters (see {@link truncateReadContent});
 * - `write {path, content}`: creates or replaces the file atomically, creating
 *   missing folders; returns `Wrote N bytes to path`;
 * - `bash {command}`: runs `$SHELL` (or `/bin/sh`) `-c command` in the
 *   workspace root, {@link BASH_TIMEOUT_MS} at most, {@link BASH_MAX_BUFFER_BYTES}
 *   of stdout and of stderr at most; returns stdout then stderr (cut to that
 *   many characters). A non-zero exit (`Command failed: …` with stderr), a
 *   timeout (`Command timed out after 10000 ms: …`) or a full buffer
 *   (`stdout maxBuffer length exceeded`) is a failure.
 *
 * Inputs are checked at run time whatever the schema said: `invalid read
 * input: path must be a string`, `invalid write input: path and content must
 * be strings`, `invalid bash input: command must be a string`. Paths go
 * through Paddock's grammar and confined walk (symlinks out are refused);
 * those refusals read `path escapes workspace: …`. The shell is not confined:
 * add `denyBashByDefault()` as a `beforeToolCall` hook in production.
 *
 * @param root The workspace folder (or an opened workspace).
 * @returns `[read, write, bash]`.
 *
 * @example
 * ```ts
 * import { createWorkspaceTools } from "@paddock/tools";
 * const [read, write, bash] = createWorkspaceTools("./project");
 * await write.execute({ path: "nested/a.txt", content: "hi\n" }); // { content: "Wrote 3 bytes to nested/a.txt" }
 * await read.execute({ path: "/etc/passwd" }); // { content: "path escapes workspace: …", isError: true }
 * ```
 */
export function createWorkspaceTools(root: WorkspaceSource): WorkspaceTool[] {
  const shared = typeof root === "string" ? deferredRoot(root) : root;
  const getWorkspace = workspaceGetter(shared);
  const readTool = createReadTool(shared, { maxBytes: WORKSPACE_TOOLS_MAX_FILE_BYTES });
  const writeTool = createWriteTool(shared, { maxBytes: WORKSPACE_TOOLS_MAX_FILE_BYTES });

  const read = workspaceTool(
    {
      name: "read",
      description: `Read a UTF-8 text file in the workspace; past ${MAX_READ_CHARS} characters the middle is cut.`,
      inputSchema: schema(["path"], { path: { type: "string" } }),
    },
    true,
    (args) => {
      const path = stringField(args, "path");
      if (path === undefined) throw invalidInput("invalid read input: path must be a string");
      return readTool.validate({ path });
    },
    async (input, signal) => {
      const output = await readTool.run(input as ReadFileInput, { signal });
      return { content: truncateReadContent(output.content) };
    },
  );

  const write = workspaceTool(
    {
      name: "write",
      description: "Create or replace a text file in the workspace (missing folders are created).",
      inputSchema: schema(["path", "content"], { path: { type: "string" }, content: { type: "string" } }),
    },
    false,
    (args) => {
      const path = stringField(args, "path");
      const content = stringField(args, "content");
      if (path === undefined || content === undefined) {
        throw invalidInput("invalid write input: path and content must be strings");
      }
      return writeTool.validate({ path, content });
    },
    async (input, signal) => {
      const output = await writeTool.run(input as WriteFileInput, { signal });
      return { content: `Wrote ${output.bytes} bytes to ${output.path}` };
    },
  );

  const bash = workspaceTool(
    {
      name: "bash",
      description:
        `Run a shell command in the workspace root (${BASH_TIMEOUT_MS} ms, ${BASH_MAX_BUFFER_BYTES} bytes of output at most).`,
      inputSchema: schema(["command"], { command: { type: "string" } }),
    },
    false,
    (args) => {
      const command = stringField(args, "command");
      if (command === undefined) throw invalidInput("invalid bash input: command must be a string");
      return command;
    },
    async (input, signal) => {
      const command = input as string;
      const workspace = await getWorkspace();
      // Read per call, as the seed's process.env.SHELL is.
      const shell = workspace.host.environment().SHELL ?? "/bin/sh";
      const result = await createHostShellProvider(workspace, { shell }).exec(command, {
        timeoutMs: BASH_TIMEOUT_MS,
        maxOutputBytes: BASH_MAX_BUFFER_BYTES,
        signal,
      });
      const line = `${shell} -c ${command}`;
      for (const stream of ["stdout", "stderr"] as const) {
        if (result[`${stream}Truncated`]) {
          throw new WorkspaceError("OUTPUT_TOO_LARGE", `${stream} maxBuffer length exceeded`);
        }
      }
      if (result.timedOut) {
        throw new WorkspaceError(
          "SHELL_TIMEOUT",
          `Command timed out after ${BASH_TIMEOUT_MS} ms: ${line}\n${result.stderr}`,
        );
      }
      if (result.exitCode !== 0) {
        throw new WorkspaceError("COMMAND_FAILED", `Command failed: ${line}\n${result.stderr}`);
      }
      return { content: `${result.stdout}${result.stderr}`.slice(0, BASH_MAX_BUFFER_BYTES) };
    },
  );
  return [read, write, bash];
}
