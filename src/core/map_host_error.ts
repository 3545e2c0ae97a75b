import { type HostErrorCode, isHostError } from "../host.ts";
import { type ErrorCode, isAbortError, WorkspaceError } from "./errors.ts";

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
  const [code, detail] = isHostError(error) ? MAPPING[error.code] : MAPPING.EIO;
  return new WorkspaceError(code, `Cannot ${action} '${path}': ${detail}`, { path, cause: error });
}
