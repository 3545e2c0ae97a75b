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

/** Options every tool factory takes. */
export interface BaseToolOptions {
  /** The name the tool is registered under. @default the tool's own name, e.g. "read_file" */
  name?: string;
  /** The description the model sees. @default the tool's own description */
  description?: string;
}
