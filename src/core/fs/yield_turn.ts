// `setImmediate` where the runtime has one (Node, Bun and Deno all do): a
// task after I/O and timers, without the 1 ms clamp of `setTimeout(0)` (and
// its much longer delays on a loaded machine). Measured: a `MessageChannel`
// message is no such turn in Deno 2.9 and Bun 1.4 (a 2 ms interval timer
// barely ran between yields), so it is not used.
const setImmediateOf = (globalThis as { setImmediate?: (callback: () => void) => unknown }).setImmediate;

/**
 * Gives the event loop one turn: timers, I/O callbacks and incoming messages
 * run before the promise resolves.
 *
 * @returns When the turn is over.
 */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => {
    if (setImmediateOf !== undefined) setImmediateOf(resolve);
    else setTimeout(resolve, 0);
  });
}
