// A scripted AI SDK model for the examples: asks for read_file once, then answers.
import { MockLanguageModelV2 } from "ai/test";

const usage = { inputTokens: 10, outputTokens: 10, totalTokens: 20 };
const readMath = {
  type: "tool-call",
  toolCallId: "call-1",
  toolName: "read_file",
  input: '{"path":"src/math.ts"}',
} as const;

/** The AI SDK's mock model (ai 5), playing one tool call and one answer. */
export function scriptedModel(): MockLanguageModelV2 {
  let turn = 0;
  return new MockLanguageModelV2({
    doGenerate: () => {
      turn += 1;
      return Promise.resolve(
        turn === 1 ? { content: [readMath], finishReason: "tool-calls", usage, warnings: [] } : {
          content: [{ type: "text", text: "src/math.ts exports add()." }],
          finishReason: "stop",
          usage,
          warnings: [],
        },
      );
    },
  });
}
