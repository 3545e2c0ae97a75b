import { WorkspaceError } from "../errors.ts";

// Characters of a pattern quoted in an error message; the model has the rest.
const SHOWN_PATTERN_CHARS = 80;

/**
 * The `INVALID_PATTERN` error for a grep or glob pattern (its own module: a
 * grep worker thread compiles patterns without loading the glob compiler).
 *
 * @param pattern The pattern as given.
 * @param detail What is wrong with it.
 * @param cause The underlying error, if any.
 * @returns The error.
 */
export function invalidPattern(pattern: string, detail: string, cause?: unknown): WorkspaceError {
  const shown = pattern.length > SHOWN_PATTERN_CHARS ? pattern.slice(0, SHOWN_PATTERN_CHARS) + "…" : pattern;
  return new WorkspaceError("INVALID_PATTERN", `Invalid pattern '${shown}': ${detail}`, {
    hint: "fix the pattern and call again",
    cause,
  });
}
