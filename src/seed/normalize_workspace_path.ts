import { normalizeWorkspacePath as normalizeToSegments } from "../core/path/normalize_workspace_path.ts";

/** How {@link normalizeWorkspacePath} joins the segments: with `/` (`posix`) or `\` (`win32`). */
export type PathFlavor = "posix" | "win32";

/**
 * Checks a workspace-relative path with Paddock's path grammar (the same rules
 * on every platform) and returns it normalized: as segments with one
 * argument, or as one string joined for `flavor` with two — the seed
 * documents' form, for providers that build a remote path from it. The root
 * is `"."` as a string and `[]` as segments.
 *
 * @param path The path as the caller (or the model) wrote it.
 * @param flavor How to join the segments.
 * @returns The segments, or the joined path.
 * @throws {WorkspaceError} `INVALID_RELATIVE_PATH` (empty, NUL, absolute, drive, UNC or device paths,
 *   `..`, colons, device names, a trailing dot or space) or `PATH_TOO_LONG`.
 *
 * @example A remote path that cannot leave its base
 * ```ts
 * import { normalizeWorkspacePath } from "@paddock/tools";
 * const abs = (path: string) => `/home/user/project/${normalizeWorkspacePath(path, "posix")}`;
 * abs("src\\./a.ts"); // "/home/user/project/src/a.ts"
 * abs("../etc/passwd"); // throws INVALID_RELATIVE_PATH
 * normalizeWorkspacePath("src/./a.ts"); // ["src", "a.ts"]
 * ```
 */
export function normalizeWorkspacePath(path: string): string[];
/**
 * The seed's form: the normalized path as one string joined with the flavour's separator (`.` for the root).
 *
 * @example Joining for a Windows box
 * ```ts
 * import { normalizeWorkspacePath } from "@paddock/tools";
 * normalizeWorkspacePath("src/./lib/a.ts", "win32"); // "src\\lib\\a.ts"
 * normalizeWorkspacePath("src\\lib\\a.ts", "posix"); // "src/lib/a.ts"
 * normalizeWorkspacePath(".", "posix"); // "."
 * ```
 */
export function normalizeWorkspacePath(path: string, flavor: PathFlavor): string;
export function normalizeWorkspacePath(path: string, flavor?: PathFlavor): string[] | string {
  const segments = normalizeToSegments(path);
  if (flavor === undefined) return segments;
  if (flavor !== "posix" && flavor !== "win32") {
    throw new TypeError(`Cannot normalize the path: unknown flavor '${String(flavor)}' (expected "posix" or "win32")`);
  }
  return segments.length === 0 ? "." : segments.join(flavor === "posix" ? "/" : "\\");
}
