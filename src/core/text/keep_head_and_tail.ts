import { omittedMarker } from "../process/run_process.ts";
import { decodeUtf8Lenient, encodeUtf8, utf8BoundaryAtOrBefore } from "./utf8.ts";

/**
 * Keeps at most `maxBytes` of a text's UTF-8: the first half and the last
 * half, cut on character boundaries, with the same marker between them as a
 * shell's bounded output (`\n[… N bytes omitted …]\n`).
 *
 * @param text The whole output.
 * @param maxBytes Bytes kept at most (the marker not counted).
 * @returns The kept text, and whether anything was cut.
 */
export function keepHeadAndTail(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const bytes = encodeUtf8(text);
  if (bytes.length <= maxBytes) return { text, truncated: false };
  const headLimit = Math.ceil(maxBytes / 2);
  const head = bytes.subarray(0, utf8BoundaryAtOrBefore(bytes, headLimit));
  let start = Math.max(head.length, bytes.length - (maxBytes - headLimit));
  while (start < bytes.length && (bytes[start] & 0xc0) === 0x80) start++;
  const tail = bytes.subarray(start);
  const omitted = bytes.length - head.length - tail.length;
  return { text: decodeUtf8Lenient(head) + omittedMarker(omitted) + decodeUtf8Lenient(tail), truncated: true };
}
