import { type HostErrorCode, isHostError } from "../../host.ts";
import { type ErrorCode, isAbortError, WorkspaceError } from "../errors.ts";

// Host error codes → Paddock error codes and the detail shown after the colon.
const MAPPING: Record<HostErrorCode, [ErrorCode, string]> = {
  ENOENT: ["NOT_FOUND", "no such file or folder"],
  EEXIST: ["ALREADY_EXISTS", "something already exists there"],
  ELOOP: ["PATH_CHANGED", "a symbolic link appeared where a file was checked"],
  ENOTDIR: ["NOT_A_DIRECTORY", "a path component is not a folder"],
  EISDIR: ["NOT_A_FILE", "it is a folder"],
  EACCES: ["PERMISSION_DENIED", "permission denied"],
  EPERM: ["PERMISSION_DENIED", "operation not permitted"],
  ENOTEMPTY: ["DIRECTORY_NOT_EMPTY", "the folder is not empty"],
  EXDEV: ["IO_ERROR", "cannot move across filesystems"],
  EINVAL: ["IO_ERROR", "invalid operation"],
  ENAMETOOLONG: ["PATH_TOO_LONG", "the name is too long for the filesystem"],
  EBUSY: ["IO_ERROR", "the resource is busy"],
  ESRCH: ["IO_ERROR", "no such process"],
  ENXIO: ["NOT_A_FILE", "no such device or address"],
  EAGAIN: ["IO_ERROR", "the resource is temporarily unavailable"],
  UNSUPPORTED: ["IO_ERROR", "not supported on this host"],
  EIO: ["IO_ERROR", "input/output error"],
};

/**
 * Turns anything thrown by a host into a {@link WorkspaceError} that names
 * the action and the workspace-relative path (never the host path).
 * WorkspaceErrors and AbortErrors pass through unchanged.
 */
export function mapHostError(error: unknown, action: string, path: string): unknown {
  if (error instanceof WorkspaceError || isAbortError(error)) return error;
  if (isHostError(error) && error.missingPermission !== undefined) {
    return permissionDenied(`Cannot ${action} '${path}'`, error.missingPermission, error, path);
  }
  const [code, detail] = isHostError(error) ? MAPPING[error.code] : MAPPING.EIO;
  return new WorkspaceError(code, `Cannot ${action} '${path}': ${detail}`, { path, cause: error });
}

/**
 * The runtime refused (Deno without a permission flag): `PERMISSION_DENIED`
 * naming the flag, with a hint saying how to start the runtime.
 *
 * @param prefix The failed action, e.g. "Cannot write 'a.txt'".
 * @param flag The missing flag, e.g. `--allow-write`.
 * @param cause The host error.
 * @param path The workspace-relative path, if any.
 * @returns The error.
 */
export function permissionDenied(prefix: string, flag: string, cause: unknown, path?: string): WorkspaceError {
  const scoped = flag === "--allow-env"
    ? `${flag}, or ${flag}=PATH,HOME,… for just the variables child processes get`
    : flag === "--allow-read" || flag === "--allow-write"
    ? `${flag}, or ${flag}=<the workspace folder>`
    : flag;
  return new WorkspaceError("PERMISSION_DENIED", `${prefix}: Deno was not given ${flag}`, {
    hint: `start Deno with ${scoped}`,
    cause,
    ...(path === undefined ? {} : { path }),
  });
}

/**
 * Turns a failure to read the parent environment (for a child process) into a
 * {@link WorkspaceError}; a runtime refusal is `PERMISSION_DENIED` naming the flag.
 *
 * @param error What the host threw.
 * @returns The error to throw.
 */
export function mapEnvironmentError(error: unknown): unknown {
  if (isHostError(error) && error.missingPermission !== undefined) {
    return permissionDenied("Cannot read the environment for a child process", error.missingPermission, error);
  }
  return error;
}
