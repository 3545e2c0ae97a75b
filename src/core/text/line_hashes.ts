/**
 * One hash per line of `text`, each line with its own line ending (so a
 * `\r\n` turned `\n` is a changed line); a final line without an ending
 * counts, an empty one after the last `\n` does not. Two 32-bit FNV-1a hashes
 * of the UTF-16 units, with different offsets, make one 53-bit number: two
 * different lines share it about once in 2^53 pairs.
 *
 * @param text The text.
 * @returns The hashes, line by line.
 *
 * @example
 * ```ts
 * import { lineHashes } from "./line_hashes.ts";
 * lineHashes("a\nb\n").length; // 2
 * ```
 */
export function lineHashes(text: string): number[] {
  const hashes: number[] = [];
  let h1 = 0x811c9dc5;
  let h2 = 0x050c5d1f;
  let open = false;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ unit, 0x01000193);
    h2 = Math.imul(h2 ^ unit, 0x01000193) ^ (h2 >>> 15);
    open = true;
    if (unit === 0x0a) {
      hashes.push((h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff));
      h1 = 0x811c9dc5;
      h2 = 0x050c5d1f;
      open = false;
    }
  }
  if (open) hashes.push((h1 >>> 0) * 0x200000 + ((h2 >>> 0) & 0x1fffff));
  return hashes;
}
