/**
 * Counts this process's open descriptors that lie under one folder, from
 * `/proc/self/fd`: each descriptor's link is read, and only those whose target
 * is the folder or below it count, so the runtime's own descriptors (pipes,
 * sockets, its executable, vitest's files) do not. A file unlinked while open
 * still counts (its link reads `<path> (deleted)`).
 *
 * @module
 */
import * as fs from "node:fs";

/** Why descriptors cannot be counted here, or `null` when they can (Linux with procfs). */
export const descriptorCountUnavailable: string | null = (() => {
  try {
    fs.readdirSync("/proc/self/fd");
    return null;
  } catch (error) {
    return `/proc/self/fd cannot be read (${
      (error as { code?: string }).code ?? String(error)
    }); not Linux, or no procfs`;
  }
})();

/**
 * How many of this process's open descriptors point at `root` or below it.
 *
 * @param root An absolute, canonical folder path.
 * @returns The count, or `null` where `/proc/self/fd` cannot be read (see {@link descriptorCountUnavailable}).
 */
export function openDescriptorsUnder(root: string): number | null {
  if (descriptorCountUnavailable !== null) return null;
  const prefix = root.endsWith("/") ? root : root + "/";
  let count = 0;
  for (const fd of fs.readdirSync("/proc/self/fd")) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed meanwhile (the descriptor readdir itself used, among others)
    }
    if (target === root || target.startsWith(prefix)) count++;
  }
  return count;
}
