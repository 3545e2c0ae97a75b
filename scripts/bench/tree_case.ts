// One Paddock run of a real-tree case, in its own process so that its peak
// memory is its own: `tsx scripts/bench/tree_case.ts <tree> <case>`. Runs the
// case once to warm up (JIT, page cache), then once measured, with a timer
// watching the event loop; prints one JSON line.
// PADDOCK_DIST=1: the built package (`npm run build`), as users run it (its grep workers load the
// built `.js`; from the sources, Node loads them through tsx, which costs startup and memory).
const dist = process.env.PADDOCK_DIST ? "../../dist" : "../..";
const { createFindFilesTool, createGrepTool, openWorkspace } = await import(
  `${dist}/mod.${dist.endsWith("dist") ? "js" : "ts"}`
) as typeof import("../../mod.ts");
const { createNodeHost } = await import(
  `${dist}/src/hosts/node.${dist.endsWith("dist") ? "js" : "ts"}`
) as typeof import("../../src/hosts/node.ts");
import { TREE_CASES } from "./tree_cases.ts";

// Ceilings raised so Paddock does the same work as the baselines (every file, every result).
const ALL = { maxResults: 1_000_000, maxWalkEntries: 10_000_000, maxFileBytes: 1 << 30 };
const TICK_MS = 5;

const [tree, name] = process.argv.slice(2);
const found = TREE_CASES.find((entry) => entry.name === name);
if (found === undefined) throw new Error(`no case ${name}`);
const spec = found;
const workspace = await openWorkspace(
  tree,
  process.env.PADDOCK_SYNC ? { host: createNodeHost({ syncFileCalls: true }) } : {},
);
const grep = createGrepTool(workspace, ALL);
const find = createFindFilesTool(workspace, ALL);
const once = async (): Promise<number> => {
  const result = spec.tool === "grep" ? await grep.execute(spec.args) : await find.execute(spec.args);
  return JSON.stringify(result).length;
};

await once();
// Two views of the longest stall: wall time between two ticks (what a client
// waits; includes time the OS gave to other processes on a loaded machine), and
// the CPU time this process used between two ticks (the work done without a
// turn, whatever the load).
const cpuNow = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
let lag = 0;
let cpuLag = 0;
let last = performance.now();
let lastCpu = cpuNow();
const tick = () => {
  const now = performance.now();
  const cpu = cpuNow();
  lag = Math.max(lag, now - last - TICK_MS);
  cpuLag = Math.max(cpuLag, cpu - lastCpu);
  last = now;
  lastCpu = cpu;
};
const timer = setInterval(tick, TICK_MS);
const start = performance.now();
const cpuStart = cpuNow();
const bytes = await once();
const ms = performance.now() - start;
const cpuMs = cpuNow() - cpuStart;
clearInterval(timer);
tick(); // a stall at the very end counts too
const rssMB = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify({ ms, cpuMs, lagMs: Math.max(0, lag), cpuLagMs: cpuLag, rssMB, bytes }));
