/**
 * The text encodings Paddock's file tools read and write, and the form one
 * file takes (its encoding and whether it starts with a byte order mark).
 *
 * @module
 */

/**
 * An encoding Paddock reads and writes: UTF-8, UTF-16 in either byte order,
 * and single-byte legacy encodings. `iso-8859-1` is the true ISO-8859-1 (each
 * byte its own code point); the others are the WHATWG encodings of those names
 * (`windows-1252` is what browsers decode for a `latin1` label).
 */
export type TextEncodingName =
  | "utf-8"
  | "utf-16le"
  | "utf-16be"
  | "windows-1252"
  | "iso-8859-1"
  | "iso-8859-15"
  | "windows-1250"
  | "windows-1251";

/** Every {@link TextEncodingName}, in the order errors list them. */
export const TEXT_ENCODINGS: readonly TextEncodingName[] = [
  "utf-8",
  "utf-16le",
  "utf-16be",
  "windows-1252",
  "iso-8859-1",
  "iso-8859-15",
  "windows-1250",
  "windows-1251",
];

/** How one file's text is stored: written back the same way. */
export interface TextForm {
  /** Its encoding. */
  encoding: TextEncodingName;
  /** Whether it starts with a byte order mark (UTF-8 and UTF-16 only). */
  bom: boolean;
}

/** The byte order mark of `encoding`, or an empty array for one that has none. */
export function bomOf(encoding: TextEncodingName): Uint8Array {
  if (encoding === "utf-8") return new Uint8Array([0xef, 0xbb, 0xbf]);
  if (encoding === "utf-16le") return new Uint8Array([0xff, 0xfe]);
  if (encoding === "utf-16be") return new Uint8Array([0xfe, 0xff]);
  return new Uint8Array(0);
}

/** Whether `form` is plain UTF-8 (no BOM): what tools' results leave unsaid. */
export function isPlainUtf8(form: TextForm): boolean {
  return form.encoding === "utf-8" && !form.bom;
}
