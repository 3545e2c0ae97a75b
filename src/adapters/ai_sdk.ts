/**
 * The Vercel AI SDK adapter (`@paddock/tools/ai-sdk`): Paddock's tools as the
 * `tools` object of `generateText` / `streamText`. Needs the `ai` package
 * (version 5), an optional peer dependency: only this entry point imports it.
 *
 * @module
 */
import { jsonSchema, type JSONSchema7, tool, type ToolSet } from "ai";
import { executeToolCall, type ExecuteToolCallOptions } from "../registry/execute_tool_call.ts";
import { ToolRegistry } from "../registry/tool_registry.ts";
import type { AnyTool } from "../tools/tool.ts";

/** Options of {@link toAISDKTools}: the call layer's hooks and approval callback. */
export type AISDKToolsOptions = ExecuteToolCallOptions;

/**
 * Paddock's tools for the AI SDK. Each call goes through `executeToolCall`:
 * arguments are validated by Paddock (not by the SDK), `beforeToolCall` hooks
 * and approvals apply (a call that needs approval and has no `approve`
 * callback is not run and comes back as `TOOL_APPROVAL_REQUIRED`), and the
 * abort signal is passed on. The tool's output is the parsed JSON result; a
 * failure is `{ error: { code, message, hint? } }`, sent to the model as an
 * `error-json` tool result.
 *
 * @param tools The tools (a list or a registry).
 * @param options Hooks and the approval callback.
 * @returns The object `generateText({ tools })` takes.
 *
 * @example Using the tools with generateText
 * ```ts
 * import { generateText, stepCountIs } from "ai";
 * import { createCodingTools } from "@paddock/tools";
 * import { toAISDKTools } from "@paddock/tools/ai-sdk";
 * const { text } = await generateText({
 *   model,
 *   tools: toAISDKTools(createCodingTools("./project")),
 *   stopWhen: stepCountIs(10),
 *   prompt: "Fix the failing test",
 * });
 * ```
 */
export function toAISDKTools(tools: readonly AnyTool[] | ToolRegistry, options: AISDKToolsOptions = {}): ToolSet {
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(tools);
  // Outputs that are error bodies, so toModelOutput can flag exactly those as errors.
  const errorOutputs = new WeakSet<object>();
  const set: ToolSet = {};
  for (const paddockTool of registry.list()) {
    const name = paddockTool.name;
    set[name] = tool<unknown, unknown>({
      description: paddockTool.description,
      inputSchema: jsonSchema<unknown>(paddockTool.inputSchema as JSONSchema7),
      execute: async (input, { toolCallId, abortSignal }) => {
        const result = await executeToolCall(
          registry,
          { id: toolCallId, name, arguments: input },
          abortSignal,
          options,
        );
        const output: unknown = JSON.parse(result.content);
        if (result.isError && typeof output === "object" && output !== null) errorOutputs.add(output);
        return output;
      },
      toModelOutput: (output: unknown) =>
        typeof output === "object" && output !== null && errorOutputs.has(output)
          ? { type: "error-json", value: output as never }
          : { type: "json", value: output as never },
    });
  }
  return set;
}
