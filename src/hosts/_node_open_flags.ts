/**
 * `node:fs` open flags for the host seam's {@link OpenOptions}.
 *
 * @module
 */
import { constants, lstatSync, type Stats } from "node:fs";
import { HostError, type OpenOptions } from "../host.ts";

/** Whether the platform has `O_NOFOLLOW` (not Windows). */
export const HAS_NOFOLLOW: boolean = constants.O_NOFOLLOW !== undefined;

/** The `node:fs` flags of an open. */
export function openFlags(options: OpenOptions): number {
  let flags = options.write ? (options.read ? constants.O_RDWR : constants.O_WRONLY) : constants.O_RDONLY;
  if (options.createExclusive) flags |= constants.O_CREAT | constants.O_EXCL;
  if (options.noFollow && HAS_NOFOLLOW) flags |= constants.O_NOFOLLOW;
  if (options.nonBlocking && constants.O_NONBLOCK !== undefined) flags |= constants.O_NONBLOCK;
  return flags;
}

/**
 * Without `O_NOFOLLOW` (Windows): refuses a link seen just before opening, as
 * `ELOOP`; the caller's identity check after opening closes the rest of the gap.
 *
 * @param path What is about to be opened.
 * @param noFollow Whether the open must not follow a final link.
 * @throws {HostError} `ELOOP` when `path` is a link and the platform has no `O_NOFOLLOW`.
 */
export function refuseLinkWithoutNoFollow(path: string, noFollow: boolean | undefined): void {
  if (!noFollow || HAS_NOFOLLOW) return;
  let before: Stats | undefined;
  try {
    before = lstatSync(path);
  } catch {
    before = undefined;
  }
  if (before?.isSymbolicLink()) throw new HostError("ELOOP", "open");
}
