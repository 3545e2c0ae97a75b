/**
 * The native {@link ByteSearch} of the Node and Deno hosts: `Buffer`'s
 * `indexOf` (memchr and Boyer-Moore-Horspool in C++) and `toString("latin1")` (one
 * copy into a one-byte string), on views of the caller's bytes (no copy).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { ByteSearch } from "../host.ts";

const view = (bytes: Uint8Array): Buffer =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** Byte search on `node:buffer`. */
export const nodeByteSearch: ByteSearch = {
  indexOf: (haystack, needle, from) => view(haystack).indexOf(needle, from),
  latin1: (bytes) => view(bytes).toString("latin1"),
};
