import { WorkspaceError } from "../errors.ts";
import { MAX_PATH_BYTES, MAX_SEGMENT_BYTES } from "../limits.ts";
import { utf8ByteLength } from "../text/utf8.ts";
import { parentSegmentHint } from "./parent_segment_hint.ts";
import { windowsNameProblem } from "./windows_name_problem.ts";

/**
 * Checks a workspace-relative path and splits it into segments. The same
 * rules hold on every platform, so a path that is safe on Linux is also safe
 * on Windows and the other way round. Both `/` and `\` separate segments;
 * empty and `.` segments are dropped, so `"."` (the root) gives `[]`.
 *
 * Refused with code `INVALID_RELATIVE_PATH`: the empty string, NUL, POSIX and
 * Windows absolute paths (even ones that point inside the workspace), drive
 * paths and drive-relative paths (`C:x`), UNC and device prefixes
 * (`\\server\share`, `//server/share`, `\\?\`, `\\.\`), any `..` segment, any
 * segment holding a colon (alternate data streams), Windows device names
 * (`CON`, `nul.txt`, `Com1.log`, …), segments ending in a dot or a space, and
 * lone UTF-16 surrogates (no UTF-8 form; the disk would store U+FFFD).
 * Refused with code `PATH_TOO_LONG`: more than {@link MAX_PATH_BYTES} bytes in
 * all or {@link MAX_SEGMENT_BYTES} in one segment.
 *
 * @param input The path as the caller (or the model) wrote it.
 * @returns The segments, in order.
 * @throws {WorkspaceError} With code `INVALID_RELATIVE_PATH` or `PATH_TOO_LONG`.
 *
 * @example Normalising a path
 * ```ts
 * import { normalizeWorkspacePath } from "@paddock/tools";
 * normalizeWorkspacePath("src\\./lib/a.ts"); // ["src", "lib", "a.ts"]
 * normalizeWorkspacePath("../etc/passwd"); // throws INVALID_RELATIVE_PATH
 * ```
 */
export function normalizeWorkspacePath(input: string): string[] {
  if (typeof input !== "string" || input.length === 0) {
    throw invalid(input, "the path is empty");
  }
  if (utf8ByteLength(input) > MAX_PATH_BYTES) {
    throw new WorkspaceError("PATH_TOO_LONG", `Path is longer than ${MAX_PATH_BYTES} bytes`);
  }
  if (input.includes("\0")) throw invalid(input, "the path holds a NUL character");
  // A lone surrogate has no UTF-8 form: every runtime writes it as U+FFFD, so
  // "a\uD800" and "a\uFFFD" would be two spellings of one file (and the
  // in-process write lock, keyed by the spelling, would not see it).
  if (/[\uD800-\uDFFF]/u.test(input)) throw invalid(input, "the path is not well-formed Unicode");
  if (input[0] === "/" || input[0] === "\\") {
    throw invalid(input, "absolute, UNC and device paths are not allowed", ABSOLUTE_HINT);
  }
  if (/^[A-Za-z]:/.test(input)) throw invalid(input, "drive paths are not allowed", ABSOLUTE_HINT);
  // `~` is a shell's home folder, not a name a model means to create.
  if (/^~(?:[/\\]|$)/.test(input)) {
    throw invalid(
      input,
      "'~' is not expanded",
      "paths start at the workspace root; drop the leading '~/' and name the file inside the workspace",
    );
  }

  const segments: string[] = [];
  for (const segment of input.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") throw invalid(input, "'..' segments are not allowed", parentSegmentHint(input, accepted));
    if (utf8ByteLength(segment) > MAX_SEGMENT_BYTES) {
      throw new WorkspaceError("PATH_TOO_LONG", `Path segment is longer than ${MAX_SEGMENT_BYTES} bytes`);
    }
    const problem = windowsNameProblem(segment);
    if (problem !== null) throw invalid(input, problem);
    segments.push(segment);
  }
  return segments;
}

/** Whether the grammar accepts `path` (for a hint's suggestion). */
function accepted(path: string): boolean {
  try {
    normalizeWorkspacePath(path);
    return true;
  } catch {
    return false;
  }
}

/** The hint for an absolute path (the workspace root is not known here; the MCP server names the relative form). */
const ABSOLUTE_HINT = "give the path relative to the workspace root, e.g. 'src/index.ts' (no leading '/' or drive)";

function invalid(input: string, why: string, hint?: string): WorkspaceError {
  return new WorkspaceError("INVALID_RELATIVE_PATH", `Invalid workspace path: ${why}`, {
    path: typeof input === "string" && !input.includes("\0") ? input : undefined,
    hint,
  });
}
