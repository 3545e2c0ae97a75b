/** One benchmark measurement: Paddock's median next to a baseline's. */
export type BenchRow = {
  /** What was measured. */
  name: string;
  /** Median milliseconds per operation with Paddock. */
  paddockMs: number;
  /** Median milliseconds per operation with the baseline. */
  baselineMs: number;
  /** What the baseline is. */
  baseline: string;
};
