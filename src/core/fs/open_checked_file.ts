import type { HostFile, HostStat } from "../../host.ts";
import { throwIfAborted, WorkspaceError } from "../errors.ts";
import { mapHostError } from "./map_host_error.ts";
import { type Resolved, sameIdentity, type Workspace } from "./workspace.ts";

/** An opened regular file whose identity matched the confined walk. */
export interface CheckedFile {
  /** The open handle; the caller closes it. */
  file: HostFile;
  /** The handle's own metadata (fstat). */
  stat: HostStat;
}

/**
 * Opens the regular file a confined walk found, refusing anything else, and
 * checks that the handle is the object the walk checked (dev, ino).
 *
 * Non-blocking and no-follow: a FIFO or link swapped in after the walk cannot
 * stall or redirect the open; the identity check catches the rest.
 *
 * @param workspace The workspace the target was resolved in.
 * @param target The result of {@link Workspace.resolve}.
 * @param action The action, for messages ("read", "edit").
 * @param display The workspace-relative path, for messages.
 * @returns The handle and its metadata.
 * @throws {WorkspaceError} `NOT_A_FILE`, `PATH_CHANGED`, or a mapped host error.
 */
export async function openCheckedFile(
  workspace: Workspace,
  target: Resolved,
  action: string,
  display: string,
): Promise<CheckedFile> {
  const checked = target.stat;
  if (checked === null || checked.kind !== "file") {
    const detail = checked?.kind === "directory" ? "it is a folder" : "it is not a regular file";
    throw new WorkspaceError("NOT_A_FILE", `Cannot ${action} '${display}': ${detail}`, { path: display });
  }
  const file = await workspace.host.open(target.hostPath, { read: true, noFollow: true, nonBlocking: true })
    .catch((error) => {
      throw mapHostError(error, action, display);
    });
  try {
    const stat = await file.stat();
    if (stat.kind !== "file" || !sameIdentity(stat, checked)) {
      throw new WorkspaceError("PATH_CHANGED", `Cannot ${action} '${display}': the file changed while it was opened`, {
        path: display,
      });
    }
    return { file, stat };
  } catch (error) {
    await file.close().catch(() => {});
    throw mapHostError(error, action, display);
  }
}

/**
 * Reads from `position` until `buffer` is full or the file ends.
 *
 * @param file An open file.
 * @param buffer Where the bytes go.
 * @param position The byte offset to start at.
 * @param signal Checked between reads.
 * @returns The count of bytes read (less than `buffer.length` only at the end of the file).
 */
export async function readFully(
  file: HostFile,
  buffer: Uint8Array,
  position: number,
  signal?: AbortSignal,
): Promise<number> {
  let length = 0;
  while (length < buffer.length) {
    throwIfAborted(signal);
    const count = await file.read(buffer.subarray(length), position + length);
    if (count === 0) break;
    length += count;
  }
  return length;
}
