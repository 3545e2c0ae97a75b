/**
 * Protected paths: files that make an allowed command run other code
 * (`git status` runs `core.fsmonitor` from `.git/config`; `npm test` runs what
 * `package.json` says). With a `shell` allow list in force, a write tool that
 * could change them would turn the allow list into "run anything", so the
 * write tools refuse to change them (`PROTECTED_PATH`).
 *
 * @module
 */
import { WorkspaceError } from "../errors.ts";

/**
 * The default protected paths. A pattern without `/` matches an entry's name
 * at any depth (`*` stands for any characters within the name); `name/**`
 * matches a folder of that name at any depth and everything below it.
 * Matching ignores case (case-insensitive filesystems would alias `.GIT`).
 */
export const DEFAULT_PROTECTED_PATHS: readonly string[] = Object.freeze([
  // Version control: config (fsmonitor, hooks, pager, drivers), hooks, redirects.
  ".git/**",
  ".gitattributes",
  ".gitmodules",
  ".hg/**",
  ".husky/**",
  // Package managers: scripts, registries, install hooks, what `npm test` resolves.
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmfile.cjs",
  "pnpm-lock.yaml",
  "pnpm-workspace.yaml",
  "bun.lock",
  "bun.lockb",
  "bunfig.toml",
  ".npmrc",
  "deno.json",
  "deno.jsonc",
  "deno.lock",
  "node_modules/**",
  // Build and test runners that load code from the project.
  "Makefile",
  "makefile",
  "GNUmakefile",
  "*.mk",
  "justfile",
  "Taskfile.yml",
  "vitest.config.*",
  "vite.config.*",
  "jest.config.*",
  ".mocharc*",
  "conftest.py",
  "pytest.ini",
  "setup.py",
  "setup.cfg",
  "pyproject.toml",
  "tox.ini",
  "noxfile.py",
  "Cargo.toml",
  "build.rs",
  ".cargo/**",
  "go.mod",
  ".envrc",
]);

function globToRegExp(glob: string): RegExp {
  const body = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*");
  return new RegExp(`^${body}$`, "i");
}

/**
 * The protected pattern that `segments` fall under, if any.
 *
 * @param segments A canonical workspace-relative path, as segments.
 * @param patterns The protected paths (see {@link DEFAULT_PROTECTED_PATHS}).
 * @returns The matching pattern, or `undefined`.
 */
export function protectedPattern(segments: readonly string[], patterns: readonly string[]): string | undefined {
  for (const pattern of patterns) {
    if (pattern.endsWith("/**")) {
      const folder = globToRegExp(pattern.slice(0, -3));
      if (segments.some((segment) => folder.test(segment))) return pattern;
    } else if (segments.length > 0 && globToRegExp(pattern).test(segments[segments.length - 1])) {
      return pattern;
    }
  }
  return undefined;
}

/**
 * What one change is checked against: the patterns in force, and the
 * protected entries one walk of the workspace found (see `protectionFor`):
 * the entries whose path falls under a pattern, and where a protected name
 * that is a symbolic link leads inside the workspace (`package.json ->
 * cfg/real.json`: `cfg/real.json`), as canonical segments.
 */
export interface Protection {
  /** The protected paths in force (empty: nothing is protected). */
  readonly patterns: readonly string[];
  /** Protected entries found, and the targets of protected names that are links (canonical segments). */
  readonly entries: readonly (readonly string[])[];
}

/**
 * Refuses to change a protected path: the one check every write tool makes
 * on the canonical workspace-relative segments it is about to change. With a
 * {@link Protection}, a path is also refused when it is a protected entry or
 * where a protected link leads, lies below one (a link's target folder), or
 * holds one (a folder deleted or moved with it inside).
 *
 * @param segments The canonical workspace-relative path about to change.
 * @param patterns The protected paths in force (empty: nothing is protected), or the protection of one call.
 * @param action What the tool does, for the message ("write", "delete", …).
 * @param display The path as shown in messages.
 * @throws {WorkspaceError} `PROTECTED_PATH`.
 */
export function assertNotProtected(
  segments: readonly string[],
  patterns: readonly string[] | Protection,
  action: string,
  display: string,
): void {
  const protection: Protection = isPatternList(patterns) ? { patterns, entries: [] } : patterns;
  if (protection.patterns.length === 0) return;
  const refuse = (detail: string): never => {
    throw new WorkspaceError("PROTECTED_PATH", `Cannot ${action} '${display}': ${detail}`, {
      path: display,
      hint: "this file decides what allowed commands run; it cannot be changed through the tools in this session",
    });
  };
  const pattern = protectedPattern(segments, protection.patterns);
  if (pattern !== undefined) refuse(`it is a protected path (${pattern})`);
  if (segments.length === 0) return;
  for (const entry of protection.entries) {
    const shorter = Math.min(entry.length, segments.length);
    if (!entry.slice(0, shorter).every((segment, index) => segment === segments[index])) continue;
    const named = entry.join("/");
    const kind = protectedPattern(entry, protection.patterns) !== undefined
      ? `the protected path '${named}'`
      : `'${named}', where a protected name that is a symbolic link leads`;
    refuse(
      entry.length > segments.length
        ? `it holds ${kind}`
        : entry.length === segments.length
        ? `it is ${kind}`
        : `it is inside ${kind}`,
    );
  }
}

function isPatternList(value: readonly string[] | Protection): value is readonly string[] {
  return Array.isArray(value);
}
