import { type ErrorCode, isAbortError, WorkspaceError } from "../core/errors.ts";

// Node-style codes a provider's errors may carry, and what they mean here.
const CODES: Readonly<Record<string, ErrorCode>> = {
  ENOENT: "NOT_FOUND",
  EEXIST: "ALREADY_EXISTS",
  ENOTDIR: "NOT_A_DIRECTORY",
  EISDIR: "NOT_A_FILE",
  EACCES: "PERMISSION_DENIED",
  EPERM: "PERMISSION_DENIED",
  ENOTEMPTY: "DIRECTORY_NOT_EMPTY",
  ELOOP: "SYMLINK_LOOP",
};

/**
 * Runs one call into an {@link FsProvider} and turns its failure into a
 * stable code: a `WorkspaceError` keeps its code and message (a provider
 * chose them, as `new WorkspaceError("File not found: a.txt")` does, code
 * `IO_ERROR`); an error with a Node-style `code` is mapped; anything else is
 * `IO_ERROR`. A foreign message is not repeated (it may hold the remote
 * box's absolute paths); it stays as the `cause`.
 *
 * @param action The action, for the message ("read", "write", …).
 * @param display The workspace-relative path, for the message.
 * @param call The provider call.
 * @returns What the provider returned.
 */
export async function providerCall<T>(action: string, display: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAbortError(error) || error instanceof WorkspaceError) throw error;
    const native = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
    const code = typeof native === "string" && Object.hasOwn(CODES, native) ? CODES[native] : "IO_ERROR";
    const detail = code === "IO_ERROR" ? "the provider failed" : `the provider reported ${native}`;
    throw new WorkspaceError(code, `Cannot ${action} '${display}': ${detail}`, { path: display, cause: error });
  }
}

/** The error for a provider that answered with the wrong shape. */
export function badReply(action: string, display: string, what: string): WorkspaceError {
  return new WorkspaceError("IO_ERROR", `Cannot ${action} '${display}': the provider returned ${what}`, {
    path: display,
  });
}
