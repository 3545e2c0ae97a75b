// Private paths inside the sandboxes (issue #41, item 1): a sandboxed shell command or node_process script
// reads nothing of a private path — by name, through a link, by a recursive grep — and cannot change,
// remove or rename it; the container sandbox, which does not mask yet, refuses rather than run.
import * as fs from "node:fs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { createNodeProcessTool, createShellTool, openWorkspace } from "../mod.ts";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../sandbox.ts";
import { PRIVATE_ORIGINALS, PRIVATE_PATTERNS, PRIVATE_SECRETS, PRIVATE_TREE } from "./cases/private_paths.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { onBun, runtime, skipNote } from "./helpers/runtime.ts";
import { engineSkipReason, SANDBOX_IMAGE, sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

function expectIntact(f: DiskFixture): void {
  for (const [file, bytes] of Object.entries(PRIVATE_ORIGINALS)) {
    expect(fs.readFileSync(f.abs(file), "utf8")).toBe(bytes);
  }
  expect(fs.existsSync(f.abs("s2"))).toBe(false);
  expect(fs.existsSync(f.abs("secrets/new.txt"))).toBe(false);
}

// Each line tries one way to the secrets; none may print one.
const READS = [
  "cat .env",
  "cat notes",
  "cat config/.env.local",
  "cat src/cfg",
  "cat secrets/token.txt",
  "cat vault/token.txt",
  "cat secrets/sub/deep.txt",
  "ls -la secrets",
  "grep -r KEY .",
  "find . -name '*.txt' -exec cat {} +",
  "tar cf - . | strings",
  "ln .env hard 2>&1; cat hard",
  "cp -r secrets copied && cat copied/token.txt",
].map((line) => `${line} 2>&1`).join("; echo; ");
const CHANGES = "echo x > .env; echo x > secrets/new.txt; rm -f .env; rm -rf secrets; mv secrets s2; mv .env e2; true";

describe.skipIf(sandboxSkipReason !== undefined)(`private paths in the bubblewrap sandbox${sandboxSkipNote}`, () => {
  const sandbox = new BubblewrapSandbox({ network: "none" });
  afterAll(async () => await sandbox.close());

  test("a shell command reads no private path, by name, through links or by walking, and changes none", async () => {
    fixture = await diskFixture(PRIVATE_TREE);
    const shell = new SandboxShell(sandbox, { cwd: fixture.root, privatePaths: PRIVATE_PATTERNS });
    const read = await shell.exec({ command: READS, timeoutMs: 30_000 });
    const seen = read.stdout + read.stderr;
    expect(seen).not.toContain("nothing ran"); // the mount check passed: the masks are where they belong
    for (const secret of PRIVATE_SECRETS) expect(seen).not.toContain(secret);
    expect(seen).toContain("KEY=public"); // the walk ran and read what is not private
    await shell.exec({ command: CHANGES, timeoutMs: 30_000 });
    expectIntact(fixture);
  }, 60_000);

  test("without private paths the same command reads them (the masks are what hides them)", async () => {
    fixture = await diskFixture(PRIVATE_TREE);
    const shell = new SandboxShell(sandbox, { cwd: fixture.root });
    const read = await shell.exec({ command: "cat .env secrets/token.txt", timeoutMs: 30_000 });
    expect(read.stdout).toContain("disk-secret");
    expect(read.stdout).toContain("token-secret");
  }, 60_000);

  test("a node_process script reads no private path", async () => {
    fixture = await diskFixture(PRIVATE_TREE);
    const workspace = await openWorkspace(fixture.root, { privatePaths: PRIVATE_PATTERNS });
    const tool = createNodeProcessTool(workspace, {
      sandbox,
      timeoutMs: 15_000,
      ...(onBun ? { permissions: "inherit" as const } : {}),
    });
    const source = `const fs = require("node:fs");
for (const p of [".env", "notes", "config/.env.local", "secrets/token.txt", "vault/token.txt"]) {
  try { console.log(p, JSON.stringify(fs.readFileSync(p, "utf8"))); } catch (e) { console.log(p, e.code); }
}
try { console.log("dir", fs.readdirSync("secrets").join(",")); } catch (e) { console.log("dir", e.code); }`;
    const result = await tool.execute({ source });
    for (const secret of PRIVATE_SECRETS) expect(result.stdout + result.stderr).not.toContain(secret);
    // The private folder is shown empty (the mask); under Deno its permissions deny it as well.
    expect(result.stdout).toMatch(runtime === "deno" ? /^dir (\s*|undefined)$/m : /^dir\s*$/m);
    expectIntact(fixture);
  }, 60_000);
});

const engineSkipNote = engineSkipReason === undefined ? "" : ` [skipped: ${engineSkipReason}]`;

describe.skipIf(engineSkipReason !== undefined)(`private paths in the container sandbox${engineSkipNote}`, () => {
  for (const reuse of [false, true]) {
    test(
      `a shell command reads no private path and changes none (${
        reuse ? "a reused container" : "one container per command"
      })`,
      async () => {
        fixture = await diskFixture(PRIVATE_TREE);
        const container = new SubprocessSandbox({ image: SANDBOX_IMAGE, reuse });
        try {
          const shell = new SandboxShell(container, { cwd: fixture.root, privatePaths: PRIVATE_PATTERNS });
          const read = await shell.exec({ command: READS, timeoutMs: 60_000 });
          const seen = read.stdout + read.stderr;
          expect(seen).not.toContain("nothing ran"); // the mount check passed: the masks are where they belong
          for (const secret of PRIVATE_SECRETS) expect(seen).not.toContain(secret);
          expect(seen).toContain("KEY=public");
          await shell.exec({ command: CHANGES, timeoutMs: 60_000 });
          expectIntact(fixture);
          // Without private paths the same container sandbox reads them: the masks are what hides them.
          const open = new SandboxShell(container, { cwd: fixture.root });
          expect((await open.exec({ command: "cat .env", timeoutMs: 60_000 })).stdout).toContain("disk-secret");
        } finally {
          await container.close();
        }
      },
      180_000,
    );
  }

  test.skipIf(runtime === "deno")(
    `a node_process script reads no private path${
      skipNote(runtime === "deno", "Deno launches scripts with deno-only flags; the image has node")
    }`,
    async () => {
      fixture = await diskFixture(PRIVATE_TREE);
      const workspace = await openWorkspace(fixture.root, { privatePaths: PRIVATE_PATTERNS });
      const container = new SubprocessSandbox({ image: SANDBOX_IMAGE });
      try {
        // The container's confinement alone: the host runtime's permission flags need not exist in the image's node.
        const tool = createNodeProcessTool(workspace, {
          sandbox: container,
          timeoutMs: 60_000,
          permissions: "inherit",
        });
        const source = `const fs = require("node:fs");
for (const p of [".env", "notes", "config/.env.local", "secrets/token.txt", "vault/token.txt", "src/cfg"]) {
  try { console.log(p, JSON.stringify(fs.readFileSync(p, "utf8"))); } catch (e) { console.log(p, e.code); }
}
console.log("dir", fs.readdirSync("secrets").join(","));
console.log("public", fs.readFileSync("app.txt", "utf8"));`;
        const result = await tool.execute({ source });
        for (const secret of PRIVATE_SECRETS) expect(result.stdout + result.stderr).not.toContain(secret);
        expect(result.stdout).toContain("public KEY=public");
        expect(result.stdout).toMatch(/^dir\s*$/m);
        expectIntact(fixture);
      } finally {
        await container.close();
      }
    },
    180_000,
  );
});

describe("private paths and commands without a sandbox", () => {
  const READ_SOURCE = `const fs = require("node:fs");
for (const p of [".env", "notes", "config/.env.local", "src/cfg", "secrets/token.txt", "vault/token.txt"]) {
  try { console.log(p, JSON.stringify(fs.readFileSync(p, "utf8"))); } catch (e) { console.log(p, e.code ?? e.name); }
}
try { fs.writeFileSync(".env", "changed"); console.log("wrote"); } catch (e) { console.log("write", e.code ?? e.name); }
try { fs.renameSync("config", "c2"); console.log("renamed", fs.readFileSync("c2/.env.local", "utf8")); } catch (e) { console.log("rename", e.code ?? e.name); }
console.log("public", fs.readFileSync("app.txt", "utf8"));`;

  test.runIf(runtime === "deno")(
    `Deno: node_process is denied them by permission, by name and through links, and says so${
      skipNote(runtime !== "deno", "only Deno's permissions can deny a path; Node's and Bun's have no deny list")
    }`,
    async () => {
      fixture = await diskFixture(PRIVATE_TREE);
      const workspace = await openWorkspace(fixture.root, { privatePaths: PRIVATE_PATTERNS });
      const tool = createNodeProcessTool(workspace, { timeoutMs: 15_000 });
      expect(tool.description).toContain("denied to it by the runtime's permissions");
      const result = await tool.execute({ source: READ_SOURCE });
      for (const secret of PRIVATE_SECRETS) expect(result.stdout + result.stderr).not.toContain(secret);
      expect(result.stdout).toContain("public KEY=public"); // the script ran and read what is not private
      expect(result.stdout).not.toContain("wrote");
      expectIntact(fixture);
    },
    60_000,
  );

  test("where nothing holds them, the shell and node_process descriptions say so; without private paths they say nothing", async () => {
    fixture = await diskFixture(PRIVATE_TREE);
    const workspace = await openWorkspace(fixture.root, { privatePaths: PRIVATE_PATTERNS });
    expect(createShellTool(workspace).description).toContain("private paths do NOT hold for it");
    const inherit = createNodeProcessTool(workspace, { permissions: "inherit" });
    expect(inherit.description).toContain("private paths do NOT hold for it");
    const plain = await openWorkspace(fixture.root);
    expect(createShellTool(plain).description).not.toContain("private paths");
    expect(createNodeProcessTool(plain).description).not.toContain("private paths");
    const masked = new SandboxShell(new BubblewrapSandbox({ network: "none" }), {
      cwd: fixture.root,
      privatePaths: PRIVATE_PATTERNS,
    });
    expect(masked.reach.text).toContain("masked inside");
    const container = new SandboxShell(new SubprocessSandbox({ image: "paddock/sandbox-node:local" }), {
      cwd: fixture.root,
      privatePaths: PRIVATE_PATTERNS,
    });
    expect(container.reach.text).toContain("masked inside");
  });
});
