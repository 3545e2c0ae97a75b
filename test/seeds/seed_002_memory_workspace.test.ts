// Seed 002, "الاختبار باستخدام MemoryWorkspace": a scripted agent fixes a bug in an
// in-memory workspace and runs the tests. As the seed writes it (MemoryWorkspace from the
// root, mockModel from /testing); nothing is external. The two console.log lines are
// checked by capturing what they print.
import { createAgent, createFsTools, createShellTool, MemoryWorkspace } from "@paddock/tools";
import { mockModel } from "@paddock/tools/testing";
import { expect, test, vi } from "vitest";

test("seed 002: the agent edits src/math.ts in memory and runs npm test once", async () => {
  const printed = vi.spyOn(console, "log").mockImplementation(() => {});
  try {
    // --- the example ---
    const workspace = new MemoryWorkspace({
      files: { "src/math.ts": "export const add = (a: number, b: number) => a - b;\n" },
      exec: (
        command,
      ) => (command === "npm test" ? { stdout: "1 passed\n" } : { exitCode: 1, stderr: "unknown command\n" }),
    });
    const provider = mockModel([
      { toolCalls: [{ name: "edit_file", args: { path: "src/math.ts", old_string: "a - b", new_string: "a + b" } }] },
      { toolCalls: [{ name: "shell", args: { command: "npm test" } }] },
      "Fixed add() and the tests pass.",
    ]);
    const agent = createAgent({
      instructions: "Fix bugs.",
      provider,
      tools: [...createFsTools(workspace), createShellTool(workspace, { needsApproval: false })],
    });
    await agent.send("add() is broken");
    console.log(workspace.snapshot()["src/math.ts"]); // '... a + b;\n'
    console.log(workspace.commands.map((c) => c.command)); // ['npm test']
    // --- end of the example ---

    expect(printed.mock.calls).toEqual([
      ["export const add = (a: number, b: number) => a + b;\n"],
      [["npm test"]],
    ]);
    expect(workspace.commands).toEqual([{ command: "npm test", cwd: ".", timeoutMs: 30_000, maxOutputBytes: 32_768 }]);
  } finally {
    printed.mockRestore();
  }
});
