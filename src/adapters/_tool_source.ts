import { type ToolDefinitionJson, ToolRegistry } from "../registry/tool_registry.ts";

/** Tools to describe to a model: a registry, or any list of tools (or of their definitions). */
export type ToolSource = ToolRegistry | Iterable<ToolDefinitionJson>;

/** The definitions of `source`, in order. */
export function definitionsOf(source: ToolSource): ToolDefinitionJson[] {
  if (source instanceof ToolRegistry) return source.definitions();
  return [...source].map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}
