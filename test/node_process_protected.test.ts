import * as fs from "node:fs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { type AnyTool, createCodingTools, createNodeProcessTool } from "../mod.ts";
import { DEFAULT_PROTECTED_PATHS } from "../src/core/fs/protected_paths.ts";
import { BubblewrapSandbox } from "../sandbox.ts";
import type { Sandbox } from "../src/core/process/command_sandbox.ts";
import { protectedLayout } from "../src/core/fs/protected_layout.ts";
import { nodeProcessProtection } from "../src/tools/process_reach.ts";
import {
  attackSource,
  PROTECTED_ABSENT,
  PROTECTED_ORIGINALS,
  PROTECTED_TREE,
  PROTECTED_WRITE_CASES,
} from "./cases/protected_writes.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { onBun, runtime, skipNote } from "./helpers/runtime.ts";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

const ROOMY = { timeoutMs: 15_000 };
const ALLOW = { allow: ["git status", "npm test"], needsApproval: false };

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

function nodeProcess(tools: AnyTool[]) {
  const tool = tools.find((candidate) => candidate.name === "node_process");
  if (tool === undefined) throw new Error("no node_process tool");
  return tool as ReturnType<typeof createNodeProcessTool>;
}

// The files of the tree that must not change, and the names that must not appear.
function expectProtectedIntact(fx: DiskFixture): void {
  for (const [file, bytes] of Object.entries(PROTECTED_ORIGINALS)) {
    expect(fs.readFileSync(fx.abs(file), "utf8")).toBe(bytes);
  }
  for (const name of PROTECTED_ABSENT) expect(fs.existsSync(fx.abs(name))).toBe(false);
}

describe("protectedLayout: where the protected paths lie", () => {
  test("protected entries, the folders holding them or a link, and the writable rest", async () => {
    fixture = await diskFixture([...PROTECTED_TREE, "deep/er/Makefile=all:", "node_modules/x/index.js=1"]);
    const layout = await protectedLayout(fixture.workspace, DEFAULT_PROTECTED_PATHS);
    const joined = (list: string[][]) => list.map((segments) => segments.join("/"));
    expect(joined(layout.readOnly)).toEqual([
      ".git",
      "deep/er/Makefile",
      "node_modules",
      "package.json",
      "sub/package.json",
    ]);
    expect(joined(layout.pinned)).toEqual(["deep", "deep/er", "src", "sub"]);
    expect(joined(layout.links)).toEqual(["src/pjlink"]);
    expect(joined(layout.writable)).toEqual(["lib", "src/a.txt"]);
  });

  test("a protected name that is a link protects what it leads to inside the workspace", async () => {
    fixture = await diskFixture([
      "package.json => config/pkg.json",
      "config/pkg.json={}",
      "config/other.txt",
      "out => @outside/secret.txt",
      ".npmrc => @outside/secret.txt",
    ]);
    const layout = await protectedLayout(fixture.workspace, DEFAULT_PROTECTED_PATHS);
    const joined = (list: string[][]) => list.map((segments) => segments.join("/"));
    expect(joined(layout.readOnly)).toEqual(["config/pkg.json"]);
    expect(joined(layout.pinned)).toEqual(["config"]);
    expect(joined(layout.links)).toEqual([".npmrc", "out", "package.json"]);
    expect(joined(layout.writable)).toEqual(["config/other.txt"]);
  });

  test("past its entry or path limit it refuses (a partial scan could miss a protected file)", async () => {
    fixture = await diskFixture(["a/1", "a/2", "a/3", "b/1", "package.json={}"]);
    await expect(protectedLayout(fixture.workspace, DEFAULT_PROTECTED_PATHS, { maxEntries: 3 })).rejects.toMatchObject({
      code: "TOO_MANY_ENTRIES",
    });
    await expect(protectedLayout(fixture.workspace, DEFAULT_PROTECTED_PATHS, { maxPaths: 1 })).rejects.toMatchObject({
      code: "TOO_MANY_ENTRIES",
    });
  });
});

describe.runIf(!onBun)(
  `node_process under the runtime's permissions cannot change protected paths${
    skipNote(onBun, "Bun has no permission model")
  }`,
  () => {
    test.each(PROTECTED_WRITE_CASES.map((row) => [row.name, row] as const))(
      "%s: refused, bytes unchanged",
      async (_, row) => {
        fixture = await diskFixture(PROTECTED_TREE);
        const tool = nodeProcess(createCodingTools(fixture.workspace, { shell: ALLOW, nodeProcess: ROOMY }));
        const result = await tool.execute({ source: attackSource(row) });
        expect(result.stdout).toMatch(/^FAILED /);
        expectProtectedIntact(fixture);
      },
    );

    test("without protected paths the same script does change package.json (what the list prevents)", async () => {
      fixture = await diskFixture(PROTECTED_TREE);
      const tool = nodeProcess(
        createCodingTools(fixture.workspace, { shell: ALLOW, protectedPaths: false, nodeProcess: ROOMY }),
      );
      const result = await tool.execute({ source: attackSource(PROTECTED_WRITE_CASES[0]) });
      expect(result.stdout).toBe("DONE\n");
      expect(fs.readFileSync(fixture.abs("package.json"), "utf8")).toContain("pwned");
    });

    test("the rest of the workspace stays writable; nothing new at the top or in a folder holding a protected path", async () => {
      fixture = await diskFixture(PROTECTED_TREE);
      const tool = nodeProcess(createCodingTools(fixture.workspace, { shell: ALLOW, nodeProcess: ROOMY }));
      const source = `const fs = require("node:fs");
for (const [file, text] of [["src/a.txt", "changed"], ["lib/new.txt", "new"], ["lib/deeper/x.txt", "x"], ["top.txt", "t"], ["sub/new.txt", "n"]]) {
  try { if (file.startsWith("lib/deeper/")) fs.mkdirSync("lib/deeper"); fs.writeFileSync(file, text); console.log(file, "ok"); }
  catch (e) { console.log(file, e.code || e.name); }
}`;
      const result = await tool.execute({ source });
      const denied = runtime === "deno" ? "NotCapable" : "ERR_ACCESS_DENIED";
      expect(result.stdout.trim().split("\n")).toEqual([
        "src/a.txt ok",
        "lib/new.txt ok",
        "lib/deeper/x.txt ok",
        `top.txt ${denied}`,
        `sub/new.txt ${denied}`,
      ]);
      expect(fs.readFileSync(fixture.abs("src/a.txt"), "utf8")).toBe("changed");
    });

    test("through a protected name that is a link, the file it leads to cannot be changed either", async () => {
      fixture = await diskFixture([
        "package.json => config/pkg.json",
        'config/pkg.json={"scripts":{}}',
        "config/other.txt",
      ]);
      const tool = nodeProcess(createCodingTools(fixture.workspace, { shell: ALLOW, nodeProcess: ROOMY }));
      const attack = `const fs = require("node:fs");
for (const file of ["config/pkg.json", "package.json", "config/other.txt"]) {
  try { fs.writeFileSync(file, "changed"); console.log(file, "ok"); } catch (e) { console.log(file, e.code || e.name); }
}`;
      const denied = runtime === "deno" ? "NotCapable" : "ERR_ACCESS_DENIED";
      expect((await tool.execute({ source: attack })).stdout.trim().split("\n")).toEqual([
        `config/pkg.json ${denied}`,
        `package.json ${denied}`,
        "config/other.txt ok",
      ]);
      expect(fs.readFileSync(fixture.abs("config/pkg.json"), "utf8")).toBe('{"scripts":{}}');
    });

    test("the description says so", async () => {
      fixture = await diskFixture();
      const tool = nodeProcess(createCodingTools(fixture.workspace, { shell: ALLOW }));
      expect(tool.description).toContain(nodeProcessProtection(runtime, "workspace", false));
      expect(tool.description).toMatch(/cannot create anything new at the top of the workspace/);
      expect(tool.description).toMatch(/points outside is followed \(files can be read through it\)/);
    });
  },
);

describe("node_process with permissions: inherit and no sandbox is not kept from protected paths", () => {
  test("the description says it can change them", async () => {
    fixture = await diskFixture();
    const tool = createNodeProcessTool(fixture.workspace, {
      permissions: "inherit",
      protectedPaths: DEFAULT_PROTECTED_PATHS,
    });
    expect(tool.description).toMatch(/It is not kept from the protected paths .*: it can change them\./);
  });
});

describe.skipIf(sandboxSkipReason !== undefined)(
  `node_process in the OS sandbox cannot change protected paths${sandboxSkipNote}`,
  () => {
    const sandbox: Sandbox = new BubblewrapSandbox();
    afterAll(async () => await sandbox.close?.());
    // Bun: no permission model, so the sandbox's read-only binds alone hold.
    const options = { ...ROOMY, sandbox, ...(onBun ? { permissions: "inherit" as const } : {}) };

    test.each(PROTECTED_WRITE_CASES.filter((row) => row.bindsStopIt || !onBun).map((row) => [row.name, row] as const))(
      "%s: refused, bytes unchanged",
      async (_, row) => {
        fixture = await diskFixture(PROTECTED_TREE);
        const tool = nodeProcess(createCodingTools(fixture.workspace, { shell: ALLOW, nodeProcess: options }));
        const result = await tool.execute({ source: attackSource(row) });
        expect(result.stdout).toMatch(/^FAILED /);
        expectProtectedIntact(fixture);
      },
    );

    test.runIf(onBun)(
      `on Bun a protected name that does not exist yet can be created (stated in the description)${
        skipNote(!onBun, "about Bun only, which runs with no permission model inside the sandbox")
      }`,
      async () => {
        fixture = await diskFixture(PROTECTED_TREE);
        const tool = nodeProcess(createCodingTools(fixture.workspace, { shell: ALLOW, nodeProcess: options }));
        expect(tool.description).toMatch(/one that does not exist yet can be created/);
        const makefile = PROTECTED_WRITE_CASES.find((row) => !row.bindsStopIt);
        expect((await tool.execute({ source: attackSource(makefile!) })).stdout).toBe("DONE\n");
      },
    );
  },
);
