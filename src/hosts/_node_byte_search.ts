/**
 * The native {@link ByteSearch} of the Node and Deno hosts: a `Buffer` view
 * of the caller's bytes (no copy), whose `indexOf` is memchr (one byte) or
 * V8's string search (a sequence) in C++.
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { ByteSearch } from "../host.ts";

/** Byte search on `node:buffer`. */
export const nodeByteSearch: ByteSearch = {
  view: (bytes) => (Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
  // A Buffer's subarrays are Buffers: a file read into it needs no view made.
  alloc: (size) => Buffer.alloc(size),
};
