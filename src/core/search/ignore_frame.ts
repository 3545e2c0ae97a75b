import ignore, { type Ignore } from "ignore";
import type { Folder } from "../fs/folder.ts";
import { type IgnorePrefilter, ignorePrefilter, type NamePrefilter } from "./ignore_prefilter.ts";
import { readRegularFile } from "../fs/read_regular_file.ts";
import { decodeUtf8Lenient } from "../text/utf8.ts";
import type { Workspace } from "../fs/workspace.ts";
import { SEARCH_IGNORE_CACHE_CHARS } from "../limits.ts";

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
  const cut = canonical.lastIndexOf("/");
  return FolderIgnores.of(frames, cut < 0 ? "" : canonical.slice(0, cut)).ignores(
    canonical.slice(cut + 1),
    isDirectory,
  );
}

interface Layer {
  rules: Ignore;
  /** The folder, relative to the rules' folder. */
  folder: string;
  prefilter: NamePrefilter;
}

/**
 * {@link isIgnored} for the entries of one folder, carried down a walk: each
 * frame's prefilter is narrowed to the folder as the walk enters it, so an
 * entry costs a test of its name only.
 * `FolderIgnores.NONE.with(root).enter("a").ignores(name, dir)` is
 * `isIgnored([root], "a/" + name, dir)`.
 */
export class FolderIgnores {
  /** No rules: nothing is ignored. */
  static readonly NONE: FolderIgnores = new FolderIgnores([]);
  #layers: readonly Layer[];

  private constructor(layers: readonly Layer[]) {
    this.#layers = layers;
  }

  /**
   * The rules in force in a folder from its frames, shallowest first.
   *
   * @param frames The frames.
   * @param canonicalFolder The folder, canonical and relative to the root (`""` for the root).
   * @returns The rules.
   */
  static of(frames: readonly IgnoreFrame[], canonicalFolder: string): FolderIgnores {
    let rules = FolderIgnores.NONE;
    for (const frame of frames) {
      const below = frame.base === "" ? canonicalFolder : canonicalFolder.slice(frame.base.length + 1);
      let prefilter = frame.may.root();
      if (below !== "") { for (const name of below.split("/")) prefilter = prefilter.enter(name); }
      rules = new FolderIgnores([...rules.#layers, { rules: frame.rules, folder: below, prefilter }]);
    }
    return rules;
  }

  /**
   * These rules with the folder's own `.gitignore` added (it applies last).
   *
   * @param frame The folder's frame.
   * @returns The rules.
   */
  with(frame: IgnoreFrame): FolderIgnores {
    return new FolderIgnores([...this.#layers, { rules: frame.rules, folder: "", prefilter: frame.may.root() }]);
  }

  /**
   * The rules in force in a subfolder (before its own `.gitignore`).
   *
   * @param name The subfolder's name.
   * @returns The rules.
   */
  enter(name: string): FolderIgnores {
    if (this.#layers.length === 0) return this;
    return new FolderIgnores(this.#layers.map((layer) => ({
      rules: layer.rules,
      folder: layer.folder === "" ? name : `${layer.folder}/${name}`,
      prefilter: layer.prefilter.enter(name),
    })));
  }

  /**
   * Whether an entry of this folder is ignored.
   *
   * @param name Its name.
   * @param isDirectory Whether it is a folder.
   * @returns Whether the deepest frame with an opinion ignores it.
   */
  ignores(name: string, isDirectory: boolean): boolean {
    const layers = this.#layers;
    for (let i = layers.length - 1; i >= 0; i--) {
      const { rules, folder, prefilter } = layers[i];
      if (!prefilter.may(name)) continue; // no rule can match: no opinion
      const relative = folder === "" ? name : `${folder}/${name}`;
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
  const parsed = parseIgnore(text);
  // A walk's own rule set over the shared parsed rules: the results it caches per path stay the walk's.
  return { base: folder.segments.join("/"), rules: ignore({ ignorecase: false }).add(parsed.rules), may: parsed.may };
}

interface ParsedIgnore {
  /** The rules (compiled as they are first used, then kept). */
  rules: Ignore;
  may: IgnorePrefilter;
}

// Parsed `.gitignore` texts by content, oldest first; a hit moves to the end.
const parsedIgnores = new Map<string, ParsedIgnore>();
let parsedChars = 0;

/**
 * The rules and prefilter of one `.gitignore` text: parsed once, then kept
 * (by content, for every workspace: they depend on nothing else) while the
 * texts kept stay within {@link SEARCH_IGNORE_CACHE_CHARS}.
 *
 * @param text The file's text.
 * @returns Its parsed rules.
 */
function parseIgnore(text: string): ParsedIgnore {
  const kept = parsedIgnores.get(text);
  if (kept !== undefined) {
    parsedIgnores.delete(text);
    parsedIgnores.set(text, kept);
    return kept;
  }
  const parsed = { rules: ignore({ ignorecase: false }).add(text), may: ignorePrefilter(text) };
  if (text.length > SEARCH_IGNORE_CACHE_CHARS) return parsed;
  parsedIgnores.set(text, parsed);
  parsedChars += text.length;
  for (const [oldest] of parsedIgnores) {
    if (parsedChars <= SEARCH_IGNORE_CACHE_CHARS) break;
    parsedIgnores.delete(oldest);
    parsedChars -= oldest.length;
  }
  return parsed;
}
