/** One line of `npm run bench`: Paddock's median per call against a baseline's. */
export interface BenchRow {
  /** What was measured. */
  name: string;
  /** Paddock's median per call, in milliseconds. */
  paddockMs: number;
  /** The baseline's median per call, in milliseconds (NaN when the baseline is absent). */
  baselineMs: number;
  /** What the baseline is (or why it is absent). */
  baseline: string;
  /** The target ratio, when the issue sets one. */
  target?: number;
}

/** Median of `values`. */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Runs `fn` `warmup` times, then `samples` times, and returns the median milliseconds per call. */
export async function measure(
  fn: () => Promise<unknown>,
  samples: number,
  warmup = Math.ceil(samples / 10),
): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

/**
 * Runs `paddock` and `baseline` alternately, call by call (after `warmup`
 * rounds of both), so load from other processes on a shared machine falls on
 * both alike; returns the median milliseconds per call of each.
 */
export async function measurePair(
  paddock: () => Promise<unknown>,
  baseline: () => Promise<unknown>,
  samples: number,
  warmup = Math.ceil(samples / 10),
): Promise<{ paddockMs: number; baselineMs: number }> {
  for (let i = 0; i < warmup; i++) {
    await paddock();
    await baseline();
  }
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < samples; i++) {
    // Alternate which goes first, so neither always runs on a warm cache left by the other.
    const order = i % 2 === 0 ? [0, 1] as const : [1, 0] as const;
    for (const which of order) {
      const start = performance.now();
      await (which === 0 ? paddock() : baseline());
      times[which].push(performance.now() - start);
    }
  }
  return { paddockMs: median(times[0]), baselineMs: median(times[1]) };
}
