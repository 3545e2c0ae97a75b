/**
 * Substring search on raw bytes, for grep's fast path: a file that does not
 * hold the needle is ruled out without being decoded. A host gives native
 * views (`Host.byteSearch`, Node's `Buffer`); {@link portableByteSearch}
 * works anywhere.
 *
 * A needle is found as ripgrep finds one: a memchr-style scan for its rarest
 * byte (by a fixed table of how common bytes are in source text), each hit
 * confirmed by comparing the whole needle. A needle made only of common bytes
 * goes to the view's own substring search.
 *
 * @module
 */
import type { ByteSearch, ByteView } from "../../host.ts";

export type { ByteSearch, ByteView } from "../../host.ts";

/** A byte sequence to search for, with the byte to scan for. */
export interface Needle {
  /** The bytes. */
  readonly bytes: Uint8Array;
  /** The index in `bytes` of its rarest byte, or -1 to use the view's substring search. */
  readonly rare: number;
}

// Bytes from the most common in source code and prose to the less common;
// every byte not listed (other punctuation, non-ASCII) counts as rarer still.
const BY_FREQUENCY =
  " etaoinsrlcdupmh_\n\t()f;,.=gb*yx-v0/1kw>\"'2:3<{}[]ESTAIRCNLODPM4#8!5&6+79|FUBGHVWXKYJQZqjz@$%?^`~\\";
const RANK = new Uint8Array(256).fill(255);
for (let i = 0; i < BY_FREQUENCY.length; i++) RANK[BY_FREQUENCY.charCodeAt(i)] = i;
// A scan byte at least this rare; below it, the view's own substring search does better.
const RARE_ENOUGH = BY_FREQUENCY.indexOf("-");

/**
 * Prepares a needle: picks the byte to scan for.
 *
 * @param bytes The needle, not empty.
 * @returns The prepared needle.
 */
export function needleOf(bytes: Uint8Array): Needle {
  let rare = 0;
  for (let i = 1; i < bytes.length; i++) if (RANK[bytes[i]] > RANK[bytes[rare]]) rare = i;
  return new PreparedNeedle(bytes, RANK[bytes[rare]] >= RARE_ENOUGH ? rare : -1);
}

// Needles are class instances, one shape from the first call on (why: docs/contributing.md, "On grep's path").
class PreparedNeedle implements Needle {
  constructor(readonly bytes: Uint8Array, readonly rare: number) {}
}

class PreparedFoldedNeedle implements FoldedNeedle {
  constructor(
    readonly lower: Uint8Array,
    readonly rare: number,
    readonly scan: readonly [number | Uint8Array, number | Uint8Array],
  ) {}
}

/**
 * Finds a needle in bytes.
 *
 * @param data The bytes searched.
 * @param view A view of `data` (from the same {@link ByteSearch}).
 * @param needle The needle.
 * @param from Where to start.
 * @returns The index of the first occurrence at or after `from`, or -1.
 */
export function findNeedle(data: Uint8Array, view: ByteView, needle: Needle, from: number): number {
  const { bytes, rare } = needle;
  if (rare < 0) return view.indexOf(bytes, from);
  if (view.wholeSequences === true) {
    // The rarest byte first (memchr): most files lack it, and libc's memmem on a short needle is
    // many times slower than memchr. Where it is, the whole needle from there on (one call, not one per hit).
    const first = view.indexOf(bytes[rare], from + rare);
    return first < 0 ? -1 : view.indexOf(bytes, first - rare);
  }
  const scan = bytes[rare];
  const length = bytes.length;
  for (let at = view.indexOf(scan, from + rare); at >= 0; at = view.indexOf(scan, at + 1)) {
    const start = at - rare;
    if (start + length > data.length) return -1;
    let k = 0;
    while (k < length && data[start + k] === bytes[k]) k++;
    if (k === length) return start;
  }
  return -1;
}

/** An ASCII needle matched in any ASCII case, with what to scan for in each case. */
export interface FoldedNeedle {
  /** The needle, lowercase (ASCII letters only; every other byte as it is). */
  readonly lower: Uint8Array;
  /** The index in the needle where what is scanned for starts. */
  readonly rare: number;
  /**
   * What is scanned for, in its two cases (the same twice when it has one):
   * the rarest byte (taking both cases of a letter together); when that is no
   * letter, it and a neighbour, as two bytes, so that each hit the scan hands
   * back is likelier a match (`-` of `use-after-free` is common in C code as
   * `->`, `-a` and `-A` are not).
   */
  readonly scan: readonly [number | Uint8Array, number | Uint8Array];
}

const isUpper = (byte: number) => byte >= 0x41 && byte <= 0x5a;
const isLower = (byte: number) => byte >= 0x61 && byte <= 0x7a;

/**
 * Prepares an ASCII needle for {@link findFolded}.
 *
 * @param ascii The needle: ASCII text, not empty.
 * @returns The prepared needle.
 */
export function foldedNeedleOf(ascii: string): FoldedNeedle {
  const lower = new Uint8Array(ascii.length);
  for (let i = 0; i < ascii.length; i++) {
    const byte = ascii.charCodeAt(i);
    lower[i] = isUpper(byte) ? byte | 0x20 : byte;
  }
  // A letter is as common as its commoner case.
  const rank = (byte: number) => (isLower(byte) ? Math.min(RANK[byte], RANK[byte & ~0x20]) : RANK[byte]);
  let rare = 0;
  for (let i = 1; i < lower.length; i++) if (rank(lower[i]) > rank(lower[rare])) rare = i;
  const byte = lower[rare];
  if (isLower(byte) || lower.length === 1) {
    return new PreparedFoldedNeedle(lower, rare, [byte, isLower(byte) ? byte & ~0x20 : byte]);
  }
  // No letter: it and the byte after it (or, at the end, before it), that byte in both cases.
  const at = rare + 1 < lower.length ? rare : rare - 1;
  const pair = (first: number, second: number) => new Uint8Array([first, second]);
  const [first, second] = [lower[at], lower[at + 1]];
  const letter = isLower(first) ? 0 : isLower(second) ? 1 : -1;
  if (letter < 0) {
    const only = pair(first, second);
    return new PreparedFoldedNeedle(lower, at, [only, only]);
  }
  const upper = letter === 0 ? pair(first & ~0x20, second) : pair(first, second & ~0x20);
  return new PreparedFoldedNeedle(lower, at, [pair(first, second), upper]);
}

/**
 * Finds an ASCII needle in any ASCII case: a scan for its rarest byte (or
 * two bytes, {@link FoldedNeedle.scan}) in both cases, each hit compared
 * case-insensitively. Bytes outside ASCII never equal an ASCII letter here.
 *
 * @param data The bytes searched.
 * @param view A view of `data`.
 * @param needle The prepared needle.
 * @param from Where to start.
 * @returns The index of the first occurrence at or after `from`, or -1.
 */
export function findFolded(data: Uint8Array, view: ByteView, needle: FoldedNeedle, from: number): number {
  const { lower, rare } = needle;
  if (view.indexOfFolded !== undefined && !lower.includes(0)) return view.indexOfFolded(lower, from);
  const [scanA, scanB] = needle.scan;
  const length = lower.length;
  let a = view.indexOf(scanA, from + rare);
  let b = scanB === scanA ? -1 : view.indexOf(scanB, from + rare);
  while (a >= 0 || b >= 0) {
    let at: number;
    if (b < 0 || (a >= 0 && a < b)) {
      at = a;
      a = view.indexOf(scanA, at + 1);
    } else {
      at = b;
      b = view.indexOf(scanB, at + 1);
    }
    const start = at - rare;
    if (start + length > data.length) return -1; // every later hit ends later still
    if (foldedAt(data, start, lower)) return start;
  }
  return -1;
}

/**
 * Whether the bytes at `index` are `lower` in any ASCII case (bytes outside
 * ASCII compared as they are).
 *
 * @param data The bytes.
 * @param index Where to look.
 * @param lower The needle, lowercase ASCII.
 * @returns Whether it is there (false when it would run past the end).
 */
export function foldedAt(data: Uint8Array, index: number, lower: Uint8Array): boolean {
  if (index + lower.length > data.length) return false;
  for (let k = 0; k < lower.length; k++) {
    const byte = data[index + k];
    if ((isUpper(byte) ? byte | 0x20 : byte) !== lower[k]) return false;
  }
  return true;
}

/** A {@link ByteSearch} for any runtime: typed-array `indexOf` for one byte, a scan for a sequence. */
export const portableByteSearch: ByteSearch = {
  view: (data) => ({
    indexOf: (needle, from) => {
      if (typeof needle === "number") return data.indexOf(needle, from);
      if (needle.length === 0) return Math.min(from, data.length);
      for (
        let at = data.indexOf(needle[0], from);
        at >= 0 && at + needle.length <= data.length;
        at = data.indexOf(needle[0], at + 1)
      ) {
        let k = 1;
        while (k < needle.length && data[at + k] === needle[k]) k++;
        if (k === needle.length) return at;
      }
      return -1;
    },
  }),
};
