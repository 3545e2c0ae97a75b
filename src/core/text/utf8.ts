import { WorkspaceError } from "../errors.ts";

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

/** UTF-8 byte length of `text`, without allocating the encoded bytes. */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Encodes `text` as UTF-8. */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * Decodes strict UTF-8 (a BOM is kept as U+FEFF).
 * @throws {WorkspaceError} `INVALID_UTF8` on any malformed sequence.
 */
export function decodeUtf8Strict(bytes: Uint8Array, path?: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch (cause) {
    throw new WorkspaceError("INVALID_UTF8", "Cannot decode file: it is not valid UTF-8", {
      path,
      hint: "read_file returns text only; this looks like a binary file",
      cause,
    });
  }
}

/** Decodes UTF-8, replacing malformed sequences with U+FFFD. */
export function decodeUtf8Lenient(bytes: Uint8Array): string {
  return lenientDecoder.decode(bytes);
}

/**
 * The largest length `<= limit` at which `bytes` can be cut without splitting
 * a UTF-8 character (a cut never leaves a lead byte without its continuation).
 */
export function utf8BoundaryAtOrBefore(bytes: Uint8Array, limit: number): number {
  if (limit >= bytes.length) return bytes.length;
  let cut = limit;
  // Step back over continuation bytes (10xxxxxx) to the start of the character at `cut`.
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return cut;
}
