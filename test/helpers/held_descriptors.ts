/**
 * The descriptors this process holds at one folder or below it, from
 * `/proc/self/fd`: each descriptor's link is read, and only those whose target
 * is the folder or below it count, so the runtime's own descriptors (pipes,
 * sockets, its executable, vitest's files) do not. A file unlinked while open
 * still counts (its link reads `<path> (deleted)`).
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The descriptors this process holds at `root` or below it, each as its path
 * relative to `root` (`""` for `root` itself), sorted.
 *
 * @param root A folder path (made canonical here).
 * @returns The paths; `[]` when `root` no longer exists (nothing can be held
 * below it); `null` where `/proc/self/fd` cannot be read (not Linux, or no procfs).
 */
export function descriptorsUnder(root: string): string[] | null {
  let names: string[];
  try {
    names = fs.readdirSync("/proc/self/fd");
  } catch {
    return null;
  }
  let real: string;
  try {
    real = fs.realpathSync(root);
  } catch {
    return []; // the folder is gone: nothing can be held below it
  }
  const held: string[] = [];
  for (const name of names) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/self/fd/${name}`);
    } catch {
      continue; // closed meanwhile (the readdir's own descriptor, among others)
    }
    if (target === real || target.startsWith(real + path.sep)) held.push(path.relative(real, target));
  }
  return held.sort();
}

/**
 * The descriptors held below `root`, not `root` itself (a workspace holds its
 * root for its whole life): a tool call that leaks a file or folder handle
 * leaves one here.
 *
 * @returns As {@link descriptorsUnder}, without `root`'s own.
 */
export function heldBelow(root: string): string[] | null {
  return descriptorsUnder(root)?.filter((relative) => relative !== "") ?? null;
}

/**
 * How many descriptors point at `root` or below it.
 *
 * @returns The count, or `null` where `/proc/self/fd` cannot be read.
 */
export function openDescriptorsUnder(root: string): number | null {
  return descriptorsUnder(root)?.length ?? null;
}
