import * as z from "zod";
import { isWorkspaceError, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { relativeInside, relativePathHint } from "../core/path/relative_inside.ts";
import { Workspace } from "../core/fs/workspace.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";

/** A JSON Schema object, as advertised to models. */
export type JsonSchema = Record<string, unknown>;

/** How far a long call has got (`grep`, `find_files`), for a caller to show. */
export interface ToolProgress {
  /** Work done so far (files searched, entries visited); grows with each report. */
  progress: number;
  /** The whole amount, when known. */
  total?: number;
  /** The same in words. */
  message?: string;
}

/** Per-call options of {@link Tool.execute}. */
export interface ToolExecuteOptions {
  /** Cancels the call: it rejects with an AbortError after cleaning up. @default undefined (not cancellable) */
  signal?: AbortSignal;
  /** Called now and then (at most every 250 ms) while a long call runs; tools that report none never call it. @default undefined */
  onProgress?: (progress: ToolProgress) => void;
}

/**
 * A tool an agent can call: a name, a description for the model, the JSON
 * Schema of its arguments, and `execute`.
 *
 * `execute` validates the whole input before any side effect, then runs. It
 * resolves to the tool's output and throws a {@link WorkspaceError} (or an
 * AbortError) on failure; `executeToolCall` turns those into results.
 *
 * `Args` is the type of the arguments `execute` takes, as the schema
 * describes them (a built-in tool's `…Arguments` type): a call written in
 * code is checked by the compiler; arguments from a model are checked by
 * `validate` at run time whatever their type.
 */
export interface Tool<Input = unknown, Output = unknown, Args = unknown> {
  /** The name the model calls it by. */
  readonly name: string;
  /** What it does, for the model. */
  readonly description: string;
  /** JSON Schema of the arguments (`additionalProperties: false`). */
  readonly inputSchema: JsonSchema;
  /** Whether the tool never changes anything (files, processes). */
  readonly readOnly: boolean;
  /**
   * Whether a call may reach the network or other things outside the
   * workspace beyond its files (MCP `openWorldHint`). @default false
   */
  readonly openWorld?: boolean;
  /**
   * Whether a call must be approved by a person before it runs (checked by
   * the call layer after validation, before any side effect).
   * @default false
   */
  readonly needsApproval?: boolean | ((input: Input) => boolean | Promise<boolean>);
  /** Checks raw arguments without side effects. @throws {WorkspaceError} an argument error code */
  validate(args: unknown): Input;
  /** Runs with validated input. */
  run(input: Input, options?: ToolExecuteOptions): Promise<Output>;
  /** `validate` (which checks `args` at run time too), then `run`. */
  execute(args: Args, options?: ToolExecuteOptions): Promise<Output>;
}

/** A tool of any input, output and arguments. */
// deno-lint-ignore no-explicit-any
export type AnyTool = Tool<any, any, any>;

/**
 * A workspace opened on first use and then shared: what the tool factories
 * make of a root path, so that tools made together share one workspace.
 */
export class LazyWorkspace {
  private opened: Promise<Workspace> | undefined;
  #current: Workspace | undefined;

  /**
   * Makes a workspace source for `root`; nothing is opened yet.
   *
   * @param root The root folder, opened with the default host at first use.
   */
  constructor(readonly root: string) {}

  /** Opens the workspace once; a failed open is tried again on the next call. */
  open(): Promise<Workspace> {
    return this.opened ??= openWorkspace(this.root).then((workspace) => (this.#current = workspace), (error) => {
      this.opened = undefined; // a root that appears later can still be opened
      throw error;
    });
  }

  /** The workspace, once {@link LazyWorkspace.open} has opened it; `undefined` before. */
  get current(): Workspace | undefined {
    return this.#current;
  }
}

/** A workspace, or the root folder to open one on (with the default host) at first use. */
export type WorkspaceSource = Workspace | LazyWorkspace | string;

/** Options every tool factory takes. */
export interface BaseToolOptions {
  /** The name the tool is registered under. @default the tool's own name, e.g. "read_file" */
  name?: string;
  /** The description the model sees. @default the tool's own description */
  description?: string;
}

/** A tool's workspace: opened once, on first use; and its root folders known so far, without I/O. */
export interface WorkspaceGetter {
  /** Opens (or takes) the workspace. */
  (): Promise<Workspace>;
  /** The canonical root and the root as given, when known now (for hints); none before a lazy root is opened, but the given root if absolute. */
  roots(): string[];
}

/** Returns a memoised getter that opens `source` once, on first use. */
export function workspaceGetter(source: WorkspaceSource): WorkspaceGetter {
  const lazy = source instanceof Workspace
    ? undefined
    : source instanceof LazyWorkspace
    ? source
    : new LazyWorkspace(source);
  const getter = (): Promise<Workspace> => lazy === undefined ? Promise.resolve(source as Workspace) : lazy.open();
  const roots = (): string[] => {
    const opened = lazy === undefined ? source as Workspace : lazy.current;
    if (opened !== undefined) return [opened.root, opened.rootEntry];
    // Not opened yet: the root as given, when it is absolute (a hint compares strings only).
    return lazy !== undefined && /^(?:\/|[A-Za-z]:[\\/])/.test(lazy.root) ? [lazy.root] : [];
  };
  return Object.assign(getter, { roots });
}

/**
 * An argument error for an absolute path that lies inside the workspace,
 * with a hint naming the workspace-relative form; any other error unchanged.
 *
 * @param error What validation threw.
 * @param args The raw arguments.
 * @param roots The workspace's roots known now ({@link WorkspaceGetter.roots}).
 * @returns The error to throw.
 */
export function withRelativeHint(error: unknown, args: unknown, roots: readonly string[]): unknown {
  if (!isWorkspaceError(error, "INVALID_RELATIVE_PATH") || typeof args !== "object" || args === null) return error;
  for (const value of Object.values(args)) {
    // Only the path that was refused (not, say, a file's content that looks like one).
    if (typeof value !== "string" || (error.path !== undefined && value !== error.path)) continue;
    for (const root of roots) {
      const relative = relativeInside(value, root);
      if (relative !== undefined) {
        return new WorkspaceError("INVALID_RELATIVE_PATH", error.message, {
          hint: relativePathHint(relative),
          path: error.path,
          cause: error,
        });
      }
    }
  }
  return error;
}

/**
 * A zod 4 schema, as {@link defineTool} takes it: seen through the Standard
 * Schema interface zod implements, so that Paddock's public types name none
 * of zod's. `Args` is the type it parses to, `ArgsIn` the type it accepts
 * (the two differ where the schema has defaults or transforms).
 */
export interface ToolArgumentsSchema<Args, ArgsIn = Args> {
  /** The Standard Schema properties (zod 4 sets them on every schema). */
  readonly "~standard": {
    readonly vendor: string;
    readonly types?: { readonly input: ArgsIn; readonly output: Args } | undefined;
  };
}

/** What {@link defineTool} builds a tool from. */
export interface ToolDefinition<Args, Input, Output, ArgsIn = Args> {
  /** The name the model calls it by. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** Whether the tool never changes anything. */
  readOnly: boolean;
  /** The zod 4 schema of the arguments (an object schema, usually `.strict()`). */
  schema: ToolArgumentsSchema<Args, ArgsIn>;
  /** Checks beyond the schema (path grammar, sizes); returns the prepared input. */
  prepare: (args: Args) => Input;
  /** Runs with the prepared input. */
  run: (input: Input, options: ToolExecuteOptions) => Promise<Output>;
  /**
   * The workspace's root folders known now, so that an absolute path inside
   * one is refused with a hint naming its relative form.
   * @default undefined (the generic hint)
   */
  workspaceRoots?: () => readonly string[];
}

/**
 * Builds a {@link Tool} from a zod schema: the advertised JSON Schema, the
 * validation and the type of `execute`'s argument come from the same
 * definition.
 *
 * @param definition The name, description, schema and the steps.
 * @returns The tool; its `execute` takes what the schema accepts.
 * @throws {TypeError} when `schema` is not a zod schema.
 *
 * @example A tool that says hello
 * ```ts
 * import * as z from "zod";
 * import { defineTool } from "@paddock/tools";
 * const hello = defineTool({
 *   name: "hello",
 *   description: "Greets someone",
 *   readOnly: true,
 *   schema: z.object({ name: z.string() }).strict(),
 *   prepare: (args) => args,
 *   run: (input) => Promise.resolve({ greeting: `Hello, ${input.name}` }),
 * });
 * const { greeting } = await hello.execute({ name: "Ada" }); // `{ name: 1 }` does not compile
 * ```
 */
export function defineTool<Args, Input, Output, ArgsIn = Args>(
  definition: ToolDefinition<Args, Input, Output, ArgsIn>,
): Tool<Input, Output, ArgsIn> {
  if (definition.schema?.["~standard"]?.vendor !== "zod") {
    throw new TypeError(`defineTool('${definition.name}'): schema must be a zod 4 schema`);
  }
  const schema = definition.schema as unknown as z.ZodType<Args>;
  const inputSchema = z.toJSONSchema(schema, { target: "draft-7", io: "input" }) as JsonSchema;
  delete inputSchema.$schema;
  const validate = (args: unknown): Input => {
    try {
      return definition.prepare(parseArguments(schema, args));
    } catch (error) {
      throw definition.workspaceRoots === undefined
        ? error
        : withRelativeHint(error, args, definition.workspaceRoots());
    }
  };
  const run = (input: Input, options: ToolExecuteOptions = {}): Promise<Output> => definition.run(input, options);
  return {
    name: definition.name,
    description: definition.description,
    inputSchema,
    readOnly: definition.readOnly,
    validate,
    run,
    execute: async (args, options) => await run(validate(args), options),
  };
}

/**
 * Parses `args` against `schema`, turning the first problem into a
 * `INVALID_ARGUMENTS` error whose hint names the property.
 */
export function parseArguments<Schema extends z.ZodType>(schema: Schema, args: unknown): z.infer<Schema> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new WorkspaceError("INVALID_ARGUMENTS", "Invalid arguments: expected a JSON object", {
      hint: "pass the arguments as a JSON object with the properties the schema lists",
    });
  }
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
  let hint: string;
  if (issue.code === "unrecognized_keys") hint = `unknown property ${issue.keys.map((key) => `'${key}'`).join(", ")}`;
  else if (issue.code === "invalid_type" && valueAt(args, issue.path) === undefined) {
    hint = `missing property '${where}'`;
  } else if (issue.code === "invalid_type") hint = `property '${where}': expected ${issue.expected}`;
  else hint = `property '${where}': ${issue.message}`;
  throw invalidArguments(hint);
}

/**
 * The `INVALID_ARGUMENTS` error for a problem the schema cannot express; the
 * hint, which names the property, is also the end of the message.
 *
 * @param hint What is wrong, e.g. "missing property 'new_string'".
 * @returns The error to throw from a tool's `prepare`.
 */
export function invalidArguments(hint: string): WorkspaceError {
  return new WorkspaceError("INVALID_ARGUMENTS", `Invalid arguments: ${hint}`, { hint });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/**
 * The first steps of a call on one workspace path: open (or take) the
 * workspace, name the path for messages, stop if aborted, and check that the
 * root is still the folder that was opened.
 *
 * @param getWorkspace The tool's workspace getter.
 * @param segments The normalized path.
 * @param signal The call's abort signal.
 * @returns The workspace and the path as shown in results and errors (`.` for the root).
 */
export async function beginCall(
  getWorkspace: () => Promise<Workspace>,
  segments: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ ws: Workspace; display: string }> {
  const ws = await getWorkspace();
  const display = segments.join("/") || ".";
  throwIfAborted(signal);
  await ws.checkRoot();
  return { ws, display };
}
