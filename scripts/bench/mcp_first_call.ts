/**
 * The first grep of a fresh `paddock mcp` session on a real tree, against
 * ripgrep's time for the same query, interleaved round by round: the built
 * server (under Node the bundle npm's bin runs, `dist/bin/cli.js mcp --root
 * <tree>`, and once the unbundled `dist/cli.js`; under Deno `dist/cli.js`; with
 * grep's warm-up on and off) is started
 * through the MCP SDK's stdio client, its start-up timed (spawn until the
 * `initialize` handshake is answered), then one `grep` call (a literal with
 * no match in the Go tree: every file read) timed from request to answer.
 * The target (docs/benchmarks.md): the first call at most 2× ripgrep.
 *
 * Run alone: `tsx scripts/bench/mcp_first_call.ts <tree> [rounds]`.
 */
import * as path from "node:path";
import process from "node:process";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { median } from "./row.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = path.join(REPO, "dist", "cli.js");
/** What npm's `paddock` bin runs: the CLI bundled with its dependencies (`scripts/build_bin.mjs`). */
const BIN = path.join(REPO, "dist", "bin", "cli.js");
/** The query: a literal with no match (a pure scan), as `rg` is given it. */
const QUERY = { pattern: "EXPORT_SYMBOL_GPL", literal: true, output_mode: "count" };
const RG = ["--hidden", "-c", "-F", "EXPORT_SYMBOL_GPL"];
/** A pause between start-up and the first call, as a client's handshake and a model's first turn give one. */
const PAUSE_MS = 300;
const TARGET = 2;

/** One way of starting the server: its runtime, whether it warms grep up at start, the pause before the call. */
interface Side {
  label: string;
  runtime: "node" | "deno";
  warmUp: boolean;
  pauseMs: number;
  /** Flags for Node before the script (a client's server command can pass them). */
  nodeFlags?: string[];
  /** Node runs `dist/cli.js` (the modules as compiled) rather than the bin's bundle. */
  unbundled?: boolean;
}

const SIDES: Side[] = [
  { label: "Node, at once after the handshake", runtime: "node", warmUp: true, pauseMs: 0 },
  { label: `Node, ${PAUSE_MS} ms after it (a client's first turn)`, runtime: "node", warmUp: true, pauseMs: PAUSE_MS },
  { label: `Node, ${PAUSE_MS} ms after it, \`--warm-up off\``, runtime: "node", warmUp: false, pauseMs: PAUSE_MS },
  {
    label: `Node, ${PAUSE_MS} ms after it, unbundled (\`dist/cli.js\`)`,
    runtime: "node",
    warmUp: true,
    pauseMs: PAUSE_MS,
    unbundled: true,
  },
  // V8's pool of background threads (its optimizing compiler, the collector's helpers) down to one: on 2 cores
  // they take a core from the search while the first calls compile it (docs/benchmarks.md).
  {
    label: `Node \`--v8-pool-size=1\`, ${PAUSE_MS} ms after it`,
    runtime: "node",
    warmUp: true,
    pauseMs: PAUSE_MS,
    nodeFlags: ["--v8-pool-size=1"],
  },
  { label: "Deno, at once after the handshake", runtime: "deno", warmUp: true, pauseMs: 0 },
  { label: `Deno, ${PAUSE_MS} ms after it`, runtime: "deno", warmUp: true, pauseMs: PAUSE_MS },
  { label: `Deno, ${PAUSE_MS} ms after it, \`--warm-up off\``, runtime: "deno", warmUp: false, pauseMs: PAUSE_MS },
];

const DENO = path.join(REPO, "node_modules", ".bin", "deno");

/** One server's round: its start-up, its first call, and whether that call stopped at the result limit. */
interface Round {
  startMs: number;
  firstMs: number;
  truncated: boolean;
}

async function paddockRound(tree: string, side: Side): Promise<Round> {
  const began = performance.now();
  const client = new Client({ name: "paddock-bench", version: "1" });
  const script = side.runtime === "deno" || side.unbundled === true ? CLI : BIN;
  const args = [script, "mcp", "--root", tree, "--warm-up", side.warmUp ? "on" : "off"];
  await client.connect(
    new StdioClientTransport(
      side.runtime === "node"
        ? { command: process.execPath, args: [...(side.nodeFlags ?? []), ...args], stderr: "ignore" }
        : { command: DENO, args: ["run", "-A", ...args], stderr: "ignore" },
    ),
  );
  const startMs = performance.now() - began;
  try {
    await new Promise((resolve) => setTimeout(resolve, side.pauseMs));
    const start = performance.now();
    const result = await client.callTool({ name: "grep", arguments: QUERY });
    const firstMs = performance.now() - start;
    if ((result as { isError?: boolean }).isError === true) {
      throw new Error(`grep returned an error: ${JSON.stringify(result).slice(0, 300)}`);
    }
    // A tree where the literal matches stops at grep's result limit, so it read fewer files than rg: not comparable.
    const text = (result as { content?: { type: string; text?: string }[] }).content?.[0]?.text ?? "{}";
    const truncated = (JSON.parse(text) as { truncated?: boolean }).truncated === true;
    return { startMs, firstMs, truncated };
  } finally {
    await client.close().catch(() => {});
  }
}

function rgRound(tree: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn("rg", RG, { cwd: tree, stdio: ["ignore", "ignore", "ignore"] });
    child.on("error", reject);
    child.on("close", () => resolve(performance.now() - start));
  });
}

/**
 * Runs the first-call benchmark on one tree.
 *
 * @param tree The tree's folder.
 * @param rounds Rounds (medians over them).
 * @returns The table, as Markdown lines.
 */
export async function benchMcpFirstCall(tree: string, rounds = 5): Promise<string[]> {
  if (!fs.existsSync(CLI) || !fs.existsSync(BIN)) throw new Error("no dist/bin/cli.js: run `npm run build` first");
  const runs = SIDES.map(() => [] as Round[]);
  const rg: number[] = [];
  for (let round = 0; round < rounds; round++) {
    process.stderr.write(`  mcp first call round ${round + 1}/${rounds}…\n`);
    // rg first in even rounds, last in odd ones; the servers in turn, reversed every other round.
    const order = SIDES.map((_, i) => i);
    if (round % 2 === 1) order.reverse();
    if (round % 2 === 0) rg.push(await rgRound(tree));
    for (const i of order) runs[i].push(await paddockRound(tree, SIDES[i]));
    if (round % 2 === 1) rg.push(await rgRound(tree));
  }
  const rgMs = median(rg);
  const row = (label: string, runs: Round[]) => {
    const first = median(runs.map((run) => run.firstMs));
    const ratio = first / rgMs;
    const verdict = runs.some((run) => run.truncated)
      ? "— (stopped at grep's result limit; rg read every file)"
      : `${ratio.toFixed(2)}× ${ratio <= TARGET ? "✓" : "✗"}`;
    return `| ${label} | ${median(runs.map((run) => run.startMs)).toFixed(0)} ms | ${first.toFixed(0)} ms | ${
      rgMs.toFixed(0)
    } ms | ${verdict} |`;
  };
  return [
    `Tree: ${tree}; the first grep (\`${
      JSON.stringify(QUERY)
    }\`) of a fresh \`paddock mcp\` (Node ${process.version}: the bin's bundle \`dist/bin/cli.js\` unless said; Deno from node_modules: \`dist/cli.js\`); medians of ${rounds}, interleaved.`,
    "",
    "| first call | server start-up (spawn → initialize answered) | first grep | rg | ÷ rg (target ≤ 2×) |",
    "| --- | --- | --- | --- | --- |",
    ...SIDES.map((side, i) => row(side.label, runs[i])),
  ];
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [tree, rounds] = process.argv.slice(2);
  for (const line of await benchMcpFirstCall(tree, rounds === undefined ? undefined : Number(rounds))) {
    console.log(line);
  }
}
