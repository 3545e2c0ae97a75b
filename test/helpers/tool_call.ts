import { expect } from "vitest";
import { createReadTool, createWriteTool, executeToolCall, ToolRegistry } from "../../mod.ts";
import type { Tree } from "./fixture.ts";
import type { TestWorkspace } from "./hosts.ts";

/**
 * Builds a workspace from `tree`, runs `body` with a registry of read_file and
 * write_file over it, then asserts what every such test must hold: no temp
 * file left and nothing outside the workspace changed.
 */
export async function withReadWriteWorkspace(
  open: (tree: Tree) => Promise<TestWorkspace>,
  tree: Tree,
  body: (ws: TestWorkspace, registry: ToolRegistry) => Promise<void>,
): Promise<void> {
  const ws = await open(tree);
  try {
    const registry = new ToolRegistry([createReadTool(ws.workspace), createWriteTool(ws.workspace)]);
    await body(ws, registry);
    expect(await ws.leftovers()).toEqual([]);
    expect(await ws.outsideIntact()).toBe(true);
  } finally {
    await ws.cleanup();
  }
}

/** Runs one call through executeToolCall and parses its JSON content. */
export async function callTool(
  registry: ToolRegistry,
  name: string,
  args: unknown,
  // deno-lint-ignore no-explicit-any
): Promise<{ isError: boolean; body: any }> {
  const result = await executeToolCall(registry, { id: "c1", name, arguments: args });
  return { isError: result.isError, body: JSON.parse(result.content) };
}

/** Runs one call that must succeed (`isError` false, the body in the message otherwise); returns its body. */
// deno-lint-ignore no-explicit-any
export async function callOk(registry: ToolRegistry, name: string, args: unknown): Promise<any> {
  const { isError, body } = await callTool(registry, name, args);
  expect(isError, JSON.stringify(body).slice(0, 2_000)).toBe(false);
  return body;
}

/** Runs one call that must fail (`isError` true); returns its body's `error`. */
// deno-lint-ignore no-explicit-any
export async function callFailure(registry: ToolRegistry, name: string, args: unknown): Promise<any> {
  const { isError, body } = await callTool(registry, name, args);
  expect(isError, JSON.stringify(body).slice(0, 2_000)).toBe(true);
  return body.error;
}
