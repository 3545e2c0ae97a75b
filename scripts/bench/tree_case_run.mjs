// One Paddock process of a real-tree case, as a user's process runs the package:
// the built `dist/` (`npm run build`), loaded by the runtime itself with no
// TypeScript loader (plain JavaScript for that reason: under tsx, Node would
// also load tsx into every grep worker). Run by `tree.ts`:
//
//   node scripts/bench/tree_case_run.mjs <dist> <tree> <tool> <args JSON> [warm calls] [pause ms]
//   deno run -A scripts/bench/tree_case_run.mjs <dist> <tree> <tool> <args JSON> [warm calls] [pause ms]
//
// With a pause (grep only), the tool is made with `warmUp` (what `paddock mcp`
// does) and the first call waits that long after start-up, as a client's first
// turn gives the server time: the cold figure is then "cold after the warm-up".
//
// Start-up (import, openWorkspace, the tool made) is timed, then the first call
// in this fresh process (cold), then the later calls (warm; their median), each
// with its CPU time (user + system, every thread of the process) and with a
// timer watching the event loop. Prints one JSON line.
import process from "node:process";

const TICK_MS = 5;
// Ceilings raised so Paddock does the same work as the baselines (every file, every result).
const ALL = { maxResults: 1_000_000, maxWalkEntries: 10_000_000, maxFileBytes: 1 << 30 };

const began = performance.now();
const [dist, tree, tool, argsJson, warmCalls = "3", pause = "0"] = process.argv.slice(2);
const pauseMs = Number(pause);
const { createFindFilesTool, createGrepTool, openWorkspace } = await import(new URL(`file://${dist}/mod.js`).href);
const workspace = await openWorkspace(tree);
const run = tool === "grep"
  ? createGrepTool(workspace, { ...ALL, warmUp: pauseMs > 0 })
  : createFindFilesTool(workspace, ALL);
const startMs = performance.now() - began;
const args = JSON.parse(argsJson);

const cpuNow = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
// Two views of the longest stall: wall time between two ticks (what a client waits; includes time the OS gave
// to other processes on a loaded machine), and the CPU time this process used between two ticks.
let lag = 0;
let cpuLag = 0;
// Ticks later than the 50 ms bound, and all ticks: one stall in a run, or many.
const STALL_MS = 50;
let stalls = 0;
let ticks = 0;
let last = performance.now();
let lastCpu = cpuNow();
const tick = () => {
  const now = performance.now();
  const cpu = cpuNow();
  lag = Math.max(lag, now - last - TICK_MS);
  ticks++;
  if (now - last - TICK_MS > STALL_MS) stalls++;
  cpuLag = Math.max(cpuLag, cpu - lastCpu);
  last = now;
  lastCpu = cpu;
};
const once = async () => {
  last = performance.now();
  lastCpu = cpuNow();
  const timer = setInterval(tick, TICK_MS);
  const start = performance.now();
  const cpuStart = cpuNow();
  const result = await run.execute(args);
  const ms = performance.now() - start;
  const cpuMs = cpuNow() - cpuStart;
  clearInterval(timer);
  tick(); // a stall at the very end counts too
  if (result && result.ok === false) throw new Error(JSON.stringify(result).slice(0, 300));
  return { ms, cpuMs, bytes: JSON.stringify(result).length };
};
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length % 2 === 1
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};

if (pauseMs > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
const cold = await once();
const warm = [];
for (let i = 0; i < Number(warmCalls); i++) warm.push(await once());
const rssMB = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({
  startMs,
  coldMs: cold.ms,
  coldCpuMs: cold.cpuMs,
  // The report's "first 3": the median of the first three calls of a fresh process, the first among them.
  firstThreeMs: median([cold, ...warm.slice(0, 2)].map((call) => call.ms)),
  firstThreeCpuMs: median([cold, ...warm.slice(0, 2)].map((call) => call.cpuMs)),
  ms: median(warm.map((call) => call.ms)),
  cpuMs: median(warm.map((call) => call.cpuMs)),
  lagMs: Math.max(0, lag),
  cpuLagMs: cpuLag,
  stalls,
  ticks,
  rssMB,
  bytes: cold.bytes,
}));
