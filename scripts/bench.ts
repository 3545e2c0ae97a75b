// npm run bench: Paddock against plain node:fs and peer libraries, side by
// side in one run. Prints medians and ratios; nothing here is asserted.
//
//   npm run bench                          every suite; the real-tree cases are skipped
//   npm run bench -- --tree /work/trees/linux   also the real-tree search cases (see the README)
//   npm run bench -- --tree DIR --only tree     only those
import { parseArgs } from "node:util";
import { benchContainer } from "./bench/container.ts";
import { benchCore } from "./bench/core.ts";
import { benchEdit } from "./bench/edit.ts";
import { benchMcp } from "./bench/mcp.ts";
import { benchSandbox } from "./bench/sandbox.ts";
import { benchSearch } from "./bench/search.ts";
import type { BenchRow } from "./bench/row.ts";
import { benchTree } from "./bench/tree.ts";

const { values: flags } = parseArgs({
  options: { tree: { type: "string" }, only: { type: "string" }, rounds: { type: "string" } },
});

const suites: Array<[string, () => Promise<BenchRow[]>]> = [
  ["core tools", benchCore],
  ["edit_file", benchEdit],
  ["search tools", benchSearch],
  ["OS sandbox", benchSandbox],
  ["container sandbox", benchContainer],
  ["MCP server", benchMcp],
];

function format(ms: number): string {
  return Number.isNaN(ms) ? "—" : ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

console.log(`Paddock benchmark — Node ${process.version}, ${new Date().toISOString()}\n`);
const header = ["measured", "Paddock", "baseline", "ratio", "target", "baseline is"];
const lines: string[][] = [];
for (const [title, run] of suites) {
  if (flags.only !== undefined && flags.only !== title) continue;
  process.stderr.write(`running ${title}…\n`);
  let rows: BenchRow[];
  try {
    rows = await run();
  } catch (error) {
    // A suite whose baseline or backend is missing here (e.g. no bwrap) says so and the rest still runs.
    lines.push([title, "—", "—", "—", "", `not measured: ${(error as Error).message}`]);
    continue;
  }
  for (const row of rows) {
    const ratio = row.paddockMs / row.baselineMs;
    const verdict = row.target === undefined || Number.isNaN(ratio) ? "" : ratio <= row.target ? " ✓" : " ✗";
    lines.push([
      row.name,
      format(row.paddockMs),
      format(row.baselineMs),
      Number.isNaN(ratio) ? "—" : `${ratio.toFixed(2)}×`,
      row.target === undefined ? "" : `≤ ${row.target}×${verdict}`,
      row.baseline,
    ]);
  }
}
const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i].length)));
const print = (cells: string[]) => console.log(cells.map((cell, i) => cell.padEnd(widths[i])).join("  "));
if (lines.length > 0) {
  print(header);
  print(widths.map((w) => "-".repeat(w)));
  for (const line of lines) print(line);
}

// The real-tree search cases print their own table (three programs side by side).
console.log("\nReal-tree search cases");
if (flags.tree === undefined) {
  console.log("skipped: no --tree <dir> given (get the Linux kernel tree as the README's Benchmarks section says)");
} else {
  process.stderr.write("running real-tree search cases…\n");
  const rounds = flags.rounds === undefined ? undefined : Number(flags.rounds);
  for (const line of await benchTree(flags.tree, { rounds })) console.log(line);
}
