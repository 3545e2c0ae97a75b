// Paddock's own agent loop: a shell command waits for a person's approval, then the run resumes.
// Run: npx tsx examples/custom-agent-approvals.ts
import { ApprovalRequiredError, createAgent, createCodingTools } from "@paddock/tools";
import { MemoryWorkspace, mockModel } from "@paddock/tools/testing";

const ws = new MemoryWorkspace({
  files: { "src/math.ts": "export function add(a: number, b: number): number {\n  return a - b;\n}\n" },
  exec: (command) => (command === "npm test" ? { stdout: "1 passed\n", exitCode: 0 } : undefined),
});
const agent = createAgent({
  instructions: "You fix bugs in this repository. Run the tests after every change.",
  provider: mockModel([ // a scripted model; any ModelProvider (OpenAI, Anthropic, …) fits here
    { toolCalls: [{ name: "read_file", args: { path: "src/math.ts" } }] }, // edits need a read first (the stale-write guard)
    { toolCalls: [{ name: "edit_file", args: { path: "src/math.ts", old_string: "a - b", new_string: "a + b" } }] },
    { toolCalls: [{ name: "shell", args: { command: "npm test" } }] },
    "Fixed add(): it returned a - b; it now returns a + b, and the test passes.",
  ]),
  tools: createCodingTools(ws, { shell: { allow: ["npm test"] } }), // the shell needs approval by default
});

try {
  await agent.send("add(2, 3) returns -1; please fix it.");
} catch (error) {
  if (!(error instanceof ApprovalRequiredError)) throw error;
  const [pending] = error.pendingApprovals; // show it to a person; store error.state as JSON meanwhile
  console.log(`approve ${pending.toolName} ${JSON.stringify(pending.arguments)}? yes`);
  const { text } = await agent.resume(error.state, [{ toolCallId: pending.toolCallId, approved: true }]);
  console.log(text);
}
console.log(ws.commands.map((c) => c.command), ws.snapshot()["src/math.ts"].includes("a + b"));
