/**
 * The Vercel AI SDK adapter (`@paddock/tools/ai-sdk`): Paddock's tools as the
 * `tools` object of `generateText` / `streamText`. Works with `ai` 5, 6 and 7
 * (an optional peer dependency, `^5 || ^6 || ^7`; the suite runs a round trip
 * through each major's mock model). Nothing is imported from `ai`, not even
 * types: the returned object is built to fit each major's `ToolSet`, which
 * the suite checks with `tsc` against ai 5, 6 and 7.
 *
 * @example Using the tools with generateText
 * ```ts
 * import { generateText, type LanguageModel, stepCountIs } from "ai";
 * import { createCodingTools } from "@paddock/tools";
 * import { toAISDKTools } from "@paddock/tools/ai-sdk";
 * declare const model: LanguageModel;
 * const { text } = await generateText({
 *   model,
 *   tools: toAISDKTools(createCodingTools("./project")),
 *   stopWhen: stepCountIs(10),
 *   prompt: "Fix the failing test",
 * });
 * ```
 *
 * @module
 */
import { WorkspaceError } from "../core/errors.ts";
import { executeToolCall, type ExecuteToolCallOptions } from "../registry/execute_tool_call.ts";
import { ToolRegistry } from "../registry/tool_registry.ts";
import type { AnyTool, JsonSchema } from "../tools/tool.ts";

/** Options of {@link toAISDKTools}: the call layer's hooks and approval callback. */
export type AISDKToolsOptions = ExecuteToolCallOptions;

/**
 * The markers the AI SDK's own `jsonSchema()` puts on a schema object: ai 5,
 * 6 and 7 test for the schema key, ai 5 also for the validator key. Building
 * the object here keeps the adapter free of a runtime import of `ai`, so it
 * works with whichever major is installed (the suite runs all three).
 */
const AI_SDK_SCHEMA = Symbol.for("vercel.ai.schema");
const AI_SDK_VALIDATOR = Symbol.for("vercel.ai.validator");

/** What `execute` and `needsApproval` receive from the SDK (the fields Paddock reads). */
export interface AISDKCallOptions {
  /** The id of the model's tool call. */
  toolCallId: string;
  /** Cancels the call. @default undefined */
  abortSignal?: AbortSignal;
}

/** A JSON value, as tool outputs reach the model. */
export type AISDKJsonValue = null | string | number | boolean | AISDKJsonValue[] | { [key: string]: AISDKJsonValue };

/** The model-facing output of a call: JSON, flagged `error-json` for Paddock's `{ error: … }` bodies. */
export interface AISDKModelOutput {
  /** `json` for a result, `error-json` for a failure. */
  type: "json" | "error-json";
  /** The tool's output, or `{ error: { code, message, hint? } }`. */
  value: AISDKJsonValue;
}

/**
 * The schema object the SDK reads `inputSchema` from: Paddock's JSON Schema
 * in the wrapper the SDK's own `jsonSchema()` makes. Its TypeScript type is
 * opaque (`never`): each major declares that wrapper with its own unique
 * symbol, and only an opaque type fits all of them.
 */
export type AISDKSchema = never;

/** One Paddock tool as an AI SDK tool (what `tool()` returns, for ai 5, 6 and 7). */
export interface AISDKTool {
  /** The tool's description. */
  description: string;
  /** Paddock's JSON Schema of the arguments (passes every value on: Paddock validates). */
  inputSchema: AISDKSchema;
  /** ai 6 and 7: whether the SDK must hold the call for a person's approval; set only without an `approve` callback. */
  needsApproval?: (input: unknown, options: AISDKCallOptions) => Promise<boolean>;
  /** Runs the call through `executeToolCall`; resolves to the parsed JSON result (an error is `{ error: … }`). */
  execute: (input: unknown, options: AISDKCallOptions) => Promise<AISDKJsonValue>;
  /**
   * The result as the model sees it. ai 5 passes the output, ai 6 and 7
   * `{ toolCallId, input, output }`; both are read.
   */
  // deno-lint-ignore no-explicit-any
  toModelOutput: (argument: any) => AISDKModelOutput;
}

/** The tools by name: the `tools` of `generateText` / `streamText`. */
export type AISDKToolSet = Record<string, AISDKTool>;

/**
 * Paddock's tools for the AI SDK. Each call goes through `executeToolCall`:
 * arguments are validated by Paddock (the SDK's own check passes everything
 * on), `beforeToolCall` hooks and approvals apply, and the abort signal is
 * passed on. The tool's output is the parsed JSON result; a failure is
 * `{ error: { code, message, hint? } }` and reaches the model as an
 * `error-json` tool result.
 *
 * Approvals: with an `approve` callback, Paddock asks it, as
 * `executeToolCall` does. Without one, a tool that needs approval gets the
 * SDK's `needsApproval` (ai 6 and 7): the SDK stops with a
 * `tool-approval-request`, and runs the call once the application answers
 * with an approving `tool-approval-response` (a denial reaches the model as
 * `execution-denied`). ai 5 has no such flow, and ai 7's `toolApproval`
 * option replaces the tools' own `needsApproval`: there such a call is not
 * run and comes back as `TOOL_APPROVAL_REQUIRED`.
 *
 * @param tools The tools (a list or a registry).
 * @param options Hooks and the approval callback.
 * @returns The object `generateText({ tools })` takes.
 *
 * @example Asking a person before a tool that needs approval
 * ```ts
 * import { generateText, type LanguageModel, stepCountIs } from "ai";
 * import { createCodingTools } from "@paddock/tools";
 * import { toAISDKTools } from "@paddock/tools/ai-sdk";
 * declare const model: LanguageModel;
 * declare function askUser(question: string): Promise<boolean>;
 * const tools = toAISDKTools(createCodingTools("./project"), { approve: ({ toolName }) => askUser(`Allow ${toolName}?`) });
 * await generateText({ model, tools, stopWhen: stepCountIs(10), prompt: "Fix the failing test" });
 * ```
 */
export function toAISDKTools(
  tools: readonly AnyTool[] | ToolRegistry,
  options: AISDKToolsOptions = {},
): AISDKToolSet {
  const registry = tools instanceof ToolRegistry ? tools : new ToolRegistry(tools);
  // Calls the SDK held for approval: the SDK asks needsApproval right before it
  // runs an approved call (ai 6 and 7), so a call seen here and then executed
  // was approved by a person through the SDK.
  const heldBySdk = new Set<string>();
  const set: AISDKToolSet = {};
  for (const paddockTool of registry.list()) {
    const name = paddockTool.name;
    const sdkApproval = options.approve === undefined && paddockTool.needsApproval !== undefined;
    set[name] = {
      description: paddockTool.description,
      inputSchema: passThroughSchema(paddockTool.inputSchema) as AISDKSchema,
      ...(sdkApproval
        ? {
          needsApproval: async (input: unknown, { toolCallId }: AISDKCallOptions): Promise<boolean> => {
            const needed = await toolNeedsApproval(paddockTool, input);
            if (needed) heldBySdk.add(toolCallId);
            return needed;
          },
        }
        : {}),
      execute: async (input: unknown, { toolCallId, abortSignal }: AISDKCallOptions): Promise<AISDKJsonValue> => {
        const approvedBySdk = heldBySdk.delete(toolCallId);
        const result = await executeToolCall(
          registry,
          { id: toolCallId, name, arguments: input },
          abortSignal,
          approvedBySdk ? { ...options, approve: () => true } : options,
        );
        return JSON.parse(result.content);
      },
      toModelOutput: (argument: unknown): AISDKModelOutput => {
        const output = isWrappedOutput(argument) ? argument.output : argument;
        return { type: isErrorBody(output) ? "error-json" : "json", value: (output ?? null) as AISDKJsonValue };
      },
    };
  }
  return set;
}

/**
 * A schema object the SDK accepts as it accepts `jsonSchema(schema)`. It
 * passes every value on: Paddock validates in `executeToolCall`, so a bad
 * argument reaches the model as Paddock's own error result.
 */
function passThroughSchema(schema: JsonSchema): object {
  return {
    [AI_SDK_SCHEMA]: true,
    [AI_SDK_VALIDATOR]: true,
    _type: undefined,
    jsonSchema: schema,
    validate: (value: unknown) => ({ success: true, value }),
  };
}

/** Whether the tool's own `needsApproval` holds for `input` (an invalid input is not held: it fails when run). */
async function toolNeedsApproval(tool: AnyTool, input: unknown): Promise<boolean> {
  if (typeof tool.needsApproval !== "function") return tool.needsApproval === true;
  let validated: unknown;
  try {
    validated = tool.validate(input);
  } catch (error) {
    if (error instanceof WorkspaceError) return false;
    throw error;
  }
  return (await tool.needsApproval(validated)) === true;
}

/** ai 6 and 7 call `toModelOutput({ toolCallId, input, output })`; no Paddock output has a `toolCallId`. */
function isWrappedOutput(value: unknown): value is { toolCallId: string; output: unknown } {
  return typeof value === "object" && value !== null &&
    typeof (value as { toolCallId?: unknown }).toolCallId === "string" &&
    "output" in value;
}

/** Whether `value` is Paddock's `{ error: { code, message } }` body. */
function isErrorBody(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const keys = Object.keys(value);
  const error = (value as { error?: unknown }).error;
  return keys.length === 1 && keys[0] === "error" && typeof error === "object" && error !== null &&
    typeof (error as { code?: unknown }).code === "string";
}
