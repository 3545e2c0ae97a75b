import * as z from "zod";
import { isWorkspaceError, WorkspaceError } from "../core/errors.ts";
import { relativeInside, relativePathHint } from "../core/path/relative_inside.ts";
import { parseArguments } from "./parse_arguments.ts";
import { runJournaledCall } from "../core/fs/call_scope.ts";
import type { JsonSchema, Tool, ToolExecuteOptions } from "./tool.ts";
import { nearestNamesHint } from "../core/fs/nearest_names.ts";
import type { Workspace } from "../core/fs/workspace.ts";

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
  /**
   * The workspace the tool works in, so that a `NOT_FOUND` without a hint of
   * its own gets the names nearest the missing one (listed through the
   * confined walk, bounded by `NOT_FOUND_HINT_MAX_ENTRIES`).
   * @default undefined (the code's usual hint)
   */
  workspace?: () => Promise<Workspace>;
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
  const runOnce = definition.readOnly
    ? (input: Input, options: ToolExecuteOptions = {}): Promise<Output> => definition.run(input, options)
    // The changes of one call form one group of the change journal (what undo_last_change takes back).
    : (input: Input, options: ToolExecuteOptions = {}): Promise<Output> =>
      runJournaledCall(() => definition.run(input, options));
  const run = definition.workspace === undefined ? runOnce : async (
    input: Input,
    options: ToolExecuteOptions = {},
  ): Promise<Output> => {
    try {
      return await runOnce(input, options);
    } catch (error) {
      throw await withNearestNames(error, definition.workspace!, options.signal);
    }
  };
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
 * A `NOT_FOUND` with a path and no hint of its own, with the nearest names as
 * its hint ({@link nearestNamesHint}); any other error unchanged. Not after
 * an abort: a cancelled call lists nothing more.
 *
 * @param error What the call threw.
 * @param workspace The tool's workspace.
 * @param signal The call's signal.
 * @returns The error to throw.
 */
async function withNearestNames(
  error: unknown,
  workspace: () => Promise<Workspace>,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  if (!isWorkspaceError(error, "NOT_FOUND") || error.hint !== undefined || error.path === undefined) return error;
  if (signal?.aborted) return error;
  const hint = await workspace().then((opened) => nearestNamesHint(opened, error.path!), () => undefined);
  if (hint === undefined) return error;
  return new WorkspaceError("NOT_FOUND", error.message, {
    hint,
    path: error.path,
    cause: error.cause,
    details: error.details,
  });
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
