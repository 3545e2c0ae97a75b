// The seed example, as written, with our package name: the imports below go
// through the package's own name (vitest.config.ts and tsconfig.test.json map
// it to the sources, as `deno.json` and `package.json` exports do when published).
import { ApprovalRequiredError, createAgent, createCodingTools } from "@paddock/tools";
import { MemoryWorkspace, mockModel } from "@paddock/tools/testing";
import { expect, test } from "vitest";

test("the seed example: a scripted agent fixes a - b in a MemoryWorkspace and runs npm test", async () => {
  const ws = new MemoryWorkspace({
    files: { "src/math.ts": "export function add(a: number, b: number): number {\n  return a - b;\n}\n" },
    exec: (command) => (command === "npm test" ? { stdout: "1 passed\n", exitCode: 0 } : undefined),
  });
  // createCodingTools has the stale-write guard on: the model reads the file before it edits it.
  const model = mockModel([
    { toolCalls: [{ name: "read_file", args: { path: "src/math.ts" } }] },
    { toolCalls: [{ name: "edit_file", args: { path: "src/math.ts", old_string: "a - b", new_string: "a + b" } }] },
    { toolCalls: [{ name: "shell", args: { command: "npm test" } }] },
    "Fixed add(): it returned a - b; it now returns a + b, and the test passes.",
  ]);
  const agent = createAgent({
    instructions: "You fix bugs in this repository. Run the tests after every change.",
    provider: model,
    tools: createCodingTools(ws, { shell: { allow: ["npm test"], needsApproval: false } }),
  });

  const reply = await agent.send("add(2, 3) returns -1; please fix it.");

  expect(reply.text).toBe("Fixed add(): it returned a - b; it now returns a + b, and the test passes.");
  expect(ws.snapshot()["src/math.ts"]).toContain("a + b");
  expect(ws.snapshot()["src/math.ts"]).not.toContain("a - b");
  expect(ws.commands.map((c) => c.command)).toEqual(["npm test"]);
  // The model saw both results, and neither was an error.
  const results = model.requests[3].messages.filter((message) => message.role === "tool");
  expect(results.map((result) => [result.toolName, result.isError])).toEqual([
    ["read_file", false],
    ["edit_file", false],
    ["shell", false],
  ]);
  expect(JSON.parse(results[2].content)).toMatchObject({ exitCode: 0, stdout: "1 passed\n" });
});

test("with the shell's default needsApproval, the run pauses before npm test runs, and runs it once approved", async () => {
  const ws = new MemoryWorkspace({
    files: { "src/math.ts": "export const add = (a: number, b: number) => a - b;\n" },
    exec: { "npm test": "1 passed\n" },
  });
  const agent = createAgent({
    instructions: "You fix bugs.",
    provider: mockModel([
      { toolCalls: [{ name: "read_file", args: { path: "src/math.ts" } }] },
      { toolCalls: [{ name: "edit_file", args: { path: "src/math.ts", old_string: "a - b", new_string: "a + b" } }] },
      { toolCalls: [{ name: "shell", args: { command: "npm test" } }] },
      "Fixed.",
    ]),
    tools: createCodingTools(ws, { shell: {} }),
  });
  const paused = await agent.send("fix add").catch((error: unknown) => error);
  expect(paused).toBeInstanceOf(ApprovalRequiredError);
  const { state, pendingApprovals } = paused as ApprovalRequiredError;
  expect(pendingApprovals).toEqual([{ toolCallId: "call_3_1", toolName: "shell", arguments: { command: "npm test" } }]);
  expect(ws.snapshot()["src/math.ts"]).toContain("a + b");
  expect(ws.commands.map((c) => c.command)).toEqual([]);

  const reply = await agent.resume(JSON.parse(JSON.stringify(state)), [{ toolCallId: "call_3_1", approved: true }]);
  expect(reply.text).toBe("Fixed.");
  expect(ws.commands.map((c) => c.command)).toEqual(["npm test"]);
});
