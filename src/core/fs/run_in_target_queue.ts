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
