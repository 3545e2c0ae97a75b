// The single-byte encodings' tables, made at module load from the runtime's own TextDecoder (never typed in by
// hand), with the reverse map that encodes text back; one exception, below, for Node 20's windows-1252.

/** One single-byte encoding: the character of each byte, and the byte of each character. */
export interface SingleByteTable {
  /** `chars[byte]`: the character the byte decodes to; `""` where the encoding leaves the byte undefined. */
  readonly chars: readonly string[];
  /** The byte of each character the encoding holds. */
  readonly bytes: ReadonlyMap<string, number>;
}

// The WHATWG windows-1252 characters of bytes 0x80..0x9f (the C1 range, where it differs from ISO-8859-1).
// Node 20's TextDecoder("windows-1252") decodes these bytes as ISO-8859-1 (U+0080..U+009F; measured on
// v20.20.2), while Deno, Bun and later Node follow the WHATWG index; this row, taken from that index, is used
// only when the runtime's decoder does not give U+20AC for 0x80.
const WINDOWS_1252_C1 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

const tables = new Map<string, SingleByteTable>();

/**
 * The table of a single-byte encoding, made once: each of the 256 bytes decoded
 * alone by `TextDecoder(label, {fatal: true})` (a byte it rejects is undefined);
 * `iso-8859-1` is the true ISO-8859-1 (byte value = code point), which the
 * WHATWG `TextDecoder` label does not give (it means windows-1252).
 *
 * @param label `iso-8859-1`, or a WHATWG single-byte label (`windows-1252`, `iso-8859-15`, …).
 * @returns The table.
 */
export function singleByteTable(label: string): SingleByteTable {
  let table = tables.get(label);
  if (table !== undefined) return table;
  const chars: string[] = [];
  if (label === "iso-8859-1") {
    for (let byte = 0; byte < 256; byte++) chars.push(String.fromCharCode(byte));
  } else {
    const decoder = new TextDecoder(label, { fatal: true });
    const one = new Uint8Array(1);
    for (let byte = 0; byte < 256; byte++) {
      one[0] = byte;
      try {
        chars.push(decoder.decode(one));
      } catch {
        chars.push("");
      }
    }
    if (label === "windows-1252" && chars[0x80] !== "\u20ac") {
      for (let i = 0; i < 32; i++) chars[0x80 + i] = WINDOWS_1252_C1[i];
    }
  }
  const bytes = new Map<string, number>();
  for (const [byte, char] of chars.entries()) if (char !== "" && !bytes.has(char)) bytes.set(char, byte);
  table = { chars, bytes };
  tables.set(label, table);
  return table;
}

/**
 * Decodes bytes through a single-byte table, a part at a time (no string of
 * a million one-character pieces); `undefined` at a byte the table leaves undefined.
 *
 * @param bytes The bytes.
 * @param table The encoding's table.
 * @returns The text.
 */
export function decodeSingleByte(bytes: Uint8Array, table: SingleByteTable): string | undefined {
  const { chars } = table;
  const parts: string[] = [];
  for (let from = 0; from < bytes.length; from += 8192) {
    let part = "";
    const end = Math.min(bytes.length, from + 8192);
    for (let i = from; i < end; i++) {
      const char = chars[bytes[i]];
      if (char === "") return undefined;
      part += char;
    }
    parts.push(part);
  }
  return parts.join("");
}
