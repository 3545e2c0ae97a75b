import * as fs from "node:fs";
import * as path from "node:path";

/**
 * The descriptors this process holds below `root` (not `root` itself, which a
 * workspace holds for its whole life), as `/proc/self/fd` shows them: a tool
 * call that leaks a file or folder handle leaves one here. `null` where there
 * is no `/proc/self/fd` to look at (not Linux).
 */
export function heldBelow(root: string): string[] | null {
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
    return []; // the fixture is gone: nothing can be held below it
  }
  const held: string[] = [];
  for (const name of names) {
    let target: string;
    try {
      target = fs.readlinkSync(`/proc/self/fd/${name}`);
    } catch {
      continue; // closed meanwhile (the readdir's own descriptor, among others)
    }
    if (target.startsWith(real + path.sep)) held.push(path.relative(real, target));
  }
  return held.sort();
}
