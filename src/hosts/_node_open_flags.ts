/**
 * `node:fs` open flags for the host seam's {@link OpenOptions}.
 *
 * @module
 */
import { constants } from "node:fs";
import type { OpenOptions } from "../host.ts";

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
