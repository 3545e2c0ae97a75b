/**
 * `npm run test:race`: the adversary of issue 9 at full size. Runs
 * scripts/race_entry.ts under Node (tsx), Deno (`deno run -A`) and Bun in
 * turn — each races every tool × swap level on its own hosts — and prints
 * the counts per host × tool × level, per tool × host, and a grid.
 *
 * Options: `--attempts N` per tool per host, spread over the four levels
 * (default 10,000); `--tools a,b` to race only those rows; `--runtimes
 * node,deno,bun` (default all three; the memory host runs once, under Node);
 * `--hosts handles|paths|all`: the hosts on their probed route (default), on
 * the path-walk fallback, or both; `--host-names a,b` for only those hosts.
 * Not part of `npm test`.
 *
 * Wall time, measured on a 2-core machine shared with other work (load
 * average 7–12), fixture on /dev/shm: the default 10,000 attempts per tool
 * per host took 42 min for all six hosts (Node 1,120 s for node + node-mcp +
 * memory, Deno 733 s, Bun 678 s for bun + bun-mcp), 4–7 ms per attempt;
 * `--attempts 1000` took 6.9 min. Use `--attempts` or `--runtimes` for less.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import type { RowCounts } from "../test/race/attempt.ts";
import { formatRace } from "../test/race/run_race.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.dirname(here);
const bin = path.join(repo, "node_modules", ".bin");
const entry = path.join(here, "race_entry.ts");

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const attempts = option("attempts") ?? "10000";
const tools = option("tools");
const runtimes = (option("runtimes") ?? "node,deno,bun").split(",");
const hostRoute = option("hosts") ?? "handles";
const hostNames = option("host-names");

const commands: Record<string, string[]> = {
  node: [path.join(bin, "tsx"), entry, "--memory"],
  deno: [path.join(bin, "deno"), "run", "-A", entry],
  bun: [path.join(bin, "bun"), entry],
};

function run(runtime: string): Promise<{ rows: RowCounts[]; skipped: string[] }> {
  const [command, ...rest] = commands[runtime];
  const argv = [
    ...rest,
    "--attempts",
    attempts,
    "--hosts",
    hostRoute,
    ...(hostNames === undefined ? [] : ["--host-names", hostNames]),
    ...(tools === undefined ? [] : ["--tools", tools]),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: repo, stdio: ["ignore", "pipe", "inherit"] });
    const rows: RowCounts[] = [];
    const skipped: string[] = [];
    let buffered = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith("ROW ")) {
          const row = JSON.parse(line.slice(4)) as RowCounts;
          rows.push(row);
          const failed = row.attempts - row.clean;
          console.error(`  ${row.host} ${row.tool} @${row.level}: ${failed}/${row.attempts} attempts failed`);
        } else if (line.startsWith("SKIP ")) skipped.push(line.slice(5));
        else if (line.trim() !== "") console.error(line);
      }
    });
    child.on("error", reject);
    child.on(
      "exit",
      (code) => (code === 0 ? resolve({ rows, skipped }) : reject(new Error(`${runtime} exited with ${code}`))),
    );
  });
}

const started = Date.now();
const all: RowCounts[] = [];
const notes: string[] = [];
for (const runtime of runtimes) {
  const t = Date.now();
  console.error(`== ${runtime}: ${attempts} attempts per tool per host`);
  try {
    const { rows, skipped } = await run(runtime);
    all.push(...rows);
    notes.push(...skipped.map((skip) => `${runtime}: skipped ${skip}`));
  } catch (error) {
    notes.push(`${runtime}: ${(error as Error).message}`);
  }
  notes.push(`${runtime}: ${((Date.now() - t) / 1000).toFixed(0)} s`);
}
console.log(formatRace(all));
console.log("");
for (const note of notes) console.log(note);
console.log(`total wall time: ${((Date.now() - started) / 60_000).toFixed(1)} min`);
const failedAttempts = all.reduce((sum, row) => sum + row.attempts - row.clean, 0);
process.exitCode = failedAttempts === 0 && notes.every((note) => !note.includes("exited")) ? 0 : 1;
