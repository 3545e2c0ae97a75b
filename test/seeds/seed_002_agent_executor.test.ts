// Seed 002, "أدوات مساحة العمل", first example: fs tools and the shell in one registry,
// and a run that pauses before any command runs. As the seed writes it; the stand-ins
// are what the example leaves to the reader: `agent`, `input`, `provider`, `approvalStore`.
import { AgentExecutor, createFsTools, createShellTool, NodeWorkspace, ToolRegistry } from "@paddock/tools";
import { InMemoryApprovalStore } from "@paddock/tools";
import { mockModel } from "@paddock/tools/testing";
import { expect, test } from "vitest";

test("seed 002: AgentExecutor.execute pauses before the shell runs; resumeAfterApproval runs it", async () => {
  const agent = { instructions: "You are a careful coding assistant." };
  const input = "Say hello from the shell";
  const provider = mockModel([
    {
      toolCalls: [{ name: "list_directory", args: { path: "." } }, {
        name: "shell",
        args: { command: "echo seed-002" },
      }],
    },
    "Done.",
  ]);
  const approvalStore = new InMemoryApprovalStore();

  // --- the example ---
  const workspace = new NodeWorkspace({ root: "." }); // every path is confined to this directory
  const registry = new ToolRegistry();
  registry.registerMany([...createFsTools(workspace), createShellTool(workspace)]);

  // The shell tool needs approval by default, so the run pauses before any command runs.
  const paused = await AgentExecutor.execute({ agent, input, provider, toolRegistry: registry, approvalStore });
  // paused.finishReason === 'awaiting-approval' -> resumeAfterApproval(...) once a human approves
  // --- end of the example ---

  expect(registry.list().map((tool) => tool.name)).toEqual([
    "read_file",
    "write_file",
    "edit_file",
    "delete_path",
    "move_path",
    "create_directory",
    "undo_last_change",
    "list_directory",
    "find_files",
    "grep",
    "read_media_file",
    "directory_tree",
    "get_file_info",
    "shell",
  ]);
  expect(paused.finishReason).toBe("awaiting-approval");
  if (paused.finishReason !== "awaiting-approval") return;
  expect(paused.pendingApprovals).toEqual([{
    toolCallId: "call_1_2",
    toolName: "shell",
    arguments: { command: "echo seed-002" },
  }]);

  const done = await AgentExecutor.resumeAfterApproval({
    agent,
    state: paused.state,
    decisions: [{ toolCallId: "call_1_2", approved: true }],
    provider,
    toolRegistry: registry,
    approvalStore,
  });
  expect(done.finishReason).toBe("stop");
  const shellResult = done.messages.find((message) => message.role === "tool" && message.toolName === "shell");
  expect(shellResult?.role === "tool" && JSON.parse(shellResult.content)).toMatchObject({
    exitCode: 0,
    stdout: "seed-002\n",
  });
  // The instance API is unchanged.
  expect(
    (await new AgentExecutor().execute({ agent, input, provider: mockModel(["hi"]), toolRegistry: registry }))
      .finishReason,
  )
    .toBe("stop");
});
