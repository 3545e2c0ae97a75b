import { WorkspaceError } from "../errors.ts";

/** The error every malformed patch gets: the line, what was expected. */
export function patchInvalid(detail: string, hint?: string): WorkspaceError {
  return new WorkspaceError("PATCH_INVALID", `Cannot apply patch: ${detail}`, {
    hint: hint ??
      "write '*** Begin Patch', then per file '*** Add File: <path>' (+ lines), '*** Delete File: <path>' or '*** Update File: <path>' (@@ hunks of ' ', '-', '+' lines), then '*** End Patch'",
  });
}
