/**
 * Which tool call a change of the journal belongs to. A call's changes form
 * one group, which `undo_last_change` takes back together; calls that overlap
 * in time (parallel tool calls of one turn, concurrent MCP calls) keep their
 * groups apart through a {@link CallScope}: the runtime's async context, which
 * the package entry points register (the core imports no runtime).
 *
 * @module
 */

/** Carries a tool call's group through every asynchronous step the call takes. */
export interface CallScope {
  /**
   * Runs `call` in `group`: {@link CallScope.current} gives `group` in every step it starts.
   *
   * @param group The call's group.
   * @param call The call.
   * @returns What `call` returns.
   */
  run<T>(group: number, call: () => Promise<T>): Promise<T>;
  /** The group of the call running now; `undefined` outside every call. */
  current(): number | undefined;
}

let scope: CallScope | undefined;
let nextGroup = 1;
// With a scope: the groups of the calls running now, each with how many of its calls run (a call inside a call
// counts too). A context that outlived its call (a timer it set, a promise it left) names a group not in here:
// what runs there is a call, or a change, of its own.
const liveGroups = new Map<number, number>();
// With no scope: the calls running now, and the one group they all join.
let runningCalls = 0;
let sharedGroup = 0;

/**
 * Sets how a call's group follows its asynchronous steps. `@paddock/tools`
 * and `@paddock/tools/mcp` register the runtime's `AsyncLocalStorage` on
 * import. With none, calls that overlap in time share one group.
 *
 * @param callScope The scope, or `undefined` for none.
 * @returns Nothing.
 *
 * @example A scope on Node's `AsyncLocalStorage`
 * ```ts
 * import { AsyncLocalStorage } from "node:async_hooks";
 * import { registerCallScope } from "@paddock/tools/host";
 * const storage = new AsyncLocalStorage<number>();
 * registerCallScope({ run: (group, call) => storage.run(group, call), current: () => storage.getStore() });
 * ```
 */
export function registerCallScope(callScope: CallScope | undefined): void {
  scope = callScope;
}

/**
 * Runs one tool call that may change files: its changes form one group.
 * A call made inside another (a tool that runs a tool) joins the outer one's.
 * `defineTool` runs every tool that is not read-only through it.
 *
 * @param call The call.
 * @returns What `call` returns.
 */
export async function runJournaledCall<T>(call: () => Promise<T>): Promise<T> {
  const running = scope;
  if (running !== undefined) {
    const group = currentCallGroup() ?? nextGroup++;
    liveGroups.set(group, (liveGroups.get(group) ?? 0) + 1);
    try {
      // Run in the scope even inside a call: the scope knows a call of the group still runs after the outer one ended.
      return await running.run(group, call);
    } finally {
      const left = (liveGroups.get(group) ?? 1) - 1;
      if (left === 0) liveGroups.delete(group);
      else liveGroups.set(group, left);
    }
  }
  if (runningCalls++ === 0) sharedGroup = nextGroup++;
  try {
    return await call();
  } finally {
    if (--runningCalls === 0) sharedGroup = 0;
  }
}

/**
 * The group of the call running now: with no scope registered, the one all running calls share.
 *
 * @returns The group; `undefined` outside every call (and in a context a call left behind when it ended).
 */
export function currentCallGroup(): number | undefined {
  if (scope === undefined) return sharedGroup || undefined;
  const group = scope.current();
  return group !== undefined && liveGroups.has(group) ? group : undefined;
}

/**
 * The group a change made now joins: its call's; outside every call, one of its own.
 *
 * @returns The group.
 */
export function changeGroup(): number {
  return currentCallGroup() ?? nextGroup++;
}

/**
 * Whether the call of a group still runs (with no scope registered: whether
 * the group is the one the running calls share).
 *
 * @param group The group.
 * @returns Whether a call of it still runs.
 */
export function callRunning(group: number): boolean {
  return scope === undefined ? group === sharedGroup : liveGroups.has(group);
}

/**
 * A group no call has, for changes journaled outside every call (a command
 * that ran in the background, when it ends).
 *
 * @returns The group.
 */
export function newChangeGroup(): number {
  return nextGroup++;
}
