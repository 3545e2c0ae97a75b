// An Anthropic Messages tool loop over Paddock's tools, confined to one folder.
// Run: ANTHROPIC_API_KEY=… npx tsx examples/anthropic-messages.ts ./project
import Anthropic from "@anthropic-ai/sdk";
import { createCodingTools, executeToolCall, openWorkspace, ToolRegistry } from "@paddock/tools";
import { fromAnthropicToolUse, toAnthropicToolResult, toAnthropicTools } from "@paddock/tools/anthropic";

const workspace = await openWorkspace(process.argv[2] ?? ".");
const registry = new ToolRegistry(createCodingTools(workspace));
const anthropic = new Anthropic(); // reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, if set)
const messages: Anthropic.MessageParam[] = [{ role: "user", content: "What does src/math.ts export?" }];

for (let step = 0; step < 10; step++) {
  const reply = await anthropic.messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 4096,
    messages,
    tools: toAnthropicTools(registry),
  });
  messages.push({ role: "assistant", content: reply.content });
  const uses = reply.content.filter((block) => block.type === "tool_use");
  if (uses.length === 0) {
    console.log(reply.content.map((block) => (block.type === "text" ? block.text : "")).join(""));
    break;
  }
  const results = [];
  for (const use of uses) {
    results.push(toAnthropicToolResult(await executeToolCall(registry, fromAnthropicToolUse(use))));
  }
  messages.push({ role: "user", content: results });
}
