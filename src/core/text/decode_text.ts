import { WorkspaceError } from "../errors.ts";
import { decodeSingleByte, singleByteTable } from "./_single_byte.ts";
import { sniffMediaType } from "./sniff_media_type.ts";
import { bomOf, TEXT_ENCODINGS, type TextEncodingName, type TextForm } from "./text_form.ts";

/** A file's text and the form it was stored in. */
export interface DecodedText {
  /** The text, without the byte order mark. */
  text: string;
  /** Its encoding and BOM, to write it back the same way. */
  form: TextForm;
}

/** What a decode is for, for its errors. */
export interface DecodeOptions {
  /** The path as shown in messages. */
  display: string;
  /** The action, for messages ("read", "edit", "patch"). @default "read" */
  action?: string;
  /** Decode as this encoding instead of detecting it. @default undefined (detected) */
  encoding?: TextEncodingName;
}

const decoders = new Map<string, TextDecoder>();

function decoder(encoding: "utf-8" | "utf-16le" | "utf-16be"): TextDecoder {
  let found = decoders.get(encoding);
  if (found === undefined) decoders.set(encoding, found = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }));
  return found;
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
  return prefix.length > 0 && bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

// A C0 control byte no text file holds (NUL aside, which makes a file binary): not tab, newline, vertical tab,
// form feed, carriage return, SUB (DOS's end of file) or ESC (terminal colours).
function controlByteAt(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte < 0x20 && (byte < 0x09 || (byte > 0x0d && byte !== 0x1a && byte !== 0x1b))) return i;
  }
  return -1;
}

// Decodes as `encoding`; `undefined` when the bytes are not valid in it.
function tryDecode(bytes: Uint8Array, encoding: TextEncodingName): string | undefined {
  if (encoding === "utf-8" || encoding === "utf-16le" || encoding === "utf-16be") {
    try {
      return decoder(encoding).decode(bytes);
    } catch {
      return undefined;
    }
  }
  return decodeSingleByte(bytes, singleByteTable(encoding));
}

/**
 * Decodes a text file, losslessly: what {@link encodeText} makes of the
 * result (with the same form) is the same bytes. Without `encoding`, by this
 * rule, in order:
 *
 * 1. A byte order mark names the encoding: UTF-8 (`EF BB BF`), UTF-16 LE
 *    (`FF FE`), UTF-16 BE (`FE FF`); bytes not valid in it: `ENCODING_UNKNOWN`.
 * 2. Valid UTF-8: UTF-8.
 * 3. A NUL byte: the file is binary (`BINARY_FILE`).
 * 4. An image or audio signature: binary (`BINARY_FILE`).
 * 5. No C0 control byte other than tab, line breaks, form feed, SUB and ESC:
 *    windows-1252 (every byte decodes, so ISO-8859-1 text reads too).
 * 6. Otherwise `ENCODING_UNKNOWN`, naming what was tried.
 *
 * @param bytes The file's bytes.
 * @param options The path and action for errors, and an encoding to use instead of the rule.
 * @returns The text (without BOM) and its form.
 * @throws {WorkspaceError} `BINARY_FILE` or `ENCODING_UNKNOWN`.
 *
 * @example A Latin-1 file
 * ```ts
 * import { decodeText } from "./decode_text.ts";
 * decodeText(new Uint8Array([0x63, 0x61, 0x66, 0xe9]), { display: "a.txt" });
 * // { text: "café", form: { encoding: "windows-1252", bom: false } }
 * ```
 */
export function decodeText(bytes: Uint8Array, options: DecodeOptions): DecodedText {
  const { display } = options;
  const action = options.action ?? "read";
  const asked = options.encoding;
  if (asked !== undefined) {
    const bom = startsWith(bytes, bomOf(asked));
    const text = tryDecode(bom ? bytes.subarray(bomOf(asked).length) : bytes, asked);
    if (text === undefined) {
      throw unknown(display, action, `it is not valid ${asked}`, `tried ${asked}, as asked`);
    }
    return { text, form: { encoding: asked, bom } };
  }
  // 1. A byte order mark.
  for (const encoding of ["utf-8", "utf-16le", "utf-16be"] as const) {
    const mark = bomOf(encoding);
    if (!startsWith(bytes, mark)) continue;
    const text = tryDecode(bytes.subarray(mark.length), encoding);
    if (text === undefined) {
      throw unknown(
        display,
        action,
        `it starts with a ${encoding} byte order mark but is not valid ${encoding}`,
        `tried ${encoding}, named by its byte order mark`,
      );
    }
    return { text, form: { encoding, bom: true } };
  }
  // 2. UTF-8 (a NUL byte in valid UTF-8 stays text, as it always read).
  const utf8 = tryDecode(bytes, "utf-8");
  if (utf8 !== undefined) return { text: utf8, form: { encoding: "utf-8", bom: false } };
  // 3. A NUL byte.
  const nul = bytes.indexOf(0);
  if (nul >= 0) throw binary(display, action, `a NUL byte at offset ${nul}`);
  // 4. A media signature.
  const media = sniffMediaType(bytes.subarray(0, 16));
  if (media !== undefined) throw binary(display, action, `it starts as ${media.mimeType} does`);
  // 5. windows-1252, unless control bytes say it is not text.
  const control = controlByteAt(bytes);
  if (control < 0) {
    return { text: tryDecode(bytes, "windows-1252") as string, form: { encoding: "windows-1252", bom: false } };
  }
  const hex = bytes[control].toString(16).padStart(2, "0");
  throw unknown(
    display,
    action,
    "its encoding cannot be told",
    `tried utf-8 (not valid), utf-16 (no byte order mark), windows-1252 (control byte 0x${hex} at offset ${control})`,
  );
}

function binary(display: string, action: string, why: string): WorkspaceError {
  return new WorkspaceError("BINARY_FILE", `Cannot ${action} '${display}': it is a binary file (${why})`, {
    path: display,
    hint:
      `'${display}' is not text; use read_media_file to see it if it is an image or audio file, or get_file_info for its size and type`,
  });
}

function unknown(display: string, action: string, why: string, tried: string): WorkspaceError {
  return new WorkspaceError("ENCODING_UNKNOWN", `Cannot ${action} '${display}': ${why}`, {
    path: display,
    hint: `${tried}; to choose one, pass encoding (one of ${TEXT_ENCODINGS.join(", ")}) to read_file or edit_file`,
    details: { tried },
  });
}
