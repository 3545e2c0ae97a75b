// An OpenAI Chat Completions agent over Paddock's tools, confined to one folder.
// Run: OPENAI_API_KEY=… npx tsx examples/openai-chat.ts ./project
import OpenAI from "openai";
import { createAgent, createCodingTools, type ModelProvider, openWorkspace } from "@paddock/tools";
import { fromOpenAIMessage, toOpenAIMessages, toOpenAITools } from "@paddock/tools/openai";

const openai = new OpenAI(); // reads OPENAI_API_KEY (and OPENAI_BASE_URL, if set)
const provider: ModelProvider = {
  async generate({ instructions, messages, tools, signal }) {
    const completion = await openai.chat.completions.create(
      { model: "gpt-4.1", messages: toOpenAIMessages(instructions, messages), tools: toOpenAITools(tools) },
      { signal },
    );
    return fromOpenAIMessage(completion.choices[0].message);
  },
};
const tools = createCodingTools(await openWorkspace(process.argv[2] ?? "."));
const agent = createAgent({ instructions: "You answer questions about this project.", provider, tools });
console.log((await agent.send("What does src/math.ts export?")).text);
