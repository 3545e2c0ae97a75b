import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createCodingTools, executeToolCall, ToolRegistry } from "../mod.ts";
import { gitConfigKeys } from "../src/core/process/git_guard.ts";
import { DEFAULT_PROTECTED_PATHS, protectedPattern } from "../src/core/fs/protected_paths.ts";
import { type DiskFixture, diskFixture, hasProgram, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { skipNote } from "./helpers/runtime.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

const ALLOW = { allow: ["git status", "npm test"], needsApproval: false };

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.email=t@t", "-c", "user.name=t", ...args], { cwd, encoding: "utf8" });
}

async function setup(tree: string[] = [], options: Parameters<typeof createCodingTools>[1] = { shell: ALLOW }) {
  fixture = await diskFixture(tree);
  const registry = new ToolRegistry(createCodingTools(fixture.workspace, options));
  let n = 0;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await executeToolCall(registry, { id: String(++n), name, arguments: args });
    return JSON.parse(result.content) as Record<string, unknown> & { error?: { code: string; message: string } };
  };
  return { fx: fixture, call };
}

describe("protected paths: with a shell allow list, the write tools refuse the files that make allowed commands run code", () => {
  test("write_file cannot plant core.fsmonitor in .git/config for an allowed git status", async () => {
    const { fx, call } = await setup([".git/config=[core]\n\tbare = false\n"]);
    const planted = `[core]\n\tfsmonitor = "touch ${fx.abs("pwned")}; false"\n`;
    const result = await call("write_file", { path: ".git/config", content: planted });
    expect(result.error?.code).toBe("PROTECTED_PATH");
    expect(result.error?.message).toContain(".git/**");
    expect(fs.readFileSync(fx.abs(".git/config"), "utf8")).toBe("[core]\n\tbare = false\n");
  });

  test.each([
    ["write_file", { path: "package.json", content: '{"scripts":{"test":"touch pwned"}}' }],
    ["write_file", { path: "sub/package.json", content: "{}" }],
    ["write_file", { path: ".GIT/hooks/pre-commit", content: "#!/bin/sh\n" }],
    ["write_file", { path: ".npmrc", content: "script-shell=/tmp/evil\n" }],
    ["write_file", { path: "Makefile", content: "all:\n\ttouch pwned\n" }],
    ["write_file", { path: ".git", content: "gitdir: /somewhere/else\n" }],
    ["write_file", { path: "node_modules/.bin/vitest", content: "#!/bin/sh\n" }],
    ["write_file", { path: "link-to-git/config", content: "[core]\n" }],
    ["edit_file", { path: "package.json", old_string: "echo ok", new_string: "touch pwned" }],
    ["edit_file", { path: "pkg-link", old_string: "echo ok", new_string: "touch pwned" }],
    ["move_path", { source: "notes.json", destination: "package.json", overwrite: true }],
    ["move_path", { source: "package.json", destination: "old.json" }],
    ["delete_path", { path: "package-lock.json" }],
    ["delete_path", { path: ".git", recursive: true }],
    ["create_directory", { path: ".husky" }],
    ["create_directory", { path: ".git/hooks" }],
  ])("%s %j is PROTECTED_PATH and changes nothing", async (tool, args) => {
    const tree = [
      'package.json={"scripts":{"test":"echo ok"}}',
      "package-lock.json={}",
      "notes.json={}",
      ".git/config=[core]\n",
      "link-to-git => .git",
      "pkg-link => package.json",
    ];
    const { fx, call } = await setup(tree);
    const before = fx.listAll();
    const result = await call(tool, args);
    expect(result.error?.code).toBe("PROTECTED_PATH");
    expect(fx.listAll()).toEqual(before);
    expect(fs.readFileSync(fx.abs("package.json"), "utf8")).toBe('{"scripts":{"test":"echo ok"}}');
  });

  test("other files stay writable", async () => {
    const { fx, call } = await setup();
    expect((await call("write_file", { path: "src/package.ts", content: "x" })).error).toBeUndefined();
    expect((await call("write_file", { path: "docs/git.md", content: "x" })).error).toBeUndefined();
    expect(fs.readFileSync(fx.abs("src/package.ts"), "utf8")).toBe("x");
  });

  test("without an allow list nothing is protected by default; protectedPaths configures it either way", async () => {
    const open = await setup([], { shell: { needsApproval: false } });
    expect((await open.call("write_file", { path: "package.json", content: "{}" })).error).toBeUndefined();
    const custom = await setup([], { protectedPaths: ["secrets/**", "*.pem"] });
    expect((await custom.call("write_file", { path: "secrets/a.txt", content: "x" })).error?.code).toBe(
      "PROTECTED_PATH",
    );
    expect((await custom.call("write_file", { path: "keys/server.pem", content: "x" })).error?.code).toBe(
      "PROTECTED_PATH",
    );
    expect((await custom.call("write_file", { path: "package.json", content: "{}" })).error).toBeUndefined();
    const off = await setup([], { shell: ALLOW, protectedPaths: false });
    expect((await off.call("write_file", { path: "package.json", content: "{}" })).error).toBeUndefined();
  });

  test("the default list matches by name at any depth, folders with everything below, ignoring case", () => {
    expect(protectedPattern([".git"], DEFAULT_PROTECTED_PATHS)).toBe(".git/**");
    expect(protectedPattern(["vendor", "lib", ".git", "hooks", "post-checkout"], DEFAULT_PROTECTED_PATHS)).toBe(
      ".git/**",
    );
    expect(protectedPattern(["web", "Package.JSON"], DEFAULT_PROTECTED_PATHS)).toBe("package.json");
    expect(protectedPattern(["vitest.config.ts"], DEFAULT_PROTECTED_PATHS)).toBe("vitest.config.*");
    expect(protectedPattern(["src", "git.ts"], DEFAULT_PROTECTED_PATHS)).toBeUndefined();
    expect(protectedPattern(["package.json.bak"], DEFAULT_PROTECTED_PATHS)).toBeUndefined();
  });
});

describe.skipIf(!hasProgram("git"))(
  `allowed git commands cannot be turned into other code${skipNote(!hasProgram("git"), "git is not installed")}`,
  () => {
    test("an allowed git status does not run a core.fsmonitor that is already in .git/config", async () => {
      const { fx, call } = await setup();
      git(fx.root, "init", "-q");
      fs.appendFileSync(fx.abs(".git/config"), `[core]\n\tfsmonitor = "touch ${fx.abs("pwned")}; false"\n`);
      const result = await call("shell", { command: "git status" });
      expect(result.error?.code).toBe("GIT_REPOSITORY_UNSAFE");
      expect(result.error?.message).toContain("core.fsmonitor");
      expect(fs.existsSync(fx.abs("pwned"))).toBe(false);
    });

    test("an allowed git status runs with fsmonitor, hooks and pager forced off", async () => {
      const { fx, call } = await setup();
      git(fx.root, "init", "-q");
      const result = await call("shell", { command: "git status --porcelain" });
      expect(result).toMatchObject({ exitCode: 0 });
      const shown = await setup([], { shell: { allow: [/^git config --get-all core\.\w+$/], needsApproval: false } });
      git(shown.fx.root, "init", "-q");
      expect((await shown.call("shell", { command: "git config --get-all core.fsmonitor" })).stdout).toBe("false\n");
      expect((await shown.call("shell", { command: "git config --get-all core.hooksPath" })).stdout).toBe(
        "/dev/null\n",
      );
    });

    test("a .git file pointing at a repository outside the workspace is refused: git status -vv shows no outside file", async () => {
      const { fx, call } = await setup([], { shell: { allow: ["git status"], needsApproval: false } });
      const repo = path.join(fx.outside, "repo");
      fs.mkdirSync(repo);
      fs.writeFileSync(path.join(repo, "secret.txt"), `${OUTSIDE_SECRET}\n`);
      git(repo, "init", "-q");
      git(repo, "add", "secret.txt");
      git(repo, "commit", "-qm", "secret");
      fs.writeFileSync(path.join(repo, "secret.txt"), `${OUTSIDE_SECRET} changed\n`);
      fs.writeFileSync(fx.abs(".git"), `gitdir: ${path.join(repo, ".git")}\n`);
      const result = await call("shell", { command: "git status -vv" });
      expect(JSON.stringify(result)).not.toContain(OUTSIDE_SECRET);
      expect(result.error?.code).toBe("GIT_REPOSITORY_UNSAFE");
    });

    test("a workspace without .git is not part of a repository around it", async () => {
      const { fx, call } = await setup([], { shell: { allow: ["git status"], needsApproval: false } });
      fs.writeFileSync(path.join(fx.parent, "around.txt"), OUTSIDE_SECRET);
      git(fx.parent, "init", "-q");
      const result = await call("shell", { command: "git status -vv" });
      expect(JSON.stringify(result)).not.toContain("around.txt");
      expect(String(result.stderr)).toMatch(/not a git repository/);
    });

    test("gitConfigKeys reads sections, subsections and keys the way git names them", () => {
      const keys = gitConfigKeys(
        `# comment\n[core]\n\tbare = false\n\tFSMonitor = x\n[diff "evil"]\n  textconv = sh -c\n[alias] st = !sh\n[include]\npath = other\n; c\n[remote.origin]\n\tuploadpack = x \\\n  continued = y\n`,
      );
      expect(keys).toEqual([
        "core.bare",
        "core.fsmonitor",
        "diff.evil.textconv",
        "alias.st",
        "include.path",
        "remote.origin.uploadpack",
      ]);
    });
  },
);
