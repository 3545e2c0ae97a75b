// Protection lives with the workspace: the same toolset built tool by tool, in
// every order, over one workspace object, over root paths or over separate
// workspace objects on the same folder, refuses every change of the shared
// table with PROTECTED_PATH and leaves every byte as it was, on every host.
import { afterEach, describe, expect, test } from "vitest";
import * as z from "zod";
import {
  type AnyTool,
  createDeleteTool,
  createDirectoryTool,
  createEditTool,
  createMoveTool,
  createNodeProcessTool,
  createShellTool,
  createWriteTool,
  defineTool,
  executeToolCall,
  normalizeWorkspacePath,
  openWorkspace,
  ToolRegistry,
  type Workspace,
  type WorkspaceSource,
} from "../mod.ts";
import { protectedPathsInForce, protectionDeclared } from "../src/extend.ts";
import { atomicWrite } from "../host.ts";
import { MemoryWorkspace } from "../testing.ts";
import { DEFAULT_PROTECTED_PATHS } from "../src/core/fs/protected_paths.ts";
import {
  attackSource,
  PROTECTED_ABSENT,
  PROTECTED_ORIGINALS,
  PROTECTED_TOOL_CHANGES,
  PROTECTED_TREE,
  PROTECTED_WRITE_CASES,
} from "./cases/protected_writes.ts";
import { TEST_HOSTS, type TestHost, type TestWorkspace } from "./helpers/hosts.ts";
import { onBun } from "./helpers/runtime.ts";

const ALLOW = { allow: ["npm test", "git status"], needsApproval: false };

/** A custom tool as a user writes one: it saves text through the workspace's write path. */
function createSaveReportTool(source: Workspace | (() => Promise<Workspace>)): AnyTool {
  const getWorkspace = typeof source === "function" ? source : () => Promise.resolve(source);
  return defineTool({
    name: "save_report",
    description: "Saves a report",
    readOnly: false,
    schema: z.object({ path: z.string(), text: z.string() }).strict(),
    prepare: (args) => ({ segments: normalizeWorkspacePath(args.path), data: new TextEncoder().encode(args.text) }),
    run: async (input) => {
      await atomicWrite(await getWorkspace(), input.segments, input.data);
      return { saved: true };
    },
  });
}

type Source = (tw: TestWorkspace) => Promise<WorkspaceSource>;

/** How each tool gets its workspace: all share one object, each opens the root path, each its own object. */
const SOURCES: ReadonlyArray<{ name: string; disk: boolean; source: Source }> = [
  { name: "one workspace object", disk: false, source: (tw) => Promise.resolve(tw.workspace) },
  { name: "the root path for each tool", disk: true, source: (tw) => Promise.resolve(tw.workspace.root) },
  { name: "a workspace object of its own for each tool", disk: true, source: (tw) => openWorkspace(tw.workspace.root) },
];

type Builder = [name: string, (source: WorkspaceSource) => AnyTool];

const WRITERS: readonly Builder[] = [
  ["write_file", (source) => createWriteTool(source)],
  ["edit_file", (source) => createEditTool(source)],
  ["move_path", (source) => createMoveTool(source)],
  ["delete_path", (source) => createDeleteTool(source)],
  ["create_directory", (source) => createDirectoryTool(source)],
  ["node_process", (source) => createNodeProcessTool(source, { timeoutMs: 15_000 })],
  [
    "save_report",
    (source) =>
      createSaveReportTool(
        typeof source === "string" ? (() => openWorkspace(source)) : source as Workspace,
      ),
  ],
];
const SHELL: Builder = ["shell", (source) => createShellTool(source, ALLOW)];

/** The shell made first, between every two writers, and last; and every tool in reverse. */
const ORDERS: readonly Builder[][] = [
  ...Array.from({ length: WRITERS.length + 1 }, (_, at) => [...WRITERS.slice(0, at), SHELL, ...WRITERS.slice(at)]),
  [SHELL, ...WRITERS].reverse(),
];

async function expectIntact(tw: TestWorkspace, before: string[]): Promise<void> {
  for (const [file, bytes] of Object.entries(PROTECTED_ORIGINALS)) expect(await tw.readRaw(file)).toBe(bytes);
  for (const name of PROTECTED_ABSENT) expect(await tw.readRaw(name)).toBeNull();
  expect(await tw.listAll()).toEqual(before);
  expect(await tw.leftovers()).toEqual([]);
}

let opened: TestWorkspace | undefined;
afterEach(async () => {
  await opened?.cleanup();
  opened = undefined;
});

async function setup(host: TestHost): Promise<TestWorkspace> {
  opened = await host.open(PROTECTED_TREE);
  return opened;
}

for (const host of TEST_HOSTS) {
  describe(`protection lives with the workspace, on the ${host.name} host`, () => {
    for (const { name, disk, source } of SOURCES) {
      if (disk && host.name === "memory") continue;
      describe.each(ORDERS.map((order) => ({ order, label: order.map(([tool]) => tool).join(", ") })))(
        `${name}, made in the order $label`,
        ({ order }) => {
          test("every change of the table is PROTECTED_PATH and every byte stays", async () => {
            const tw = await setup(host);
            const tools: AnyTool[] = [];
            for (const [, build] of order) tools.push(build(await source(tw)));
            const registry = new ToolRegistry(tools);
            const before = await tw.listAll();
            let id = 0;
            for (const row of PROTECTED_TOOL_CHANGES) {
              const result = await executeToolCall(registry, { id: String(++id), name: row.tool, arguments: row.args });
              expect(JSON.parse(result.content).error?.code, row.name).toBe("PROTECTED_PATH");
              await expectIntact(tw, before);
            }
            // node_process: its runtime's write list leaves the protected paths out.
            const attack = PROTECTED_WRITE_CASES[0];
            const result = await executeToolCall(registry, {
              id: String(++id),
              name: "node_process",
              arguments: { source: attackSource(attack) },
            });
            const body = JSON.parse(result.content);
            if (!host.processes) expect(body.error?.code).toBe("SPAWN_FAILED");
            else if (onBun) expect(body.error?.code).toBe("NODE_PROCESS_PERMISSIONS_UNAVAILABLE");
            else expect(body.stdout).toMatch(/^FAILED /);
            await expectIntact(tw, before);
          }, 60_000);
        },
      );
    }

    test("without a shell allow list nothing is declared, and the same write goes through", async () => {
      const tw = await setup(host);
      createShellTool(tw.workspace, { needsApproval: false }); // no allow list: declares nothing
      expect(await protectedPathsInForce(tw.workspace)).toEqual([]);
      const write = createWriteTool(tw.workspace);
      await write.execute({ path: "package.json", content: "{}" });
      expect(await tw.readRaw("package.json")).toBe("{}");
    });

    test("the opt-outs are explicit: a tool's protectedPaths: [] or a shell's protectedPaths: []", async () => {
      const tw = await setup(host);
      const shell = createShellTool(tw.workspace, ALLOW);
      await createWriteTool(tw.workspace, { protectedPaths: [] }).execute({ path: "package.json", content: "{}" });
      expect(await tw.readRaw("package.json")).toBe("{}");
      expect(shell.name).toBe("shell");

      const other = await setup(host);
      createShellTool(other.workspace, { ...ALLOW, protectedPaths: [] });
      expect(await protectedPathsInForce(other.workspace)).toEqual([]);
      await createWriteTool(other.workspace).execute({ path: "package.json", content: "{}" });
      expect(await other.readRaw("package.json")).toBe("{}");
      await other.cleanup();
    });

    test("a tool's own list replaces what is in force, for that tool only", async () => {
      const tw = await setup(host);
      createShellTool(tw.workspace, ALLOW);
      const narrow = createWriteTool(tw.workspace, { protectedPaths: ["*.pem"] });
      await narrow.execute({ path: "lib/b.txt", content: "x" });
      await expect(narrow.execute({ path: "keys/server.pem", content: "x" })).rejects.toMatchObject({
        code: "PROTECTED_PATH",
      });
      await expect(createWriteTool(tw.workspace).execute({ path: "package.json", content: "{}" })).rejects
        .toMatchObject({ code: "PROTECTED_PATH" });
      expect(await tw.readRaw("package.json")).toBe(PROTECTED_ORIGINALS["package.json"]);
    });

    test("the workspace's own protectedPaths are in force with no shell at all", async () => {
      if (host.name === "memory") {
        const ws = new MemoryWorkspace({ files: { "keys/a.pem": "k" }, protectedPaths: ["*.pem"] });
        await expect(createWriteTool(ws).execute({ path: "keys/a.pem", content: "x" })).rejects.toMatchObject({
          code: "PROTECTED_PATH",
        });
        expect(ws.snapshot()["keys/a.pem"]).toBe("k");
        return;
      }
      const tw = await setup(host);
      const ws = await openWorkspace(tw.workspace.root, { protectedPaths: ["*.pem"] });
      expect(ws.protectedPaths).toEqual(["*.pem"]);
      // Declared for the folder: a tool over another object on it, or over the root path, refuses it too.
      for (const source of [ws, tw.workspace, tw.workspace.root]) {
        await expect(createWriteTool(source).execute({ path: "server.pem", content: "x" })).rejects.toMatchObject({
          code: "PROTECTED_PATH",
        });
      }
      expect(await tw.readRaw("server.pem")).toBeNull();
    });
  });
}

describe("what is declared, and where", () => {
  test("a shell allow list declares DEFAULT_PROTECTED_PATHS; separate memory workspaces stay separate", async () => {
    const guarded = new MemoryWorkspace({ files: { "package.json": "{}" } });
    const plain = new MemoryWorkspace({ files: { "package.json": "{}" } });
    expect(protectionDeclared(guarded)).toBe(false);
    createShellTool(guarded, ALLOW);
    expect(protectionDeclared(guarded)).toBe(true);
    expect(await protectedPathsInForce(guarded)).toEqual(DEFAULT_PROTECTED_PATHS);
    expect(protectionDeclared(plain)).toBe(false);
    expect(await protectedPathsInForce(plain)).toEqual([]);
  });

  test("node_process made after the shell says in its description that the protected paths are kept", () => {
    const ws = new MemoryWorkspace();
    const before = createNodeProcessTool(ws);
    createShellTool(ws, ALLOW);
    const after = createNodeProcessTool(ws);
    expect(before.description).not.toContain("protected paths");
    expect(after.description).toContain("protected paths");
  });
});
