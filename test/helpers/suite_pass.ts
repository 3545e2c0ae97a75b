/**
 * Whether this vitest run is one pass of `npm test` (scripts/test.sh), which
 * runs the behaviour suite under Node, then Deno, then Bun: what one pass
 * proves is then not proven again by another. scripts/test.sh sets
 * `PADDOCK_SUITE_PASSES=node,deno,bun` (the passes it runs); a plain
 * `vitest run` under any runtime leaves it unset and runs everything.
 *
 * @module
 */
import process from "node:process";
import { runtime, type RuntimeName } from "./runtime.ts";

/** The runtimes `npm test` runs the suite under, or `[]` outside `npm test`. */
export const SUITE_PASSES: readonly RuntimeName[] = (process.env.PADDOCK_SUITE_PASSES ?? "")
  .split(",")
  .filter((name): name is RuntimeName => name === "node" || name === "deno" || name === "bun");

/**
 * Whether host-independent cases (the memory host, pure parsing) run in this
 * pass: always, except in the Deno and Bun passes of `npm test`, because the
 * Node pass runs them and their code does not depend on the runtime.
 */
export const runsHostIndependentCases: boolean = runtime === "node" || !SUITE_PASSES.includes("node");

/**
 * Whether `on` gets a pass of its own in this `npm test` run (so a test under
 * another runtime that would start a server under `on` repeats that pass).
 */
export function hasOwnPass(on: RuntimeName): boolean {
  return SUITE_PASSES.includes(on);
}

/**
 * Whether every row of a container table runs in this pass (the same
 * condition as {@link runsHostIndependentCases}): the rows that send the
 * container the same request and differ only in the command it runs prove
 * nothing about the suite's runtime after the first, because the command runs
 * inside the container, under the image's shell or node. The Deno and Bun
 * passes of `npm test` run the first row, with everything their runtime does
 * on the host; the Node pass runs them all.
 */
export const runsEveryContainerRow: boolean = runsHostIndependentCases;
