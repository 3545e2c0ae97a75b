/** Which runtime the suite is running on (vitest under Node, Deno or Bun). */
export type RuntimeName = "node" | "deno" | "bun";

const globals = globalThis as { Deno?: unknown; Bun?: unknown };

/** The runtime running this test file. */
export const runtime: RuntimeName = globals.Deno !== undefined ? "deno" : globals.Bun !== undefined ? "bun" : "node";

/** Whether the suite runs on Deno. */
export const onDeno: boolean = runtime === "deno";
/** Whether the suite runs on Bun. */
export const onBun: boolean = runtime === "bun";
