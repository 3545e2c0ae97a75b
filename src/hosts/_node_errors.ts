/**
 * The Node host's native error codes → host error codes, in one table (the
 * host and its grep workers map errors the same way). Anything else is EIO.
 *
 * @module
 */
import { ERRNO_CODES, type NativeErrors, nativeErrors } from "./_native_errors.ts";

/** The Node host's error mapping. */
export const NODE_ERRORS: NativeErrors = nativeErrors({
  ...ERRNO_CODES,
  EMLINK: "ELOOP", // FreeBSD reports O_NOFOLLOW on a link as EMLINK
  EFTYPE: "ELOOP", // NetBSD likewise
});
