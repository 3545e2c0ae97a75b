// An in-process queue per canonical target path (not a file lock), so this
// process never runs two atomic writes to the same file at once, nor a write
// and a removal of it. Other processes are not held back; the identity checks
// of the atomic write and of the removal notice their changes instead.
import type { Folder } from "./folder.ts";

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `task` once every earlier task queued in this process for `key` has settled.
 *
 * @param key The canonical host path of the target.
 * @param task The work to serialise; told whether it had to wait for an earlier
 * task (when it did not, nothing in this process touched the target in between).
 * @returns What `task` returns.
 */
export function runInTargetQueue<T>(key: string, task: (waited: boolean) => Promise<T>): Promise<T> {
  const earlier = queues.get(key);
  const waited = earlier !== undefined;
  const start = () => task(waited);
  const run = (earlier ?? Promise.resolve()).then(start, start);
  const settled = run.then(() => undefined, () => undefined);
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

/**
 * The queue's key for the name `name` at the held folder `folder`: the folder's identity and the name.
 *
 * @param folder The held folder.
 * @param name The entry's name in it.
 * @returns The key.
 */
export function targetKey(folder: Folder, name: string): string {
  return `${folder.stat.dev}:${folder.stat.ino}:${folder.stat.birthtimeMs ?? 0}/${name}`;
}

/**
 * Runs `task` once it holds the queues of every key (each once, in one order
 * for every caller, so two tasks that need the same two names never wait on
 * each other): a move holds its source's name and its destination's.
 *
 * @param keys The keys ({@link targetKey}).
 * @param task The work to serialise.
 * @returns What `task` returns.
 */
export function runInTargetQueues<T>(keys: readonly string[], task: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(keys)].sort();
  const step = (index: number): Promise<T> =>
    index === sorted.length ? task() : runInTargetQueue(sorted[index], () => step(index + 1));
  return step(0);
}

// Names this process has made for a moment (a write's temp file, a removal's or a move's aside), by key.
const transientNames = new Set<string>();

/**
 * Marks a name this process is about to make for a moment at a held folder (a
 * temp file, an aside), until the returned function is called: a recursive
 * delete in this process then leaves it to its maker ({@link isTransientName}).
 *
 * @param key The name's key ({@link targetKey}).
 * @returns Lets the name go.
 */
export function holdTransientName(key: string): () => void {
  transientNames.add(key);
  return () => transientNames.delete(key);
}

/**
 * Whether a name is one this process made for a moment and still uses.
 *
 * @param key The name's key ({@link targetKey}).
 * @returns Whether it is held.
 */
export function isTransientName(key: string): boolean {
  return transientNames.has(key);
}
