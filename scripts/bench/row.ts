/** One benchmark result: Paddock's time against a baseline doing the same work without Paddock's layer. */
export interface BenchRow {
  /** What was measured. */
  name: string;
  /** Median milliseconds with Paddock. */
  paddockMs: number;
  /** Median milliseconds of the baseline. */
  baselineMs: number;
  /** What the baseline is. */
  baseline: string;
}
