/**
 * Whether a workspace path, as the caller wrote it, names a folder by its
 * form: it ends in a separator (`/` or `\`, as the path grammar reads both),
 * or in `.` after one. POSIX and Go's `os.Root` then resolve its last name as
 * a folder: `file.txt/` is `ENOTDIR` there, and `NOT_A_DIRECTORY` here.
 *
 * @param input The path as given (before {@link normalizeWorkspacePath} drops the trailing separator).
 * @returns `true` for `src/`, `src/.`, `src\`; `false` for `src` and `.`.
 */
export function namesFolder(input: string): boolean {
  return /[/\\]\.?$/.test(input);
}
