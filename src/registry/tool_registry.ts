import type { AnyTool, JsonSchema } from "../tools/tool.ts";

/** A tool's definition as advertised to a model. */
export interface ToolDefinitionJson {
  /** The tool's name. */
  name: string;
  /** What it does, for the model. */
  description: string;
  /** JSON Schema of the arguments. */
  inputSchema: JsonSchema;
}

/**
 * The tools an agent may call, by name.
 *
 * @example Registering tools
 * ```ts
 * import { createCodingTools, ToolRegistry } from "@paddock/tools";
 * const registry = new ToolRegistry(createCodingTools("./project"));
 * registry.definitions(); // [{ name: "read_file", description, inputSchema }, …]
 * ```
 */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

  /**
   * Makes a registry holding `tools`.
   *
   * @param tools Tools to register at once.
   */
  constructor(tools: Iterable<AnyTool> = []) {
    for (const tool of tools) this.register(tool);
  }

  /**
   * Adds a tool.
   * @throws {Error} When a tool of the same name is already registered.
   */
  register(tool: AnyTool): this {
    if (this.tools.has(tool.name)) throw new Error(`Cannot register tool: '${tool.name}' is already registered`);
    this.tools.set(tool.name, tool);
    return this;
  }

  /**
   * Adds several tools, in order.
   * @throws {Error} When a name is already registered (the tools before it stay registered).
   */
  registerMany(tools: Iterable<AnyTool>): this {
    for (const tool of tools) this.register(tool);
    return this;
  }

  /** The tool named `name`, if registered. */
  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  /** Whether a tool named `name` is registered. */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** All tools, in registration order. */
  list(): AnyTool[] {
    return [...this.tools.values()];
  }

  /** Tool definitions (name, description, JSON Schema), in registration order. */
  definitions(): ToolDefinitionJson[] {
    return this.list().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  }
}
