import { AGENT_MAX_STEPS } from "../core/limits.ts";
import {
  type ApprovalRequest,
  deniedResult,
  prepareToolCall,
  runPreparedToolCall,
  type ToolCall,
  type ToolCallResult,
} from "../registry/execute_tool_call.ts";
import type { AgentMessage, AssistantMessage } from "./agent_message.ts";
import type { AgentRunResult } from "./agent_run_result.ts";
import type { AgentExecuteOptions, AgentResumeOptions, AgentRunContext } from "./agent_run_options.ts";
import type { AgentRunState, PausedToolCall } from "./agent_run_state.ts";
import type { ApprovalDecision } from "./approval_decision.ts";

/**
 * The agent loop: ask the model, run the tool calls it makes one after the
 * other (results in the same order), hand the results back, until the model
 * answers without calls or the step limit is reached.
 *
 * A call that needs approval (the tool's `needsApproval`, unless the approval
 * store remembers a decision) pauses the run before it has any side effect:
 * the result is `finishReason: "awaiting-approval"` with the pending calls and
 * a plain-JSON `state`. Calls before it in the same turn have run; calls after
 * it wait. {@link AgentExecutor.resumeAfterApproval} continues with one
 * decision per pending call: approved calls run (with the exact arguments
 * shown to the person, validated again; hooks are not run again), denied ones
 * become `TOOL_CALL_DENIED` results the model sees.
 *
 * The executor holds no run state; any instance can resume any state.
 *
 * @example Pausing for approval and resuming later
 * ```ts
 * import { AgentExecutor, type AgentDefinition, type AgentRunState, type ModelProvider, ToolRegistry } from "@paddock/tools";
 * declare const agent: AgentDefinition;
 * declare const provider: ModelProvider;
 * declare const toolRegistry: ToolRegistry;
 * declare const db: { save(text: string): Promise<void>; load(): Promise<string> };
 * const executor = new AgentExecutor();
 * const run = await executor.execute({ agent, input: "run the tests", provider, toolRegistry });
 * if (run.finishReason === "awaiting-approval") {
 *   await db.save(JSON.stringify(run.state));
 *   // … later, maybe in another process:
 *   const state: AgentRunState = JSON.parse(await db.load());
 *   const decisions = state.toolCalls.flatMap((c) => c.status === "awaiting-approval" ? [{ toolCallId: c.call.id, approved: true }] : []);
 *   const done = await new AgentExecutor().resumeAfterApproval({ agent, state, decisions, provider, toolRegistry });
 * }
 * ```
 */
export class AgentExecutor {
  /**
   * Starts a run, without an instance (the executor holds no state): the
   * same as `new AgentExecutor().execute(options)`.
   *
   * @param options The agent, its model and tools, the input.
   * @returns How the run ended.
   *
   * @example Pausing before a shell command
   * ```ts
   * import { AgentExecutor, type AgentDefinition, type ApprovalStore, type ModelProvider, ToolRegistry } from "@paddock/tools";
   * declare const agent: AgentDefinition, provider: ModelProvider, approvalStore: ApprovalStore;
   * declare const toolRegistry: ToolRegistry, input: string;
   * const paused = await AgentExecutor.execute({ agent, input, provider, toolRegistry, approvalStore });
   * if (paused.finishReason === "awaiting-approval") {
   *   const decisions = paused.pendingApprovals.map((call) => ({ toolCallId: call.toolCallId, approved: true }));
   *   await AgentExecutor.resumeAfterApproval({ agent, state: paused.state, decisions, provider, toolRegistry });
   * }
   * ```
   */
  static execute(options: AgentExecuteOptions): Promise<AgentRunResult> {
    return new AgentExecutor().execute(options);
  }

  /**
   * Continues a paused run, without an instance: the same as
   * `new AgentExecutor().resumeAfterApproval(options)`.
   *
   * @param options The state, the decisions, the agent, its model and tools.
   * @returns How the run ended (it may pause again).
   * @throws {Error} When the state is not a paused run, or a pending call has no decision.
   */
  static resumeAfterApproval(options: AgentResumeOptions): Promise<AgentRunResult> {
    return new AgentExecutor().resumeAfterApproval(options);
  }

  /**
   * Starts a run with the user's `input`.
   * @param options The agent, its model and tools, the input.
   * @returns How the run ended.
   */
  async execute(options: AgentExecuteOptions): Promise<AgentRunResult> {
    const messages: AgentMessage[] = [...(options.history ?? []), { role: "user", content: options.input }];
    return await this.loop(options, messages, 0);
  }

  /**
   * Continues a paused run with one decision per pending call.
   * @param options The state, the decisions, the agent, its model and tools.
   * @returns How the run ended (it may pause again).
   * @throws {Error} When the state is not a paused run, or a pending call has no decision.
   */
  async resumeAfterApproval(options: AgentResumeOptions): Promise<AgentRunResult> {
    const { state, decisions, toolRegistry, approvalStore, signal } = options;
    if (state?.version !== 1 || !Array.isArray(state.toolCalls) || !Array.isArray(state.messages)) {
      throw new Error("Cannot resume the run: the state is not a paused agent run (version 1)");
    }
    const byId = new Map(decisions.map((decision) => [decision.toolCallId, decision]));
    const awaiting = state.toolCalls.flatMap((entry) => entry.status === "awaiting-approval" ? [entry.call] : []);
    for (const call of awaiting) {
      if (!byId.has(call.id)) throw new Error(`Cannot resume the run: no decision for tool call '${call.id}'`);
    }
    for (const id of byId.keys()) {
      if (!awaiting.some((call) => call.id === id)) {
        throw new Error(`Cannot resume the run: tool call '${id}' is not awaiting approval`);
      }
    }
    // 1. Remember what the person asked to remember.
    for (const call of awaiting) {
      const decision = byId.get(call.id) as ApprovalDecision;
      if (decision.remember === undefined || approvalStore === undefined) continue;
      await approvalStore.remember({
        toolName: call.name,
        ...(decision.remember === "call" ? { arguments: call.arguments } : {}),
        scope: decision.remember,
        approved: decision.approved,
        ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      });
    }
    // 2. Finish the paused turn in order: approved and queued calls run, denied ones become results.
    const messages: AgentMessage[] = [...state.messages];
    for (const entry of state.toolCalls) {
      let result: ToolCallResult;
      if (entry.status === "done") {
        result = entry.result;
      } else if (entry.status === "awaiting-approval" && byId.get(entry.call.id)?.approved !== true) {
        result = deniedResult(entry.call, byId.get(entry.call.id)?.reason ?? "a person denied the call");
      } else {
        // Validated again (the state may have been stored and edited); hooks already ran before the pause.
        const prepared = await prepareToolCall(toolRegistry, entry.call);
        result = prepared.ready ? await runPreparedToolCall(prepared, signal) : prepared.result;
      }
      messages.push({ role: "tool", ...result });
    }
    // 3. Back to the model.
    return await this.loop(options, messages, state.steps);
  }

  /** Calls the model and runs its tool calls until it stops, pauses for approval or runs out of steps. */
  private async loop(context: AgentRunContext, messages: AgentMessage[], steps: number): Promise<AgentRunResult> {
    const { agent, provider, toolRegistry, signal } = context;
    const maxSteps = agent.maxSteps ?? AGENT_MAX_STEPS;
    while (steps < maxSteps) {
      signal?.throwIfAborted();
      const response = await provider.generate({
        instructions: agent.instructions,
        messages: [...messages],
        tools: toolRegistry.definitions(),
        signal,
      });
      steps++;
      // Ids name calls in results and decisions: a missing or repeated one is replaced.
      const seenIds = new Set<string>();
      const calls: ToolCall[] = (response.toolCalls ?? []).map((call, index) => {
        const given = typeof call.id === "string" && call.id !== "" && !seenIds.has(call.id) ? call.id : undefined;
        let id = given ?? `call_${steps}_${index + 1}`;
        while (seenIds.has(id)) id += "_";
        seenIds.add(id);
        return { id, name: call.name, arguments: call.arguments };
      });
      const turn: AssistantMessage = { role: "assistant" };
      if (response.text !== undefined && response.text !== "") turn.content = response.text;
      if (calls.length > 0) turn.toolCalls = calls;
      messages.push(turn);
      if (calls.length === 0) return { finishReason: "stop", text: response.text ?? "", messages, steps };

      const entries = await this.runTurn(context, calls);
      const pendingApprovals: ApprovalRequest[] = entries.flatMap((entry) =>
        entry.status === "awaiting-approval"
          ? [{ toolCallId: entry.call.id, toolName: entry.call.name, arguments: entry.call.arguments }]
          : []
      );
      if (pendingApprovals.length > 0) {
        // A deep copy through JSON: the state is plain data, whatever the tools returned.
        const state = JSON.parse(JSON.stringify({ version: 1, messages, steps, toolCalls: entries })) as AgentRunState;
        return { finishReason: "awaiting-approval", pendingApprovals, state, messages, steps };
      }
      for (const entry of entries) {
        if (entry.status === "done") messages.push({ role: "tool", ...entry.result });
      }
    }
    return { finishReason: "max-steps", messages, steps };
  }

  /**
   * Prepares and runs one turn's calls in order. From the first call that
   * needs a decision on, nothing runs: later calls are only prepared (hooks,
   * validation) and queued.
   */
  private async runTurn(context: AgentRunContext, calls: readonly ToolCall[]): Promise<PausedToolCall[]> {
    const { agent, toolRegistry, approvalStore, signal } = context;
    const entries: PausedToolCall[] = [];
    let paused = false;
    for (const call of calls) {
      signal?.throwIfAborted();
      const prepared = await prepareToolCall(toolRegistry, call, { beforeToolCall: agent.beforeToolCall });
      if (!prepared.ready) {
        entries.push({ status: "done", result: prepared.result });
        continue;
      }
      let needsApproval = prepared.needsApproval;
      if (needsApproval && approvalStore !== undefined) {
        const remembered = await approvalStore.lookup({
          toolName: prepared.call.name,
          arguments: prepared.call.arguments,
        });
        if (remembered?.approved === false) {
          const reason = remembered.reason ?? "a person denied such calls";
          entries.push({ status: "done", result: deniedResult(prepared.call, reason) });
          continue;
        }
        if (remembered?.approved === true) needsApproval = false;
      }
      if (needsApproval) {
        entries.push({ status: "awaiting-approval", call: prepared.call });
        paused = true;
      } else if (paused) {
        entries.push({ status: "queued", call: prepared.call });
      } else {
        entries.push({ status: "done", result: await runPreparedToolCall(prepared, signal) });
      }
    }
    return entries;
  }
}
