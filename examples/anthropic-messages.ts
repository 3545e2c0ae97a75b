// An Anthropic Messages agent over Paddock's tools, confined to one folder.
// Run: ANTHROPIC_API_KEY=… npx tsx examples/anthropic-messages.ts ./project
import Anthropic from "@anthropic-ai/sdk";
import { createAgent, createCodingTools, type ModelProvider, openWorkspace } from "@paddock/tools";
import { fromAnthropicMessage, toAnthropicMessages, toAnthropicTools } from "@paddock/tools/anthropic";

const anthropic = new Anthropic(); // reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, if set)
const provider: ModelProvider = {
  async generate({ instructions, messages, tools, signal }) {
    const reply = await anthropic.messages.create(
      {
        model: "claude-sonnet-4-5",
        max_tokens: 4096,
        system: instructions,
        messages: toAnthropicMessages(messages),
        tools: toAnthropicTools(tools),
      },
      { signal },
    );
    return fromAnthropicMessage(reply.content);
  },
};
const tools = createCodingTools(await openWorkspace(process.argv[2] ?? "."));
const agent = createAgent({ instructions: "You answer questions about this project.", provider, tools });
console.log((await agent.send("What does src/math.ts export?")).text);
