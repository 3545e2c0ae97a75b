/**
 * `path` relative to `root` when `path` is absolute and lies inside it (or is
 * it: `.`), for a hint naming the form a tool takes; `undefined` otherwise (a
 * path outside the root gets no hint, so the root is not revealed). Pure
 * string work on POSIX and Windows forms (case-insensitive for a drive root);
 * a path holding `..` gets none.
 *
 * @param path The path as a caller gave it.
 * @param root An absolute root folder.
 * @returns The workspace-relative form, `/`-separated, or `undefined`.
 */
export function relativeInside(path: string, root: string): string | undefined {
  const windows = /^[A-Za-z]:[\\/]/.test(root);
  const normalize = (p: string) => (windows ? p.replace(/\\/g, "/").toLowerCase() : p).replace(/\/+$/, "");
  const base = normalize(root);
  const target = normalize(path);
  if (target === base) return ".";
  if (base === "" || !target.startsWith(base + "/")) return undefined;
  const rest = (windows ? path.replace(/\\/g, "/") : path).slice(base.length + 1).replace(/\/+$/, "");
  return rest.split("/").some((segment) => segment === "..") ? undefined : rest;
}

/**
 * The hint for an absolute path that lies inside the workspace: the relative form to use.
 *
 * @param relative The workspace-relative form ({@link relativeInside}).
 * @returns The hint.
 */
export function relativePathHint(relative: string): string {
  return `use the workspace-relative path '${relative}' (paths start at the workspace root)`;
}
