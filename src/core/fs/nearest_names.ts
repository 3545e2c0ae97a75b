import { NOT_FOUND_HINT_MAX_ENTRIES, NOT_FOUND_HINT_MAX_FOLDERS, NOT_FOUND_HINT_NAMES } from "../limits.ts";
import { isWorkspaceError } from "../errors.ts";
import { normalizeWorkspacePath } from "../path/normalize_workspace_path.ts";
import type { HostDirEntry } from "../../host.ts";
import { resolveFolder } from "./resolve_folder.ts";
import { isPrivateEntry } from "./private_paths.ts";
import type { Workspace } from "./workspace.ts";

/**
 * The hint of a `NOT_FOUND`: the names nearest the missing one in the first
 * folder on its path that exists, listed through the confined walk (the
 * folder is resolved from the held root like any tool's path, so a link out
 * of the workspace is refused, never listed). Best effort: any failure gives
 * `undefined` (the code's usual hint then stands).
 *
 * 1. Split the path (as the caller gave it) into segments.
 * 2. From the missing name's parent up, at most {@link NOT_FOUND_HINT_MAX_FOLDERS} folders: list the
 *    first that exists; a folder missing too moves one level up, one that cannot be listed
 *    otherwise (a link out of the workspace, a file) ends the search without a hint.
 * 3. Compare at most {@link NOT_FOUND_HINT_MAX_ENTRIES} of its entries with the missing name; offer the
 *    {@link NOT_FOUND_HINT_NAMES} nearest (folders with a trailing '/').
 *
 * @param workspace The workspace the call ran in.
 * @param display The path that was not found, as the caller gave it.
 * @returns The hint, or `undefined`.
 */
export async function nearestNamesHint(workspace: Workspace, display: string): Promise<string | undefined> {
  // 1. The segments.
  let segments: string[];
  try {
    segments = normalizeWorkspacePath(display);
  } catch {
    return undefined;
  }
  // 2. The first folder that exists, from the parent up.
  const lowest = Math.max(0, segments.length - NOT_FOUND_HINT_MAX_FOLDERS);
  for (let depth = segments.length - 1; depth >= lowest; depth--) {
    const folder = segments.slice(0, depth);
    const entries = await listConfined(workspace, folder);
    if (entries === "missing") continue;
    if (entries === undefined) return undefined;
    // 3. The nearest names.
    const wanted = segments[depth];
    const nearest = nearestEntries(wanted, entries.slice(0, NOT_FOUND_HINT_MAX_ENTRIES));
    const where = depth === 0 ? "the workspace root" : `'${folder.join("/")}'`;
    const gone = depth === segments.length - 1 ? "" : `'${segments.slice(0, depth + 1).join("/")}' does not exist; `;
    if (nearest.length === 0) {
      return `${gone}${where} holds no name close to '${wanted}': list_directory shows its entries, find_files finds a file by name`;
    }
    return `${gone}names in ${where} close to '${wanted}': ${nearest.map((name) => `'${name}'`).join(", ")}`;
  }
  return undefined;
}

// A folder's entries through the confined walk; "missing" when it does not exist, undefined when it
// cannot be listed otherwise (a file, a link out of the workspace, a swap).
async function listConfined(
  workspace: Workspace,
  segments: string[],
): Promise<HostDirEntry[] | "missing" | undefined> {
  try {
    const held = await resolveFolder(workspace, segments, { action: "list", display: segments.join("/") || "." });
    try {
      const entries = await workspace.host.readdir(held.folder.at);
      // `paths` route: the folder must still be the one the walk checked (not swapped for a link meanwhile).
      await workspace.confirm(held.folder);
      // A private name is never offered.
      const privatePaths = workspace.privatePaths ?? [];
      return privatePaths.length === 0
        ? entries
        : entries.filter((entry) => !isPrivateEntry(held.folder.segments, entry.name, privatePaths));
    } finally {
      await held.release();
    }
  } catch (error) {
    return isWorkspaceError(error, "NOT_FOUND") ? "missing" : undefined;
  }
}

// The entries nearest `wanted`, best first: same name in another case, then fewest edits (at most a
// third of the name, at least 2), then the same stem ('index.js' for 'index.ts'), then by name.
function nearestEntries(wanted: string, entries: readonly HostDirEntry[]): string[] {
  const lower = wanted.toLowerCase();
  const stem = stemOf(lower);
  const most = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { name: string; score: number }[] = [];
  for (const entry of entries) {
    const name = entry.name.toLowerCase();
    let score = name === lower ? 0 : editDistanceWithin(lower, name, most);
    if (score > most && (stemOf(name) === stem || name.startsWith(lower) || lower.startsWith(name))) score = most + 1;
    if (score > most + 1) continue;
    scored.push({ name: entry.kind === "directory" ? `${entry.name}/` : entry.name, score });
  }
  scored.sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return scored.slice(0, NOT_FOUND_HINT_NAMES).map((entry) => entry.name);
}

function stemOf(name: string): string {
  const dot = name.indexOf(".", 1);
  return dot < 0 ? name : name.slice(0, dot);
}

// Levenshtein distance of `a` and `b` if it is at most `most`, else `most + 2`: only a band of
// 2 * most + 1 cells per row is computed (cells outside it count as too far), so the cost is the
// name's length times the band, not its length squared.
function editDistanceWithin(a: string, b: string, most: number): number {
  const over = most + 2;
  if (Math.abs(a.length - b.length) > most) return over;
  let previous = new Array<number>(b.length + 2);
  let current = new Array<number>(b.length + 2);
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  previous[b.length + 1] = over;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - most);
    const to = Math.min(b.length, i + most);
    current[from - 1] = from === 1 ? i : over;
    let best = current[from - 1];
    for (let j = from; j <= to; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j - 1] + cost, previous[j] + 1, current[j - 1] + 1, over);
      if (current[j] < best) best = current[j];
    }
    current[to + 1] = over;
    if (best > most) return over;
    [previous, current] = [current, previous];
  }
  return previous[b.length] > most ? over : previous[b.length];
}
