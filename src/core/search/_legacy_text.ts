// grep over files that are not UTF-8: UTF-16 with a BOM, and legacy single-byte text (read as windows-1252, the
// rule read_file states in decode_text.ts), transcoded to UTF-8 so that the same byte search and matcher run on them.
// UTF-8 files never come here: the checks that send a file here cost nothing on them (two bytes, or a U+FFFD
// already found in decoded text, or a needle's windows-1252 form found in the bytes).
import { decodeSingleByte, singleByteTable } from "../text/_single_byte.ts";
import { type Needle, needleOf } from "./byte_search.ts";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });
const lenientUtf8 = new TextDecoder("utf-8");
const utf16le = new TextDecoder("utf-16le");
const utf16be = new TextDecoder("utf-16be");
const encoder = new TextEncoder();

/** Whether `bytes` start with a UTF-16 byte order mark (LE `FF FE` or BE `FE FF`). */
export function hasUtf16Bom(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

/** A UTF-16 file (with its BOM) as UTF-8 bytes, without the BOM. */
export function utf16ToUtf8(bytes: Uint8Array): Uint8Array {
  return encoder.encode((bytes[0] === 0xff ? utf16le : utf16be).decode(bytes));
}

// A character a valid multi-byte UTF-8 sequence decodes to (anything past ASCII but the replacement character).
const BEYOND_ASCII = /[\u0080-\ufffc\ufffe\uffff\ud800-\udfff]/;

/**
 * A legacy file, read as windows-1252, as UTF-8 bytes; `undefined` for a file
 * that is UTF-8: valid, or holding a valid multi-byte sequence beside its
 * stray bytes (a UTF-8 file with a broken byte is searched as UTF-8, as before).
 */
export function legacyToUtf8(bytes: Uint8Array): Uint8Array | undefined {
  try {
    strictUtf8.decode(bytes);
    return undefined;
  } catch {
    if (BEYOND_ASCII.test(lenientUtf8.decode(bytes))) return undefined;
    return encoder.encode(decodeSingleByte(bytes, singleByteTable("windows-1252")) as string); // every byte defined
  }
}

const legacyNeedles = new WeakMap<Needle, Needle | null>();

/**
 * A needle's windows-1252 form, when it holds non-ASCII characters that
 * windows-1252 has (a legacy file holds those bytes, not the UTF-8 ones);
 * `null` for an ASCII needle (the same bytes) or one it cannot hold.
 */
export function legacyNeedleOf(needle: Needle): Needle | null {
  let found = legacyNeedles.get(needle);
  if (found !== undefined) return found;
  found = null;
  if (needle.bytes.some((byte) => byte >= 0x80)) {
    const { bytes } = singleByteTable("windows-1252");
    const text = new TextDecoder().decode(needle.bytes);
    const out = new Uint8Array(text.length);
    let all = true;
    for (let i = 0; i < text.length && all; i++) {
      const byte = bytes.get(text[i]);
      if (byte === undefined) all = false;
      else out[i] = byte;
    }
    if (all) found = needleOf(out);
  }
  legacyNeedles.set(needle, found);
  return found;
}
