/** Which runtime the suite is running on (vitest under Node, Deno or Bun). */
export type RuntimeName = "node" | "deno" | "bun";

const globals = globalThis as { Deno?: unknown; Bun?: unknown };

/** The runtime running this test file. */
export const runtime: RuntimeName = globals.Deno !== undefined ? "deno" : globals.Bun !== undefined ? "bun" : "node";

/** Whether the suite runs on Deno. */
export const onDeno: boolean = runtime === "deno";
/** Whether the suite runs on Bun. */
export const onBun: boolean = runtime === "bun";

/**
 * The note a conditional test appends to its name, so the report says why it
 * did not run: `" [skipped: reason]"` when `skipped`, else `""`.
 *
 * @param skipped The test's skip condition (for `runIf(c)`, pass `!c`).
 * @param reason Why it cannot run here, as something that really happens.
 * @returns The note, or the empty string.
 */
export function skipNote(skipped: boolean, reason: string): string {
  return skipped ? ` [skipped: ${reason}]` : "";
}
