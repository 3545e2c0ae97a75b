const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/**
 * Standard base64 (RFC 4648, with padding) of `bytes`, in pure TypeScript:
 * the core uses no runtime's `Buffer` or `btoa`.
 *
 * @param bytes The bytes.
 * @returns Their base64 text.
 */
export function encodeBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  // Built in slices, so a large file never makes one huge intermediate array.
  const SLICE = 3 * 8_192;
  for (let start = 0; start < bytes.length; start += SLICE) {
    const end = Math.min(start + SLICE, bytes.length);
    let text = "";
    let i = start;
    for (; i + 2 < end; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      text += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
    }
    if (end - i === 1) {
      const n = bytes[i] << 16;
      text += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + "==";
    } else if (end - i === 2) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
      text += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + "=";
    }
    parts.push(text);
  }
  return parts.join("");
}
