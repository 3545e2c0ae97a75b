// Type test for `@paddock/tools/ai-sdk`, checked by tsc once per supported `ai`
// major: as `ai` 5 by `tsconfig.test.json`, and with `ai` mapped to the `ai6`
// and `ai7` packages by `tsconfig.ai6.json` and `tsconfig.ai7.json` — as an
// application with that major installed would compile it.
import { generateText, type LanguageModel, type ToolSet } from "ai";
import type { ToolRegistry } from "../../mod.ts";
import { toAISDKTools } from "../../src/adapters/ai_sdk.ts";

declare const registry: ToolRegistry;
declare const model: LanguageModel;

export const tools: ToolSet = toAISDKTools(registry, { approve: () => true });

export async function run(): Promise<string> {
  const { text } = await generateText({ model, tools: toAISDKTools(registry), prompt: "Fix the failing test" });
  return text;
}
