import * as z from "zod";
import { isWorkspaceError, WorkspaceError } from "../core/errors.ts";
import { relativeInside, relativePathHint } from "../core/path/relative_inside.ts";
import { parseArguments } from "./parse_arguments.ts";
import { runJournaledCall } from "../core/fs/call_scope.ts";
import type { JsonSchema, Tool, ToolExecuteOptions } from "./tool.ts";

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
  const run = definition.readOnly
    ? (input: Input, options: ToolExecuteOptions = {}): Promise<Output> => definition.run(input, options)
    // The changes of one call form one group of the change journal (what undo_last_change takes back).
    : (input: Input, options: ToolExecuteOptions = {}): Promise<Output> =>
      runJournaledCall(() => definition.run(input, options));
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
