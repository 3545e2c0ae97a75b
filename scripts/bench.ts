// npm run bench: Paddock against plain node:fs and peer libraries, side by
// side in one run. Prints medians and ratios; nothing here is asserted.
//
//   npm run bench                          every suite; the real-tree cases are skipped
//   npm run bench -- --tree /work/trees/go --tree /work/trees/linux   also the real-tree search cases, per tree,
//                                          Node and Deno, cold and warm, and the first grep of a fresh `paddock mcp`
//                                          (the built package: `npm run build` runs first; see the README for the trees)
//   npm run bench -- --tree DIR --only tree     only those
//   npm run bench -- --tree DIR --only tree --runtime node   only on Node
//   npm run bench -- --only "MCP under load"   only the load figure: 50 sessions x 100 calls, HTTP beside stdio
import { parseArgs } from "node:util";
import { benchContainer } from "./bench/container.ts";
import { benchCore } from "./bench/core.ts";
import { benchEdit } from "./bench/edit.ts";
import { benchMcp } from "./bench/mcp.ts";
import { benchSandbox } from "./bench/sandbox.ts";
import { benchSearch } from "./bench/search.ts";
import type { BenchRow } from "./bench/row.ts";
import { benchTree, type PaddockRuntime } from "./bench/tree.ts";
import { benchMcpFirstCall } from "./bench/mcp_first_call.ts";
import { benchHttpLoad } from "./bench/http_load.ts";
import { spawnSync } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

const { values: flags } = parseArgs({
  options: {
    tree: { type: "string", multiple: true },
    only: { type: "string" },
    rounds: { type: "string" },
    runtime: { type: "string", multiple: true },
  },
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

// The load figure prints its own table: p50 / p99 and peak RSS, HTTP beside stdio (`--only "MCP under load"`).
if (flags.only === undefined || flags.only === "MCP under load") {
  process.stderr.write("running MCP under load (50 sessions over HTTP, then over stdio)…\n");
  console.log("");
  try {
    for (const line of await benchHttpLoad()) console.log(line);
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    console.log(
      `MCP under load: not measured: ${(error as Error).message}${cause ? ` (${cause.code ?? cause.message})` : ""}`,
    );
  }
}

// The real-tree search cases print their own table (three programs side by side), per tree.
console.log("\nReal-tree search cases");
if (flags.tree === undefined) {
  console.log("skipped: no --tree <dir> given (get the trees as the README's Benchmarks section says)");
} else {
  // What users run: the built package, built now from these sources.
  process.stderr.write("building dist/ (npm run build)…\n");
  const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const built = spawnSync(path.join(repo, "node_modules/.bin/tsc"), ["-p", "tsconfig.json"], {
    cwd: repo,
    stdio: "inherit",
  });
  // And the npm bin's bundle (dist/bin/), which the MCP first-call rows start: else they would run a stale one.
  const bundled = built.status === 0
    ? spawnSync(process.execPath, [path.join(repo, "scripts/build_bin.mjs"), path.join(repo, "dist")], {
      cwd: repo,
      stdio: "inherit",
    })
    : built;
  if (built.status !== 0 || bundled.status !== 0) throw new Error("npm run build failed");
  const rounds = flags.rounds === undefined ? undefined : Number(flags.rounds);
  const runtimes = flags.runtime as PaddockRuntime[] | undefined;
  for (const tree of flags.tree) {
    process.stderr.write(`running real-tree search cases on ${tree}…\n`);
    console.log("");
    for (const line of await benchTree(tree, { rounds, runtimes })) console.log(line);
    console.log("");
    for (const line of await benchMcpFirstCall(tree, rounds === undefined ? undefined : Math.max(rounds, 3))) {
      console.log(line);
    }
  }
}
