/**
 * The package version, kept equal to `package.json` and `deno.json` by a test
 * (a constant, so no JSON import or file read is needed on any runtime).
 *
 * @module
 */

/** The version of `@paddock/tools`. */
export const VERSION = "0.1.0";
