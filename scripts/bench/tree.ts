import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { libcAtRoute } from "../../src/hosts/_libc_at.ts";
import { median } from "./row.ts";
import { TREE_CASES, type TreeCase } from "./tree_cases.ts";

/** One measured run. */
interface Run {
  /** Wall time (Paddock: the median of the warm calls, those after the first in its process). */
  ms: number;
  /** Paddock: start-up (import of the built package, openWorkspace, the tool made). */
  startMs?: number;
  /** Paddock: the first call in a fresh process, wall and CPU. */
  coldMs?: number;
  coldCpuMs?: number;
  /** Paddock: the median of the first three calls in a fresh process (the first among them), wall and CPU. */
  firstThreeMs?: number;
  firstThreeCpuMs?: number;
  /** CPU time (user + system) of the process and its children, ms: steadier than wall time on a loaded machine. */
  cpuMs: number;
  /** Peak resident memory of the process (and its children), MB. */
  rssMB: number;
  /** Longest event-loop stall, wall time (Paddock only), ms. */
  lagMs?: number;
  /** CPU time used between two timer ticks at most (Paddock only), ms. */
  cpuLagMs?: number;
  /** Paddock: timer ticks later than 50 ms, and all ticks, over the measured calls. */
  stalls?: number;
  ticks?: number;
}

/** Options of {@link benchTree}. */
export interface TreeBenchOptions {
  /** Rounds; each case's figures are medians over them. @default 3 */
  rounds?: number;
  /** Only the cases with these names. @default all */
  cases?: string[];
  /** The runtimes Paddock is measured on (Deno where `node_modules/.bin/deno` is). @default ["node", "deno"] */
  runtimes?: PaddockRuntime[];
}

/** A runtime Paddock's side runs on. */
export type PaddockRuntime = "node" | "deno";

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Whether this Node reaches libc's openat (the `koffi` package): then the floor has an openat row, Paddock's route. */
const OPENAT = libcAtRoute() === "openat";
const TSX = path.join(HERE, "../../node_modules/.bin/tsx");
const DENO = path.join(HERE, "../../node_modules/.bin/deno");
/** The built package (`npm run build`): what users run; the bench builds it first. */
const DIST = path.join(HERE, "../../dist");
/**
 * Calls after the first in each Paddock process; the warm figure is their median. Eight: Node 20 compiles the
 * search code over the first several calls of an 8,000-file tree (350, 190, 150, 120, 110 ms…), so the median
 * of three later calls was still a warming one there (it was 3 until 2026-12-04).
 */
const WARM_CALLS = 8;
/** grep cases: a second process per runtime makes the tool with `warmUp` (as `paddock mcp` does) and waits this long before its first call. */
const PRIMED_PAUSE_MS = 600;

/**
 * The issue's five searches on a real tree (the Linux kernel source, see the
 * README), side by side with ripgrep / fd and GNU grep / find in one run:
 * rounds interleave the programs (Paddock, then the others, in a rotating
 * order), and each figure is the median of the rounds. Paddock runs each case
 * in its own process (one warm-up call, then the measured one, with a timer
 * watching the event loop), so its peak memory is its own; the baselines'
 * peak memory comes from `/usr/bin/time` where it is installed.
 *
 * @param tree The tree's folder.
 * @param options Rounds and cases.
 * @returns The table, as Markdown lines.
 */
export async function benchTree(tree: string, options: TreeBenchOptions = {}): Promise<string[]> {
  const rounds = options.rounds ?? 3;
  const cases = TREE_CASES.filter((entry) => options.cases === undefined || options.cases.includes(entry.name));
  const runtimes = (options.runtimes ?? ["node", "deno"]).filter((runtime) =>
    runtime === "node" || fs.existsSync(DENO)
  );
  const fd = hasProgram("fd") ? "fd" : hasProgram("fdfind") ? "fdfind" : null;
  const missing = ["rg", "grep", "find"].filter((name) => !hasProgram(name));
  if (fd === null) missing.push("fd (fdfind)");
  if (missing.length > 0) throw new Error(`baselines not installed: ${missing.join(", ")}`);
  if (!fs.existsSync(path.join(DIST, "mod.js"))) throw new Error("no dist/: run `npm run build` first");
  type Side =
    | PaddockRuntime
    | "nodePrimed"
    | "denoPrimed"
    | "fast"
    | "classic"
    | "ordered"
    | "floor"
    | "proc"
    | "plain";
  const runs = new Map<string, Record<Side, Run[]>>();
  for (const entry of cases) {
    runs.set(entry.name, {
      node: [],
      deno: [],
      nodePrimed: [],
      denoPrimed: [],
      fast: [],
      classic: [],
      ordered: [],
      floor: [],
      proc: [],
      plain: [],
    });
  }
  for (let round = 0; round < rounds; round++) {
    for (const entry of cases) {
      const into = runs.get(entry.name)!;
      const sides: Side[] = [...runtimes, "fast", "classic"];
      if (entry.tool === "grep") sides.push(...runtimes.map((runtime) => `${runtime}Primed` as const));
      if (entry.ordered !== undefined) sides.push("ordered");
      if (entry.floor !== undefined) sides.push(...(OPENAT ? ["floor" as const] : []), "proc", "plain");
      const order = sides.map((_, i, all) => all[(i + round) % all.length]);
      for (const side of order) {
        process.stderr.write(`  round ${round + 1}/${rounds} ${entry.name} ${side}…\n`);
        if (side === "node" || side === "deno") into[side].push(await runPaddock(tree, entry, side));
        else if (side === "nodePrimed" || side === "denoPrimed") {
          into[side].push(await runPaddock(tree, entry, side === "nodePrimed" ? "node" : "deno", PRIMED_PAUSE_MS));
        } else if (side === "floor" || side === "proc" || side === "plain") {
          into[side].push(await runFloor(tree, entry.floor!, side === "floor" ? "openat" : side));
        } else {
          const command = side === "fast"
            ? entry.fast.replace(/^fdfind /, `${fd} `)
            : side === "classic"
            ? entry.classic
            : entry.ordered!;
          into[side].push(await runShell(tree, command));
        }
      }
    }
  }
  const lines = [
    `Tree: ${tree} (${countFiles(tree)} files); ${os.cpus().length} cores; medians of ${rounds}, interleaved;`,
    `Paddock: the built package (dist/) on ${runtimes.map(runtimeVersion).join(" and ")}.`,
    "",
    "Each time is wall (CPU: user + system). Ratios are Paddock's time over the other's, wall (CPU).",
    "Cold: the first call in a fresh process; warm: the median of the next " + WARM_CALLS + " calls in it;",
    "first 3: the median of the first three calls in a fresh process, the cold one among them.",
    `Cold after warm-up (grep): the first call in a fresh process whose tool was made with \`warmUp\` (as \`paddock mcp\``,
    `does), ${PRIMED_PAUSE_MS} ms after start-up (a client's first turn).`,
    "",
    "| case | runtime | Paddock cold | Paddock first 3 | Paddock cold after warm-up | Paddock warm | ripgrep / fd | ÷ rg/fd cold | ÷ rg/fd first 3 | ÷ rg/fd cold after warm-up | ÷ rg/fd warm | rg in Paddock's order: time (÷ cold · first 3 · warm) | GNU grep / find (÷ warm) | bare node:fs loop, CPU: openat · /proc · plain paths | event-loop lag wall (CPU); ticks late > 50 ms | peak RSS Paddock / rg,fd | Paddock start-up |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  const wall = (runs: Run[]) => median(runs.map((run) => run.ms));
  const cpu = (runs: Run[]) => median(runs.map((run) => run.cpuMs));
  const time = (runs: Run[]) => `${seconds(wall(runs))} (${seconds(cpu(runs))})`;
  const coldOf = (runs: Run[]) => runs.map((run) => ({ ...run, ms: run.coldMs!, cpuMs: run.coldCpuMs! }));
  const firstThreeOf = (runs: Run[]) =>
    runs.map((run) => ({ ...run, ms: run.firstThreeMs!, cpuMs: run.firstThreeCpuMs! }));
  // CPU below /usr/bin/time's 10 ms resolution gives no ratio.
  const ratio = (mine: Run[], theirs: Run[]) =>
    `${(wall(mine) / wall(theirs)).toFixed(2)}× (${
      cpu(theirs) >= 10 ? `${(cpu(mine) / cpu(theirs)).toFixed(2)}×` : "—"
    })`;
  for (const entry of cases) {
    const { fast, classic, ordered, floor, proc, plain } = runs.get(entry.name)!;
    const fastRss = Math.max(...fast.map((run) => run.rssMB));
    for (const runtime of runtimes) {
      const warm = runs.get(entry.name)![runtime];
      const cold = coldOf(warm);
      const firstThree = firstThreeOf(warm);
      const primed = coldOf(runs.get(entry.name)![`${runtime}Primed`]);
      const lag = Math.max(...warm.map((run) => run.lagMs ?? 0));
      const cpuLag = Math.max(...warm.map((run) => run.cpuLagMs ?? 0));
      const stalls = warm.reduce((sum, run) => sum + (run.stalls ?? 0), 0);
      const ticks = warm.reduce((sum, run) => sum + (run.ticks ?? 0), 0);
      const rss = Math.max(...warm.map((run) => run.rssMB));
      const start = median(warm.map((run) => run.startMs ?? NaN));
      lines.push(
        `| ${entry.label} | ${runtime} | ${time(cold)} | ${time(firstThree)} | ${
          primed.length === 0 ? "—" : time(primed)
        } | ${time(warm)} | ${time(fast)} | ${ratio(cold, fast)} | ${ratio(firstThree, fast)} | ${
          primed.length === 0 ? "—" : ratio(primed, fast)
        } | ${ratio(warm, fast)} | ${
          ordered.length === 0
            ? "—"
            : `${time(ordered)} (${ratio(cold, ordered)} · ${ratio(firstThree, ordered)} · ${ratio(warm, ordered)})`
        } | ${time(classic)} (${ratio(warm, classic)}) | ${
          plain.length === 0
            ? "—"
            : `${floor.length === 0 ? "—" : seconds(cpu(floor))} · ${seconds(cpu(proc))} · ${seconds(cpu(plain))}`
        } | ${lag.toFixed(0)} ms (${cpuLag.toFixed(0)} ms); ${stalls} of ${ticks} | ${rss.toFixed(0)} MB / ${
          Number.isNaN(fastRss) ? "—" : `${fastRss.toFixed(0)} MB`
        } | ${seconds(start)} |`,
      );
    }
  }
  lines.push(
    "",
    "Paddock runs each case in its own process (`tree_case_run.mjs`, the built package loaded by the runtime itself,",
    "no TypeScript loader): start-up (import, openWorkspace, the tool made), then the first call (cold), then",
    `${WARM_CALLS} more (warm), each timed with its CPU (every thread of the process); lag, RSS: the worst call, the worst round.`,
    "Event-loop lag: the longest a 5 ms timer was late during a measured call, and (in brackets) the most CPU the",
    "process used between two of its ticks: the work done without giving the loop a turn; then how many ticks of all",
    "rounds were more than 50 ms late (one stall, or many).",
    "rg in Paddock's order: for a case with a limit, `rg --sort path` (one thread), whose first lines are the ones",
    "Paddock returns; plain rg's first 100 are whichever of its threads found first.",
    "Bare node:fs loop (`tree_floor.ts`, Node): only the system calls the case cannot do without, one thread, no",
    ".gitignore, no matching, no results: every file opened, fstat'ed, read and closed (grep), or every folder listed",
    "(find_files); openat reaches each name at its held folder's descriptor (libc's openat and getdents64), as Paddock",
    "does; /proc the same through `/proc/self/fd/<fd>/<name>`; plain paths are not race-free.",
  );
  return lines;
}

function runtimeVersion(runtime: PaddockRuntime): string {
  if (runtime === "node") return `Node ${process.version}`;
  const out = spawnSync(DENO, ["--version"], { encoding: "utf8" });
  return out.stdout.split("\n")[0].replace(/^deno /, "Deno ").replace(/ \(.*$/, "");
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function runPaddock(tree: string, entry: TreeCase, runtime: PaddockRuntime, pauseMs = 0): Promise<Run> {
  const script = path.join(HERE, "tree_case_run.mjs");
  const args = [script, DIST, tree, entry.tool, JSON.stringify(entry.args), String(WARM_CALLS), String(pauseMs)];
  const [program, argv] = runtime === "node" ? [process.execPath, args] : [DENO, ["run", "-A", ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(program, argv, { cwd: path.join(HERE, "../.."), stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`Paddock case ${entry.name} on ${runtime} failed (exit ${code})`));
      const last = out.trim().split("\n").pop() ?? "{}";
      resolve(JSON.parse(last) as Run);
    });
  });
}

function runFloor(tree: string, work: "read" | "list", route: "openat" | "proc" | "plain"): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [path.join(HERE, "tree_floor.ts"), tree, work, route], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`floor ${work} ${route} failed (exit ${code})`));
      resolve(JSON.parse(out.trim().split("\n").pop() ?? "{}") as Run);
    });
  });
}

// Runs a shell command in the tree, output read and dropped; exit 1 ("no match") is fine.
function runShell(tree: string, command: string): Promise<Run> {
  const timeFile = path.join(os.tmpdir(), `paddock-bench-time-${process.pid}`);
  const withTime = fs.existsSync("/usr/bin/time");
  const argv = withTime
    ? ["/usr/bin/time", "-f", "%M %U %S", "-o", timeFile, "sh", "-c", command]
    : ["sh", "-c", command];
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(argv[0], argv.slice(1), { cwd: tree, stdio: ["ignore", "pipe", "ignore"] });
    child.stdout.on("data", () => {});
    child.on("error", reject);
    child.on("close", () => {
      const ms = performance.now() - start;
      let rssMB = NaN;
      let cpuMs = NaN;
      if (withTime) {
        const [rss, user, system] = (fs.readFileSync(timeFile, "utf8").trim().split("\n").pop() ?? "").split(" ").map(
          Number,
        );
        rssMB = rss / 1024;
        cpuMs = (user + system) * 1000;
        fs.rmSync(timeFile, { force: true });
      }
      resolve({ ms, cpuMs, rssMB });
    });
  });
}

function hasProgram(name: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
}

function countFiles(tree: string): number {
  const out = spawnSync("sh", ["-c", "find . -name .git -prune -o -type f -print | wc -l"], {
    cwd: tree,
    encoding: "utf8",
  });
  return Number(out.stdout.trim());
}

// Run directly: `tsx scripts/bench/tree.ts <tree> [case…]`.
if (import.meta.url === `file://${process.argv[1]}`) {
  const [tree, ...names] = process.argv.slice(2);
  for (const line of await benchTree(tree, names.length > 0 ? { cases: names } : {})) console.log(line);
}
