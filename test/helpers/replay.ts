import { expect } from "vitest";
import { createCodingTools, ToolRegistry, type Workspace } from "../../mod.ts";
import type { HostilePathCase } from "../cases/hostile_paths.ts";
import type { SymlinkCase } from "../cases/symlink_fixtures.ts";
import type { ReplayTool } from "../cases/tool_replay.ts";
import { pathArgumentError } from "./codes.ts";
import { OUTSIDE_SECRET } from "./fixture.ts";
import type { TestWorkspace } from "./hosts.ts";
import { callTool } from "./tool_call.ts";

/**
 * A registry of every tool in PATH_TOOLS, with default options, over `workspace` (the coding tools hold them all);
 * without the stale-write guard: the tables test confinement (test/stale_write_guard.test.ts tests the guard).
 */
export function pathToolRegistry(workspace: Workspace): ToolRegistry {
  return new ToolRegistry(createCodingTools(workspace, { staleWriteGuard: false }));
}

/**
 * Calls `tool` on a hostile path through executeToolCall and asserts the exact
 * argument error, and that nothing changed inside or outside the workspace
 * (no temp file left either).
 */
export async function replayHostile(tw: TestWorkspace, tool: ReplayTool, row: HostilePathCase): Promise<void> {
  const before = await tw.listAll();
  const { isError, body } = await callTool(pathToolRegistry(tw.workspace), tool.name, tool.args(row.path));
  expect(isError).toBe(true);
  expect(body).toEqual({ error: pathArgumentError(row.path, row.code, row.hint) });
  expect(await tw.listAll()).toEqual(before);
  expect(await tw.outsideIntact()).toBe(true);
  expect(await tw.leftovers()).toEqual([]);
}

/**
 * Calls `tool` on a symlink case through executeToolCall and asserts what
 * `tool.onLink(row)` says: the code, the entries gone and added, the content
 * of the files it names (and of the one the result returns); and for every
 * row, that nothing outside changed, no temp file is left and no outside byte
 * is in the result.
 */
export async function replayLink(tw: TestWorkspace, tool: ReplayTool, row: SymlinkCase): Promise<void> {
  const expected = tool.onLink(row);
  const before = await tw.listAll();
  const { isError, body } = await callTool(pathToolRegistry(tw.workspace), tool.name, tool.args(row.path));
  expect(isError ? body.error.code : null).toBe(expected.code);
  const after = [...before.filter((entry) => !expected.gone.includes(entry)), ...expected.added].sort();
  expect(await tw.listAll()).toEqual(after);
  for (const [file, content] of Object.entries(expected.contents)) expect(await tw.readRaw(file)).toBe(content);
  if (expected.code === null && expected.returns !== undefined) {
    expect(body.content).toBe(await tw.readRaw(expected.returns));
  }
  if (expected.code === null && expected.result !== undefined) expect(body).toMatchObject(expected.result);
  expect(JSON.stringify(body)).not.toContain(OUTSIDE_SECRET);
  expect(await tw.outsideIntact()).toBe(true);
  expect(await tw.leftovers()).toEqual([]);
}
