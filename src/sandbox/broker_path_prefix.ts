/**
 * The path form of the credential broker.
 *
 * @module
 */

/** The path prefix of the broker's path form: `/__broker/<host>/…` forwards to `https://<host>/…`. */
export const BROKER_PATH_PREFIX = "/__broker/";
