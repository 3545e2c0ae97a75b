/**
 * The part of Deno's global the libc routes use (`Deno.dlopen` and the FFI
 * permission), typed here once so that the core is checked without Deno's
 * types; `undefined` on Node and Bun.
 *
 * @module
 */

/** `Deno`, as far as `_libc_at.ts` and `_deno_byte_search.ts` use it. */
export type DenoFfiGlobal = {
  build: { os: string; arch: string };
  permissions: { querySync?(descriptor: { name: "ffi" }): { state: string } };
  dlopen(path: string, symbols: Record<string, { parameters: string[]; result: string }>): {
    symbols: Record<string, (...args: unknown[]) => number>;
  };
} | undefined;
