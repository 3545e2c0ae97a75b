/**
 * A small deterministic generator (mulberry32), so a failure replays from its seed.
 *
 * @param seed Any 32-bit integer.
 * @returns A function giving the next number in [0, 1).
 */
export function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
