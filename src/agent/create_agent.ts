import { WorkspaceError } from "../core/errors.ts";
import { ToolRegistry } from "../registry/tool_registry.ts";
import type { AnyTool } from "../tools/tool.ts";
import type { AgentMessage } from "./agent_message.ts";
import type { AgentDefinition } from "./agent_definition.ts";
import { AgentExecutor } from "./agent_executor.ts";
import type { AgentRunResult } from "./agent_run_result.ts";
import type { AgentRunState } from "./agent_run_state.ts";
import type { ApprovalDecision } from "./approval_decision.ts";
import { ApprovalRequiredError } from "./approval_required_error.ts";
import type { ApprovalStore } from "./approval_store.ts";
import type { ModelProvider } from "./model_provider.ts";

/** Options of {@link createAgent}. */
export interface CreateAgentOptions extends AgentDefinition {
  /** The model. */
  provider: ModelProvider;
  /** The tools, as a list or a registry. */
  tools: readonly AnyTool[] | ToolRegistry;
  /** Remembered approval decisions. @default none */
  approvalStore?: ApprovalStore;
}

/** What `send` and `resume` return. */
export interface AgentReply {
  /** The model's final text. */
  text: string;
  /** The whole conversation so far, this exchange included. */
  messages: AgentMessage[];
  /** Model calls made for this message. */
  steps: number;
}

/** Per-call options of {@link Agent.send}. */
export interface AgentSendOptions {
  /** Cancels the run: it rejects with an AbortError. @default undefined (not cancellable) */
  signal?: AbortSignal;
}

/** A conversation with one agent; see {@link createAgent}. */
export interface Agent extends AgentDefinition {
  /** The model. */
  readonly provider: ModelProvider;
  /** The tools. */
  readonly toolRegistry: ToolRegistry;
  /** The conversation so far (completed exchanges only). */
  readonly messages: readonly AgentMessage[];
  /**
   * Sends a message and runs the loop to the model's final answer.
   * @throws {ApprovalRequiredError} When a call needs approval (resume with {@link Agent.resume}).
   * @throws {WorkspaceError} `AGENT_MAX_STEPS` when the model keeps calling tools.
   */
  send(text: string, options?: AgentSendOptions): Promise<AgentReply>;
  /**
   * Continues a run that paused for approval.
   * @throws {ApprovalRequiredError} When another call needs approval.
   */
  resume(state: AgentRunState, decisions: readonly ApprovalDecision[], options?: AgentSendOptions): Promise<AgentReply>;
}

/**
 * Creates an agent for the simple case: `send` a message, get the final text.
 * The agent keeps the conversation between sends (one send at a time).
 *
 * @param options Instructions, model, tools, and optionally hooks, an approval store and the step limit.
 * @returns The agent.
 *
 * @example Talking to an agent
 * ```ts
 * import { createAgent, createCodingTools, type ModelProvider } from "@paddock/tools";
 * declare const provider: ModelProvider;
 * const agent = createAgent({ instructions: "You fix bugs.", provider, tools: createCodingTools("./project") });
 * const { text } = await agent.send("The add function subtracts; fix it.");
 * ```
 */
export function createAgent(options: CreateAgentOptions): Agent {
  const { provider, approvalStore } = options;
  const toolRegistry = options.tools instanceof ToolRegistry ? options.tools : new ToolRegistry(options.tools);
  const executor = new AgentExecutor();
  let messages: AgentMessage[] = [];
  const definition: AgentDefinition = { instructions: options.instructions };
  if (options.beforeToolCall !== undefined) definition.beforeToolCall = options.beforeToolCall;
  if (options.maxSteps !== undefined) definition.maxSteps = options.maxSteps;

  const settle = (run: AgentRunResult): AgentReply => {
    if (run.finishReason === "awaiting-approval") throw new ApprovalRequiredError(run.pendingApprovals, run.state);
    if (run.finishReason === "max-steps") {
      throw new WorkspaceError(
        "AGENT_MAX_STEPS",
        `Cannot finish the run: the model made ${run.steps} calls without a final answer`,
        { hint: "raise maxSteps or give the model a clearer task" },
      );
    }
    messages = run.messages;
    return { text: run.text, messages: [...run.messages], steps: run.steps };
  };

  return {
    ...definition,
    provider,
    toolRegistry,
    get messages(): readonly AgentMessage[] {
      return messages;
    },
    send: async (text, sendOptions = {}) =>
      settle(
        await executor.execute({
          agent: definition,
          input: text,
          history: messages,
          provider,
          toolRegistry,
          approvalStore,
          signal: sendOptions.signal,
        }),
      ),
    resume: async (state, decisions, sendOptions = {}) =>
      settle(
        await executor.resumeAfterApproval({
          agent: definition,
          state,
          decisions,
          provider,
          toolRegistry,
          approvalStore,
          signal: sendOptions.signal,
        }),
      ),
  };
}
