/** Runs async tasks with at most a fixed number at once, the rest in arrival order. */
export interface CallLimiter {
  /** Runs `task` when a slot is free; resolves or rejects as it does. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

/**
 * Creates a {@link CallLimiter}.
 *
 * @param maxConcurrent Tasks running at once (at least 1).
 * @returns The limiter.
 *
 * @example Bounding a burst
 * ```ts
 * import { executeToolCall, type ToolCall, type ToolRegistry } from "@paddock/tools";
 * import { createCallLimiter } from "@paddock/tools/mcp";
 * declare const registry: ToolRegistry;
 * declare const calls: ToolCall[];
 * const limiter = createCallLimiter(16);
 * await Promise.all(calls.map((call) => limiter.run(() => executeToolCall(registry, call))));
 * ```
 */
export function createCallLimiter(maxConcurrent: number): CallLimiter {
  const limit = Math.max(1, Math.floor(maxConcurrent));
  const queue: (() => void)[] = [];
  let active = 0;
  const release = (): void => {
    const next = queue.shift();
    if (next !== undefined) next();
    else active--;
  };
  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    async run<T>(task: () => Promise<T>): Promise<T> {
      // A slot is handed directly from a finishing task to the next waiting one.
      if (active < limit) active++;
      else await new Promise<void>((resolve) => queue.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
