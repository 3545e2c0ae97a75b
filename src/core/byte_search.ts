/**
 * Substring search on raw bytes, for grep's fast path: a file that does not
 * hold the needle is ruled out without being decoded. A host gives a native
 * one (`Host.byteSearch`, Node's `Buffer`: memchr-style); this module's
 * {@link portableByteSearch} works anywhere through a Latin-1 view.
 *
 * @module
 */
import type { ByteSearch } from "../host.ts";

export type { ByteSearch } from "../host.ts";

// Windows-1252 (what "latin1" decodes as) also has one character per byte, and
// maps bytes 0x00-0x7f to ASCII and the rest to non-ASCII characters: the
// properties the prefilters rely on.
const LATIN1 = new TextDecoder("latin1");

/** A {@link ByteSearch} for any runtime: the bytes seen as Latin-1, searched as strings. */
export const portableByteSearch: ByteSearch = {
  indexOf: (haystack, needle, from) => {
    if (typeof needle === "number") return haystack.indexOf(needle, from);
    return LATIN1.decode(haystack).indexOf(LATIN1.decode(needle), from);
  },
  latin1: (bytes) => LATIN1.decode(bytes),
};
