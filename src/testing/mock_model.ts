import type { AgentMessage } from "../agent/agent_message.ts";
import type { ModelProvider, ModelRequest, ModelResponse } from "../agent/model_provider.ts";
import type { ToolDefinitionJson } from "../registry/tool_registry.ts";

/** One scripted model turn: final text, or tool calls (with optional text). */
export type MockModelStep =
  | string
  | {
    /** Text sent along with the calls. */
    text?: string;
    /** The calls; `id` defaults to `call_<turn>_<index>` (both 1-based). */
    toolCalls: readonly { name: string; args?: unknown; id?: string }[];
  };

/** A request the mock model saw (a copy, without the signal). */
export interface RecordedModelRequest {
  /** The agent's instructions. */
  instructions: string;
  /** The conversation so far. */
  messages: AgentMessage[];
  /** The tools offered. */
  tools: ToolDefinitionJson[];
}

/** A scripted {@link ModelProvider}; see {@link mockModel}. */
export interface MockModel extends ModelProvider {
  /** Every request, in order. */
  readonly requests: readonly RecordedModelRequest[];
  /** Scripted steps not yet used. */
  readonly remaining: number;
}

/**
 * A scripted model for tests: each call to `generate` returns the next step.
 * A string step is a final answer; `{ toolCalls: [{ name, args }] }` makes
 * calls. It records every request it saw (`requests`), so a test can check
 * what the model was shown (tool results, definitions). Calling it after the
 * last step is an error naming the step count.
 *
 * @param steps The turns, in order.
 * @returns The model.
 *
 * @example Scripting a fix
 * ```ts
 * import { mockModel } from "@paddock/tools/testing";
 * const model = mockModel([
 *   { toolCalls: [{ name: "read_file", args: { path: "src/math.ts" } }] },
 *   "The bug is in add.",
 * ]);
 * ```
 */
export function mockModel(steps: readonly MockModelStep[]): MockModel {
  const requests: RecordedModelRequest[] = [];
  let next = 0;
  return {
    get requests(): readonly RecordedModelRequest[] {
      return requests;
    },
    get remaining(): number {
      return steps.length - next;
    },
    generate(request: ModelRequest): Promise<ModelResponse> {
      if (request.signal?.aborted) return Promise.reject(request.signal.reason);
      requests.push(JSON.parse(JSON.stringify({
        instructions: request.instructions,
        messages: request.messages,
        tools: request.tools,
      })) as RecordedModelRequest);
      if (next >= steps.length) {
        return Promise.reject(
          new Error(
            `mockModel: called ${requests.length} times, but the script has only ${steps.length} step${
              steps.length === 1 ? "" : "s"
            }`,
          ),
        );
      }
      const turn = next + 1;
      const step = steps[next++];
      if (typeof step === "string") return Promise.resolve({ text: step });
      const response: ModelResponse = {
        toolCalls: step.toolCalls.map((call, index) => ({
          id: call.id ?? `call_${turn}_${index + 1}`,
          name: call.name,
          arguments: call.args ?? {},
        })),
      };
      if (step.text !== undefined) response.text = step.text;
      return Promise.resolve(response);
    },
  };
}
