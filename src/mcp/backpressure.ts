/**
 * The MCP server's side of flow control.
 *
 * @module
 */
import type { FlowControl } from "./server_types.ts";

/** The server's side of flow control: when to pause and resume the input. */
export interface Backpressure {
  /** Elicitations waiting for their answer (the input must stay open for them). */
  elicitations: number;
  /** Pauses or resumes the input for the current queue. */
  update(): void;
}

/**
 * Pauses the input when `maxQueued` calls wait for a slot and resumes it
 * when half of them have started (or whenever an elicitation waits for its
 * answer), so memory holds at most the running and `maxQueued` waiting calls.
 *
 * @param limiter The call limiter, as far as its queue length.
 * @param maxQueued Calls waiting for a slot before the input pauses.
 * @param control Pauses and resumes the input, if any.
 * @returns The flow control state.
 */
export function backpressure(
  limiter: { readonly waiting: number },
  maxQueued: number,
  control: FlowControl | undefined,
): Backpressure {
  let paused = false;
  const state: Backpressure = {
    elicitations: 0,
    update: () => {
      if (control === undefined) return;
      if (!paused && limiter.waiting >= maxQueued && state.elicitations === 0) {
        paused = true;
        control.pause();
      } else if (paused && (limiter.waiting <= maxQueued / 2 || state.elicitations > 0)) {
        paused = false;
        control.resume();
      }
    },
  };
  return state;
}
