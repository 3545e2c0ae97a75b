// Type test, checked by `tsc -p tsconfig.test.json` (never run): the adapters'
// plain JSON shapes fit the real SDKs' own types, both ways — what Paddock
// writes is accepted as request parameters, and what the SDK returns is
// accepted by Paddock's readers.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type { AgentMessage, ModelResponse, ToolCall, ToolCallResult, ToolRegistry } from "../../mod.ts";
import {
  fromAnthropicMessage,
  fromAnthropicToolUse,
  toAnthropicMessages,
  toAnthropicToolResult,
  toAnthropicTools,
} from "../../src/adapters/anthropic.ts";
import {
  fromOpenAIMessage,
  fromOpenAIToolCall,
  toOpenAIMessages,
  toOpenAIToolMessage,
  toOpenAITools,
} from "../../src/adapters/openai.ts";

declare const registry: ToolRegistry;
declare const conversation: AgentMessage[];
declare const result: ToolCallResult;

// OpenAI (openai 6): what Paddock writes…
export const openaiTools: OpenAI.ChatCompletionTool[] = toOpenAITools(registry);
export const openaiMessages: OpenAI.ChatCompletionMessageParam[] = toOpenAIMessages("instructions", conversation);
export const openaiToolMessage: OpenAI.ChatCompletionToolMessageParam = toOpenAIToolMessage(result);
// …and what the SDK returns, custom tool calls included.
declare const completionMessage: OpenAI.ChatCompletionMessage;
declare const sdkToolCall: OpenAI.ChatCompletionMessageToolCall;
export const fromCompletion: ModelResponse = fromOpenAIMessage(completionMessage);
export const fromSdkCall: ToolCall = fromOpenAIToolCall(sdkToolCall);

export async function openaiTurn(openai: OpenAI): Promise<ModelResponse> {
  const completion = await openai.chat.completions.create({
    model: "gpt-4.1",
    messages: toOpenAIMessages("instructions", conversation),
    tools: toOpenAITools(registry),
  });
  return fromOpenAIMessage(completion.choices[0].message);
}

// Anthropic: what Paddock writes…
export const anthropicTools: Anthropic.Tool[] = toAnthropicTools(registry);
export const anthropicToolUnion: Anthropic.ToolUnion[] = toAnthropicTools(registry);
export const anthropicMessages: Anthropic.MessageParam[] = toAnthropicMessages(conversation);
export const anthropicResult: Anthropic.ToolResultBlockParam = toAnthropicToolResult(result);
// …and what the SDK returns.
declare const reply: Anthropic.Message;
declare const toolUse: Anthropic.ToolUseBlock;
export const fromReply: ModelResponse = fromAnthropicMessage(reply.content);
export const fromToolUse: ToolCall = fromAnthropicToolUse(toolUse);

export async function anthropicTurn(anthropic: Anthropic): Promise<ModelResponse> {
  const message = await anthropic.messages.create({
    model: "claude-sonnet-4-5",
    max_tokens: 1024,
    messages: toAnthropicMessages(conversation),
    tools: toAnthropicTools(registry),
  });
  return fromAnthropicMessage(message.content);
}
