/**
 * Text files in the encodings the file tools read and write, each with its
 * exact bytes on disk, what `read_file` returns for it, an edit, a patch and a
 * grep, and the exact bytes each must leave (everything outside the changed
 * span byte-identical: encoding, BOM, line endings, mixed ones too, a missing
 * final newline). The expected bytes are written out by hand (or with the
 * runtime's `Buffer`), never with Paddock's own encoder. Replayed by
 * test/text_encodings.test.ts on every host.
 */

/** Bytes of a string of code points below 256, one byte each (ISO-8859-1, and windows-1252 outside 0x80..0x9f). */
export function latin1(text: string): number[] {
  return [...text].map((char) => {
    const code = char.charCodeAt(0);
    if (code > 0xff) throw new Error(`not one byte: ${char}`);
    return code;
  });
}

/** UTF-16 LE bytes with a BOM. */
export function utf16le(text: string): number[] {
  const out = [0xff, 0xfe];
  for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i) & 0xff, text.charCodeAt(i) >> 8);
  return out;
}

/** UTF-16 BE bytes with a BOM. */
export function utf16be(text: string): number[] {
  const out = [0xfe, 0xff];
  for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i) >> 8, text.charCodeAt(i) & 0xff);
  return out;
}

/** UTF-8 bytes, with a BOM when `bom`. */
export function utf8(text: string, bom = false): number[] {
  return [...(bom ? [0xef, 0xbb, 0xbf] : []), ...new TextEncoder().encode(text)];
}

/** One text file. */
export interface TextFileCase {
  /** What the row is. */
  name: string;
  /** The file's bytes. */
  bytes: number[];
  /** What `read_file` reports as `encoding` (absent for UTF-8). */
  encoding?: string;
  /** Whether `read_file` reports a BOM. */
  bom?: boolean;
  /** The text `read_file` returns. */
  text: string;
  /** An `edit_file` call, and the file's bytes after it. */
  edit: { old_string: string; new_string: string; after: number[] };
  /** An `apply_patch` hunk: one line replaced by another, and the file's bytes after it. */
  patch: { old: string; new: string; after: number[] };
  /** A `grep` pattern typed as Unicode, and the line (number and text) it must find. */
  grep: { pattern: string; line: number; text: string };
  /** A `new_string` the encoding cannot hold, and the code point the error names. */
  unrepresentable?: { new_string: string; character: string; line: number };
}

/** The rows. */
export const TEXT_FILE_CASES: readonly TextFileCase[] = [
  {
    name: "ISO-8859-1 with CRLF and LF lines mixed and no final newline (detected as windows-1252)",
    bytes: latin1("caf\xe9\r\nna\xefve\nd\xe9j\xe0 vu\r\nend"),
    encoding: "windows-1252",
    text: "café\r\nnaïve\ndéjà vu\r\nend",
    edit: { old_string: "naïve", new_string: "naïf", after: latin1("caf\xe9\r\nna\xeff\nd\xe9j\xe0 vu\r\nend") },
    // The replaced line is a new line: it takes the file's usual line end (CRLF, two lines of three), as docs/tools.md says.
    patch: { old: "naïve", new: "très naïve", after: latin1("caf\xe9\r\ntr\xe8s na\xefve\r\nd\xe9j\xe0 vu\r\nend") },
    grep: { pattern: "déjà", line: 3, text: "déjà vu" },
    unrepresentable: { new_string: "naïve → naïf", character: "U+2192", line: 2 },
  },
  {
    name: "windows-1252 with curly quotes, the euro sign and an undefined byte (0x81) kept as it was",
    bytes: [...latin1("\x93quoted\x94 costs \x80 5\n"), 0x81, ...latin1("raw\n")],
    encoding: "windows-1252",
    text: "\u201cquoted\u201d costs \u20ac 5\n\u0081raw\n",
    edit: {
      old_string: "€ 5",
      new_string: "€ 6 – cheap",
      after: [...latin1("\x93quoted\x94 costs \x80 6 \x96 cheap\n"), 0x81, ...latin1("raw\n")],
    },
    patch: {
      old: "\u201cquoted\u201d costs \u20ac 5",
      new: "\u201cquoted\u201d costs \u20ac 7",
      after: [...latin1("\x93quoted\x94 costs \x80 7\n"), 0x81, ...latin1("raw\n")],
    },
    grep: { pattern: "costs €", line: 1, text: "\u201cquoted\u201d costs \u20ac 5" },
    unrepresentable: { new_string: "€ 5 ✓", character: "U+2713", line: 1 },
  },
  {
    name: "UTF-16 LE with a BOM, CRLF, a character outside the BMP",
    bytes: utf16le("h\xe9llo \u{1f389}\r\nw\xf6rld\r\n"),
    encoding: "utf-16le",
    bom: true,
    text: "héllo 🎉\r\nwörld\r\n",
    edit: { old_string: "wörld", new_string: "wélt ✓", after: utf16le("h\xe9llo \u{1f389}\r\nw\xe9lt \u2713\r\n") },
    patch: { old: "héllo 🎉", new: "hallo 🎉", after: utf16le("hallo \u{1f389}\r\nw\xf6rld\r\n") },
    grep: { pattern: "wörld", line: 2, text: "wörld" },
  },
  {
    name: "UTF-16 BE with a BOM and no final newline",
    bytes: utf16be("\u65e5\u672c\u8a9e\nsecond"),
    encoding: "utf-16be",
    bom: true,
    text: "日本語\nsecond",
    edit: { old_string: "second", new_string: "zweite", after: utf16be("\u65e5\u672c\u8a9e\nzweite") },
    patch: { old: "日本語", new: "中文", after: utf16be("\u4e2d\u6587\nsecond") },
    grep: { pattern: "本", line: 1, text: "日本語" },
  },
  {
    name: "UTF-8 with a BOM",
    bytes: utf8("first\nna\u00efve\n", true),
    bom: true,
    text: "first\nnaïve\n",
    edit: { old_string: "first", new_string: "1st", after: utf8("1st\nna\u00efve\n", true) },
    patch: { old: "naïve", new: "naïf", after: utf8("first\nna\u00eff\n", true) },
    grep: { pattern: "naïve", line: 2, text: "naïve" },
  },
];

/** Files that are not text, or whose encoding cannot be told, and what reading them says. */
export const NOT_TEXT_CASES: readonly { name: string; bytes: number[]; code: string; message: string }[] = [
  {
    name: "a PNG image",
    bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13],
    code: "BINARY_FILE",
    message: "it is a binary file (a NUL byte at offset 8)",
  },
  {
    name: "a JPEG start without NUL",
    bytes: [0xff, 0xd8, 0xff, 0xe0, 0x41, 0x42],
    code: "BINARY_FILE",
    message: "it is a binary file (it starts as image/jpeg does)",
  },
  {
    name: "bytes neither UTF-8 nor text in windows-1252 (a control byte)",
    bytes: [0x61, 0x01, 0xff, 0x0a],
    code: "ENCODING_UNKNOWN",
    message: "its encoding cannot be told",
  },
];
