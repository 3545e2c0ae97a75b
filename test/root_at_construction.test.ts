// #43: a root path that does not exist is refused where the tools are made (the program's author),
// not handed to the model as WORKSPACE_ROOT_INVALID at every call.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  createCodingTools,
  createReadOnlyTools,
  createReadTool,
  createWorkspaceTools,
  executeToolCall,
  NodeWorkspace,
  ToolRegistry,
  WorkspaceError,
} from "../mod.ts";
import { createMemoryHost } from "../testing.ts";
import { checkRootNow } from "../src/core/fs/check_root_now.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { runtime } from "./helpers/runtime.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

function thrown(make: () => unknown): WorkspaceError {
  try {
    make();
  } catch (error) {
    if (error instanceof WorkspaceError) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
}

describe(`[${runtime}] a root path that does not exist fails at construction`, () => {
  const factories: [string, (root: string) => unknown][] = [
    ["createCodingTools", (root) => createCodingTools(root)],
    ["createReadOnlyTools", (root) => createReadOnlyTools(root)],
    ["createReadTool", (root) => createReadTool(root)],
    ["createWorkspaceTools", (root) => createWorkspaceTools(root)],
  ];

  test.each(factories)("%s(missing) throws WORKSPACE_ROOT_INVALID naming the root as given", async (_, make) => {
    fixture = await diskFixture(["f.txt=x"]);
    const missing = path.join(fixture.parent, "no-such-dir");
    const error = thrown(() => make(missing));
    expect(error.code).toBe("WORKSPACE_ROOT_INVALID");
    expect(error.message).toBe(`Cannot open workspace '${missing}': the root folder does not exist`);
    expect(error.hint).toMatch(/existing folder/);
    // A relative root is named as given too.
    const relative = path.relative(process.cwd(), missing);
    expect(thrown(() => make(relative)).message).toBe(
      `Cannot open workspace '${relative}': the root folder does not exist`,
    );
    // A file is no folder; a path through a file does not exist.
    expect(thrown(() => make(fixture!.abs("f.txt"))).message).toMatch(/: the root is not a folder$/);
    expect(thrown(() => make(path.join(fixture!.abs("f.txt"), "x"))).message).toMatch(/does not exist$/);
    // Nothing was created on the way.
    expect(fs.existsSync(missing)).toBe(false);
  });

  test("an existing root builds, and one removed after construction is reported at the call", async () => {
    fixture = await diskFixture(["a.txt=hi"]);
    const root = path.join(fixture.parent, "later");
    fs.mkdirSync(root);
    const registry = new ToolRegistry(createCodingTools(root));
    fs.rmdirSync(root);
    const result = await executeToolCall(registry, { id: "1", name: "read_file", arguments: { path: "a.txt" } });
    expect(JSON.parse(result.content).error.code).toBe("WORKSPACE_ROOT_INVALID");
  });

  test("a link to a folder is a folder; a dangling link does not exist", async () => {
    fixture = await diskFixture(["d/", "to-d => d", "dangling => nowhere"]);
    expect(() => createCodingTools(fixture!.abs("to-d"))).not.toThrow();
    expect(thrown(() => createCodingTools(fixture!.abs("dangling"))).message).toMatch(/does not exist$/);
  });

  test("checkRootNow uses the host it is given, and leaves what it cannot see to the open", () => {
    const host = createMemoryHost();
    host.mkdirSync("/w");
    host.writeFileSync("/w/f.txt", "x");
    expect(() => checkRootNow("/w", host)).not.toThrow();
    expect(thrown(() => checkRootNow("/nope", host)).code).toBe("WORKSPACE_ROOT_INVALID");
    expect(thrown(() => checkRootNow("/w/f.txt", host)).message).toMatch(/not a folder$/);
    expect(thrown(() => checkRootNow("", host)).message).toMatch(/empty or invalid$/);
    // A host without a synchronous stat: the first open decides.
    const { statSync: _, ...withoutStat } = host;
    expect(() => checkRootNow("/nope", withoutStat)).not.toThrow();
  });

  test("the seed documents' NodeWorkspace stays lazy: a missing root fails at its first use", async () => {
    fixture = await diskFixture([]);
    const workspace = new NodeWorkspace({ root: path.join(fixture.parent, "missing") });
    await expect(workspace.exec("true")).rejects.toMatchObject({ code: "WORKSPACE_ROOT_INVALID" });
  });
});
