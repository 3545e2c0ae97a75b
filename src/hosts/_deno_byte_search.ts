/**
 * The {@link ByteSearch} of the Deno host. Deno's `node:buffer` searches in
 * JavaScript (`Buffer#indexOf` measured 10–17× slower than Node's memchr on
 * the Go tree's files: 35 ms against 3 ms for 32 MB, a byte sequence 135
 * against 8 ms), so the Deno host does not use it: with the FFI permission
 * (which `--allow-all` gives), libc's `memchr` and `memmem` through
 * `Deno.dlopen` (32 MB in 5 ms), and `strcasestr` for an ignore-case needle
 * (one call per file where the scan for its rarest bytes in both cases made a
 * call per hit: the Go tree's `use-after-free` search 240 → 195 ms); without
 * it, the typed array's own `indexOf` (V8's builtin, twice Deno's `Buffer`),
 * as {@link portableByteSearch} does.
 *
 * A length (`size_t`) is passed as a BigInt: Deno's optimized call of a
 * 64-bit parameter checks for one, and a number made V8 deoptimize and
 * optimize again the function making the call, over and over (see the Deno
 * libc of `_libc_at.ts`).
 *
 * A result of `memchr` / `memmem` is a pointer; it is taken as its low 32
 * bits (a plain number, where the whole 64 bits would be a BigInt), and the
 * index is its distance from the searched bytes' own address taken the same
 * way, modulo 2^32 (every buffer searched is far below 4 GiB). A low half of
 * 0 is NULL (not found) or, once in 2^32 addresses, a hit there: the bytes at
 * that index say which.
 *
 * @module
 */
import type { ByteSearch, ByteView } from "../host.ts";
import { foldedAt, portableByteSearch } from "../core/search/byte_search.ts";
import type { DenoFfiGlobal } from "./_deno_ffi.ts";

declare const Deno: DenoFfiGlobal;

interface MemSymbols {
  memchr(bytes: Uint8Array, byte: number, length: bigint): number;
  memmem(bytes: Uint8Array, length: bigint, needle: Uint8Array, needleLength: bigint): number;
  /** Both NUL-terminated; ASCII letters in any case (the C locale: Deno never sets another). */
  strcasestr(bytes: Uint8Array, needle: Uint8Array): number;
  /** `memmove(bytes, bytes, 0)`: the bytes' own address (its low 32 bits). */
  memmove(to: Uint8Array, from: Uint8Array, length: bigint): number;
}

function loadSymbols(): MemSymbols | null {
  try {
    if (typeof Deno === "undefined" || Deno.build.os !== "linux") return null;
    if (Deno.permissions.querySync?.({ name: "ffi" }).state !== "granted") return null;
    const { symbols } = Deno.dlopen("libc.so.6", {
      memchr: { parameters: ["buffer", "i32", "usize"], result: "i32" },
      memmem: { parameters: ["buffer", "usize", "buffer", "usize"], result: "i32" },
      memmove: { parameters: ["buffer", "buffer", "usize"], result: "i32" },
      strcasestr: { parameters: ["buffer", "buffer"], result: "i32" },
    });
    return symbols as unknown as MemSymbols;
  } catch {
    return null;
  }
}

const typedIndexOf = Uint8Array.prototype.indexOf;

/** The typed array's own searches, whatever class the bytes are (a Deno `Buffer` overrides `indexOf`). */
const typedByteSearch: ByteSearch = {
  view: (bytes) => {
    const plain = Object.getPrototypeOf(bytes) === Uint8Array.prototype
      ? bytes
      : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const portable = portableByteSearch.view(plain);
    return {
      indexOf: (needle, from) =>
        typeof needle === "number" ? typedIndexOf.call(plain, needle, from) : portable.indexOf(needle, from),
    };
  },
};

function libcByteSearch(libc: MemSymbols): ByteSearch {
  // The bytes at `index` begin with `needle`.
  const holds = (bytes: Uint8Array, index: number, needle: number | Uint8Array): boolean => {
    if (typeof needle === "number") return bytes[index] === needle;
    if (index + needle.length > bytes.length) return false;
    for (let k = 0; k < needle.length; k++) if (bytes[index + k] !== needle[k]) return false;
    return true;
  };
  // A result's index in the searched bytes (see the module's note); `null` for no hit in [from, end).
  const indexIn = (
    found: number,
    address: number,
    from: number,
    end: number,
    at: (i: number) => boolean,
  ) => {
    const index = ((found - address) | 0) >>> 0;
    return found !== 0 || (index >= from && index < end && at(index)) ? index : null;
  };
  // The needle NUL-terminated, as strcasestr takes it (one per needle).
  const terminated = new WeakMap<Uint8Array, Uint8Array>();
  return {
    view: (bytes): ByteView => {
      let address: number | null = null;
      // strcasestr reads up to a NUL: one is put in the byte just past `bytes`, where the buffer has one (grep's
      // read buffers always do: a file is read into one byte more than its size); else no indexOfFolded.
      const room = bytes.byteOffset + bytes.length < bytes.buffer.byteLength;
      const indexOfFolded = (lower: Uint8Array, from: number): number => {
        const start = from < 0 ? 0 : from;
        if (start >= bytes.length) return -1;
        let needle = terminated.get(lower);
        if (needle === undefined) {
          needle = new Uint8Array(lower.length + 1);
          needle.set(lower);
          terminated.set(lower, needle);
        }
        const whole = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length + 1);
        const kept = whole[bytes.length];
        whole[bytes.length] = 0;
        try {
          address ??= libc.memmove(bytes, bytes, 0n);
          // Stretch by stretch between NUL bytes (a text file is one stretch).
          for (let at = start; at < bytes.length;) {
            const rest = whole.subarray(at);
            const nul = indexIn(
              libc.memchr(rest, 0, BigInt(bytes.length - at)),
              address,
              at,
              bytes.length,
              (i) => bytes[i] === 0,
            );
            const end = nul ?? bytes.length;
            if (end - at >= lower.length) {
              const hit = indexIn(
                libc.strcasestr(rest, needle),
                address,
                at,
                end,
                (i) => foldedAt(bytes, i, lower),
              );
              if (hit !== null && hit < end) return hit;
            }
            at = end + 1;
          }
          return -1;
        } finally {
          whole[bytes.length] = kept;
        }
      };
      return {
        ...(room ? { indexOfFolded } : {}),
        // A scan by the rarest byte would be a call per hit: findNeedle makes one memchr, then one memmem.
        wholeSequences: true,
        indexOf: (needle, from) => {
          const start = from < 0 ? 0 : from;
          if (start >= bytes.length) {
            return typeof needle !== "number" && needle.length === 0 ? bytes.length : -1;
          }
          if (typeof needle !== "number" && needle.length === 0) return start;
          const rest = start === 0 ? bytes : bytes.subarray(start);
          address ??= libc.memmove(bytes, bytes, 0n);
          const found = typeof needle === "number"
            ? libc.memchr(rest, needle, BigInt(rest.length))
            : libc.memmem(rest, BigInt(rest.length), needle, BigInt(needle.length));
          const index = ((found - address) | 0) >>> 0;
          if (found !== 0) return index;
          // NULL, or a hit at an address whose low half is 0.
          return index >= start && index < bytes.length && holds(bytes, index, needle) ? index : -1;
        },
      };
    },
  };
}

let chosen: ByteSearch | undefined;

/**
 * The Deno host's byte search: libc's where FFI is allowed, else the typed array's.
 *
 * @returns The byte search.
 */
export function denoByteSearch(): ByteSearch {
  if (chosen === undefined) {
    const libc = loadSymbols();
    chosen = libc === null ? typedByteSearch : libcByteSearch(libc);
  }
  return chosen;
}
