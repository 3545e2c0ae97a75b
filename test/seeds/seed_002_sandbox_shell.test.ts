// Seed 002, "واجهة أوامر معزولة: SandboxShell": fs tools on the workspace, the shell in a
// container sandbox. As the seed writes it. SubprocessSandbox is the real container
// sandbox; the seed's image ('node:20-alpine') cannot be pulled here (no image registry), so a
// command fails with SANDBOX_UNAVAILABLE naming the image — nothing ever runs unsandboxed. With a
// locally built image the same example runs: test/subprocess_sandbox.test.ts.
import { createFsTools, createShellTool, NodeWorkspace, SandboxShell, SubprocessSandbox } from "@paddock/tools";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";
import type { AnyTool } from "@paddock/tools";

let parent: string;
let before: string;
beforeEach(() => {
  before = process.cwd();
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-seed-002-sandbox-"));
  fs.mkdirSync(path.join(parent, "project"));
  process.chdir(parent);
});
afterEach(() => {
  process.chdir(before);
  fs.rmSync(parent, { recursive: true, force: true });
});

test("seed 002: a SandboxShell over SubprocessSandbox; the file tools work, the shell refuses to run unsandboxed", async () => {
  // --- the example ---
  const workspace = new NodeWorkspace({ root: "./project" });
  const shell = new SandboxShell(new SubprocessSandbox({ image: "node:20-alpine" }), { cwd: workspace.root });
  const tools = [...createFsTools(workspace), createShellTool(shell, { needsApproval: false })];
  // --- end of the example ---

  // The tools by name, each of any arguments (the array mixes the fs tools with the typed shell tool).
  const byName = new Map<string, AnyTool>(tools.map((tool) => [tool.name, tool]));
  expect(await byName.get("write_file")?.execute({ path: "a.txt", content: "hi" })).toEqual({
    path: "a.txt",
    bytes: 2,
  });
  await expect(byName.get("shell")?.execute({ command: "echo ran > ran.txt" })).rejects.toMatchObject({
    code: "SANDBOX_UNAVAILABLE",
  });
  expect(fs.readdirSync(path.join(parent, "project"))).toEqual(["a.txt"]);
});
