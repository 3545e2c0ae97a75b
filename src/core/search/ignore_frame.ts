import ignore, { type Ignore } from "ignore";
import type { Folder } from "../fs/folder.ts";
import { type IgnorePrefilter, ignorePrefilter } from "./ignore_prefilter.ts";
import { readRegularFile } from "../fs/read_regular_file.ts";
import { decodeUtf8Lenient } from "../text/utf8.ts";
import type { Workspace } from "../fs/workspace.ts";

/** The rules of one `.gitignore`. */
export interface IgnoreFrame {
  /** Its folder, canonical and relative to the root. */
  base: string;
  /** The rules. */
  rules: Ignore;
  /** Whether a path may match any rule (false is certain): most paths skip the rule scan. */
  may: IgnorePrefilter;
}

/**
 * Whether the deepest frame with an opinion ignores `canonical` (git's order:
 * a later, deeper file overrides an earlier one).
 *
 * @param frames The frames that apply, shallowest first.
 * @param canonical The path, canonical and relative to the root.
 * @param isDirectory Whether it is a folder.
 * @returns Whether it is ignored.
 */
export function isIgnored(frames: readonly IgnoreFrame[], canonical: string, isDirectory: boolean): boolean {
  for (let i = frames.length - 1; i >= 0; i--) {
    const { base, rules } = frames[i];
    const relative = base === "" ? canonical : canonical.slice(base.length + 1);
    if (!frames[i].may(relative)) continue; // no rule can match: no opinion
    let result;
    try {
      result = rules.test(isDirectory ? `${relative}/` : relative);
    } catch {
      continue; // a name the ignore grammar cannot express is never ignored
    }
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * Reads `.gitignore` at a held folder: a regular file only (a link is not
 * followed), bounded; anything unreadable means no rules.
 *
 * @param workspace The workspace.
 * @param folder The held folder.
 * @param maxBytes The largest file read.
 * @returns The frame, or `null` for no rules.
 */
export async function loadIgnoreFrame(
  workspace: Workspace,
  folder: Folder,
  maxBytes: number,
): Promise<IgnoreFrame | null> {
  const path = workspace.childPath(folder, ".gitignore");
  const read = await readRegularFile(workspace.host, path, maxBytes).catch(() => null);
  if (read === null || read.kind !== "read") return null;
  const text = decodeUtf8Lenient(read.bytes).replace(/^\uFEFF/, "");
  return {
    base: folder.segments.join("/"),
    rules: ignore({ ignorecase: false }).add(text),
    may: ignorePrefilter(text),
  };
}
