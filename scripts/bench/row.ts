/** One benchmark measurement: Paddock against a baseline, in milliseconds (lower is better). */
export interface BenchRow {
  /** What was measured, e.g. "mcp read_file 4 KiB (median per call)". */
  name: string;
  /** Paddock's time. */
  paddockMs: number;
  /** The baseline's time. */
  baselineMs: number;
  /** What the baseline is, e.g. "@modelcontextprotocol/server-filesystem". */
  baseline: string;
}
