/**
 * Gives the event loop one turn: timers, I/O callbacks and incoming messages
 * run before the promise resolves. A message on a `MessageChannel` is a task
 * of its own without the 1 ms (or, under load, much longer) delay of
 * `setTimeout(0)`, and exists in Node, Deno, Bun and browsers. The channel is
 * closed once its message arrived, so it never keeps a process alive.
 *
 * @returns When the turn is over.
 */
export function yieldTurn(): Promise<void> {
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      port2.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
