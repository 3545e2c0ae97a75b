// An OpenAI Chat Completions tool loop over Paddock's tools, confined to one folder.
// Run: OPENAI_API_KEY=… npx tsx examples/openai-chat.ts ./project
import OpenAI from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { createCodingTools, executeToolCall, openWorkspace, ToolRegistry } from "@paddock/tools";
import { fromOpenAIToolCall, toOpenAIToolMessage, toOpenAITools } from "@paddock/tools/openai";

const workspace = await openWorkspace(process.argv[2] ?? ".");
const registry = new ToolRegistry(createCodingTools(workspace));
const openai = new OpenAI(); // reads OPENAI_API_KEY (and OPENAI_BASE_URL, if set)
const messages: ChatCompletionMessageParam[] = [{ role: "user", content: "What does src/math.ts export?" }];

for (let step = 0; step < 10; step++) {
  const completion = await openai.chat.completions.create({
    model: "gpt-4.1",
    messages,
    tools: toOpenAITools(registry),
  });
  const message = completion.choices[0].message;
  messages.push(message);
  if (!message.tool_calls?.length) {
    console.log(message.content);
    break;
  }
  for (const call of message.tool_calls) {
    messages.push(toOpenAIToolMessage(await executeToolCall(registry, fromOpenAIToolCall(call))));
  }
}
