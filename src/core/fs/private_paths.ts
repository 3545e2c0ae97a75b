/**
 * Private paths: what no tool reads, lists, finds, searches, shows, moves or
 * overwrites (`PATH_PRIVATE`), declared once on the workspace
 * (`openWorkspace(root, { privatePaths })`). Patterns are read as protected
 * paths are (see `DEFAULT_PROTECTED_PATHS`): `name` (globs with `*`, any case)
 * matches an entry of that name at any depth, and `folder/**` every path below
 * a folder of that name. A path is private when it, or any folder on it, matches.
 *
 * Where it is checked: every path a tool names is resolved by `resolvePath`,
 * which refuses a private path as given and as resolved (a link
 * `notes -> .env` is refused like `.env`) before any side effect; the walks of
 * `find_files`, `grep` and `directory_tree` and the listing of
 * `list_directory` leave private entries out (a private folder is not
 * entered) and count them; a `NOT_FOUND` hint never offers a private name.
 *
 * @module
 */
import { WorkspaceError } from "../errors.ts";
import { protectedPattern } from "./protected_paths.ts";

/**
 * Checks private patterns as the workspace takes them: a name or glob
 * (`.env`, `.env.*`), or `FOLDER/**` (`secrets/**`). A path with a `/` in it
 * (`config/.env`) would never match (patterns match one name at any depth),
 * so it is refused rather than silently protecting nothing.
 *
 * @param patterns The patterns.
 * @returns Nothing.
 * @throws {TypeError} For the first pattern that is not one of those forms.
 *
 * @example
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * await openWorkspace(".", { privatePaths: [".env", ".env.*", "secrets/**"] }); // config/.env would throw
 * ```
 */
export function checkPrivatePatterns(patterns: readonly string[]): void {
  for (const value of patterns) {
    const name = typeof value === "string" && value.endsWith("/**") ? value.slice(0, -3) : value;
    if (
      typeof name !== "string" || name.length === 0 || name.includes("/") || name.includes("\\") ||
      name.includes("\0")
    ) {
      throw new TypeError(
        `bad private path '${String(value)}': expected a name or glob (.env, .env.*) or FOLDER/** (secrets/**); ` +
          "a name matches at any depth, so give config/.env as .env",
      );
    }
  }
}

/**
 * The private pattern `segments` fall under, if any: the path itself or a folder on it.
 *
 * @param segments A workspace-relative path, as segments.
 * @param patterns The private paths (empty: nothing is private).
 * @returns The matching pattern, or `undefined`.
 */
export function privatePattern(segments: readonly string[], patterns: readonly string[]): string | undefined {
  if (patterns.length === 0) return undefined;
  for (let end = segments.length; end > 0; end--) {
    const found = protectedPattern(segments.slice(0, end), patterns);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether one entry, listed in a folder that is not private itself, is private.
 *
 * @param folderSegments The listed folder's segments (not private).
 * @param name The entry's name.
 * @param patterns The private paths.
 * @returns Whether the entry is to be left out.
 */
export function isPrivateEntry(folderSegments: readonly string[], name: string, patterns: readonly string[]): boolean {
  return patterns.length > 0 && protectedPattern([...folderSegments, name], patterns) !== undefined;
}

/**
 * The error for a private path: the code, the path as given, and what to do instead.
 *
 * @param action The action refused ("read", "write", …).
 * @param display The path as the caller gave it.
 * @param pattern The private pattern it fell under.
 * @returns The error to throw.
 */
export function privatePathError(action: string, display: string, pattern: string): WorkspaceError {
  // The hint is the code's own (error_hints.ts).
  return new WorkspaceError("PATH_PRIVATE", `Cannot ${action} '${display}': it is a private path ('${pattern}')`, {
    path: display,
  });
}
