// The AI SDK's generateText with Paddock's tools (ai 5, 6 or 7).
// Run: npx tsx examples/ai-sdk-generate-text.ts ./project
import { generateText, stepCountIs } from "ai";
import { createCodingTools, openWorkspace } from "@paddock/tools";
import { toAISDKTools } from "@paddock/tools/ai-sdk";
import { scriptedModel } from "./fake/ai_sdk_model.ts"; // your provider's model instead, e.g. openai("gpt-4.1")

const workspace = await openWorkspace(process.argv[2] ?? ".");
const { text, steps } = await generateText({
  model: scriptedModel(),
  tools: toAISDKTools(createCodingTools(workspace)),
  stopWhen: stepCountIs(10),
  prompt: "What does src/math.ts export?",
});
console.log(`${steps.length} steps: ${text}`);
