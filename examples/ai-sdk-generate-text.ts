// The AI SDK's generateText with Paddock's tools (ai 5, 6 or 7) and the OpenAI provider.
// npm install ai @ai-sdk/openai (@ai-sdk/openai 2 goes with ai 5, 3 with ai 6, 4 with ai 7)
// Run: OPENAI_API_KEY=… npx tsx examples/ai-sdk-generate-text.ts ./project
import { openai } from "@ai-sdk/openai"; // reads OPENAI_API_KEY (and OPENAI_BASE_URL, if set); any provider fits
import { generateText, stepCountIs } from "ai";
import { createCodingTools, openWorkspace } from "@paddock/tools";
import { toAISDKTools } from "@paddock/tools/ai-sdk";

const workspace = await openWorkspace(process.argv[2] ?? ".");
const { text, steps } = await generateText({
  model: openai.chat("gpt-4.1"), // Chat Completions; openai("gpt-4.1") is the Responses API
  tools: toAISDKTools(createCodingTools(workspace)),
  stopWhen: stepCountIs(10),
  prompt: "What does src/math.ts export?",
});
console.log(`${steps.length} steps: ${text}`);
