// Seed 002, "أدوات مساحة العمل", second example: createAgent with the fs tools and an
// allowlisted shell that needs no approval. As the seed writes it; the stand-in is the
// `provider` (a scripted model), and the test runs in a temporary folder holding ./project.
import { createAgent, createFsTools, createShellTool, NodeWorkspace } from "@paddock/tools";
import { mockModel } from "@paddock/tools/testing";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, expect, test } from "vitest";

let parent: string;
let before: string;
beforeEach(() => {
  before = process.cwd();
  parent = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-seed-002-agent-"));
  fs.mkdirSync(path.join(parent, "project", "src"), { recursive: true });
  fs.writeFileSync(path.join(parent, "project", "src", "math.test.ts"), "expect(add(1, 2)).toBe(4);\n");
  process.chdir(parent);
});
afterEach(() => {
  process.chdir(before);
  fs.rmSync(parent, { recursive: true, force: true });
});

test("seed 002: createAgent edits a file under ./project and runs an allowed command without asking", async () => {
  const provider = mockModel([
    {
      toolCalls: [{
        name: "edit_file",
        args: { path: "src/math.test.ts", old_string: "toBe(4)", new_string: "toBe(3)" },
      }],
    },
    {
      toolCalls: [{ name: "shell", args: { command: "git status" } }, {
        name: "shell",
        args: { command: "rm -rf src" },
      }],
    },
    "Fixed the expectation.",
  ]);

  // --- the example ---
  const workspace = new NodeWorkspace({ root: "./project" });
  const agent = createAgent({
    instructions: "You are a careful coding assistant. Run the tests after every change.",
    provider,
    tools: [
      ...createFsTools(workspace),
      createShellTool(workspace, {
        needsApproval: false,
        allow: ["npm test", "npm run lint", "git status", "git diff"],
      }),
    ],
  });
  const result = await agent.send("Fix the failing test in src/math.test.ts");
  // --- end of the example ---

  expect(result.text).toBe("Fixed the expectation.");
  expect(fs.readFileSync(path.join(parent, "project", "src", "math.test.ts"), "utf8")).toBe(
    "expect(add(1, 2)).toBe(3);\n",
  );
  const results = provider.requests[2].messages.filter((message) => message.role === "tool");
  // git status ran (whatever git says outside a repository); rm was not on the allowlist.
  expect(JSON.parse(results[1].content)).toHaveProperty("exitCode");
  expect(JSON.parse(results[2].content).error.code).toBe("SHELL_COMMAND_NOT_ALLOWED");
  expect(fs.existsSync(path.join(parent, "project", "src"))).toBe(true);
});
