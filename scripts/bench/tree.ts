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
  ms: number;
  /** CPU time (user + system) of the process and its children, ms: steadier than wall time on a loaded machine. */
  cpuMs: number;
  /** Peak resident memory of the process (and its children), MB. */
  rssMB: number;
  /** Longest event-loop stall, wall time (Paddock only), ms. */
  lagMs?: number;
  /** CPU time used between two timer ticks at most (Paddock only), ms. */
  cpuLagMs?: number;
}

/** Options of {@link benchTree}. */
export interface TreeBenchOptions {
  /** Rounds; each case's figures are medians over them. @default 3 */
  rounds?: number;
  /** Only the cases with these names. @default all */
  cases?: string[];
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** Whether this Node reaches libc's openat (the `koffi` package): then the floor has an openat row, Paddock's route. */
const OPENAT = libcAtRoute() === "openat";
const TSX = path.join(HERE, "../../node_modules/.bin/tsx");

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
  const fd = hasProgram("fd") ? "fd" : hasProgram("fdfind") ? "fdfind" : null;
  const missing = ["rg", "grep", "find"].filter((name) => !hasProgram(name));
  if (fd === null) missing.push("fd (fdfind)");
  if (missing.length > 0) throw new Error(`baselines not installed: ${missing.join(", ")}`);
  const runs = new Map<
    string,
    { paddock: Run[]; fast: Run[]; classic: Run[]; ordered: Run[]; floor: Run[]; proc: Run[]; plain: Run[] }
  >();
  for (const entry of cases) {
    runs.set(entry.name, { paddock: [], fast: [], classic: [], ordered: [], floor: [], proc: [], plain: [] });
  }
  for (let round = 0; round < rounds; round++) {
    for (const entry of cases) {
      const into = runs.get(entry.name)!;
      const sides: ("paddock" | "fast" | "classic" | "ordered" | "floor" | "proc" | "plain")[] = [
        "paddock",
        "fast",
        "classic",
      ];
      if (entry.ordered !== undefined) sides.push("ordered");
      if (entry.floor !== undefined) sides.push(...(OPENAT ? ["floor" as const] : []), "proc", "plain");
      const order = sides.map((_, i, all) => all[(i + round) % all.length]);
      for (const side of order) {
        process.stderr.write(`  round ${round + 1}/${rounds} ${entry.name} ${side}…\n`);
        if (side === "paddock") into.paddock.push(await runPaddock(tree, entry));
        else if (side === "floor" || side === "proc" || side === "plain") {
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
    `Tree: ${tree} (${countFiles(tree)} files); ${os.cpus().length} cores; medians of ${rounds}, interleaved.`,
    "",
    "Each time is wall (CPU: user + system). Ratios are Paddock's time over the other's, wall (CPU).",
    "",
    "| case | Paddock | ripgrep / fd | GNU grep / find | ÷ rg/fd | ÷ grep/find | rg in Paddock's order (÷) | bare node:fs loop, CPU: openat · /proc · plain paths | its CPU on 2 cores ÷ rg/fd: openat · plain | event-loop lag wall (CPU) | peak RSS Paddock / rg,fd |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
  ];
  for (const entry of cases) {
    const { paddock, fast, classic, ordered, floor, proc, plain } = runs.get(entry.name)!;
    const wall = (runs: Run[]) => median(runs.map((run) => run.ms));
    const cpu = (runs: Run[]) => median(runs.map((run) => run.cpuMs));
    const time = (runs: Run[]) => `${seconds(wall(runs))} (${seconds(cpu(runs))})`;
    // CPU below /usr/bin/time's 10 ms resolution gives no ratio.
    const ratio = (runs: Run[]) =>
      `${(wall(paddock) / wall(runs)).toFixed(2)}× (${
        cpu(runs) >= 10 ? `${(cpu(paddock) / cpu(runs)).toFixed(2)}×` : "—"
      })`;
    const lag = Math.max(...paddock.map((run) => run.lagMs ?? 0));
    const cpuLag = Math.max(...paddock.map((run) => run.cpuLagMs ?? 0));
    const rss = Math.max(...paddock.map((run) => run.rssMB));
    const fastRss = Math.max(...fast.map((run) => run.rssMB));
    lines.push(
      `| ${entry.label} | ${time(paddock)} | ${time(fast)} | ${time(classic)} | ${ratio(fast)} | ${ratio(classic)} | ${
        ordered.length === 0 ? "—" : `${time(ordered)} (${ratio(ordered)})`
      } | ${
        plain.length === 0
          ? "—"
          : `${floor.length === 0 ? "—" : seconds(cpu(floor))} · ${seconds(cpu(proc))} · ${seconds(cpu(plain))}`
      } | ${
        plain.length === 0
          ? "—"
          : `${floor.length === 0 ? "—" : `${(cpu(floor) / 2 / wall(fast)).toFixed(2)}×`} · ${
            (cpu(plain) / 2 / wall(fast)).toFixed(2)
          }×`
      } | ${lag.toFixed(0)} ms (${cpuLag.toFixed(0)} ms) | ${rss.toFixed(0)} MB / ${
        Number.isNaN(fastRss) ? "—" : `${fastRss.toFixed(0)} MB`
      } |`,
    );
  }
  lines.push(
    "",
    "Event-loop lag: the longest a 5 ms timer was late during the measured call, and (in brackets) the most CPU the",
    "process used between two of its ticks: the work done without giving the loop a turn (the worst round).",
    "rg in Paddock's order: for a case with a limit, `rg --sort path` (one thread), whose first lines are the ones",
    "Paddock returns; plain rg's first 100 are whichever of its threads found first.",
    "Bare node:fs loop (`tree_floor.ts`): only the system calls the case cannot do without, one thread, no .gitignore,",
    "no matching, no results: every file opened, fstat'ed, read and closed (grep), or every folder listed (find_files);",
    "openat reaches each name at its held folder's descriptor (libc's openat and getdents64), as Paddock does on Node and",
    "Bun; /proc the same through `/proc/self/fd/<fd>/<name>` (Paddock's route on Deno); plain paths are not race-free.",
    "Its CPU on 2 cores ÷ rg/fd: half that CPU over ripgrep's / fd's wall time, the best ratio a search in this",
    "runtime could reach with both cores busy all the time.",
  );
  return lines;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms.toFixed(0)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

function runPaddock(tree: string, entry: TreeCase): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [path.join(HERE, "tree_case.ts"), tree, entry.name], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`Paddock case ${entry.name} failed (exit ${code})`));
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
