/**
 * Per-command overhead of `SandboxShell` (bubblewrap, network "none") against
 * the same `/bin/sh -c` run directly through the host (process group, bounded
 * output), for `true` and for 10 MB of output. Target: ≤ 30 ms added.
 *
 * Run: `node_modules/.bin/tsx scripts/bench/sandbox.ts` (or `deno run -A`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAutoHost } from "../../src/hosts/auto.ts";
import { BubblewrapSandbox, SandboxShell } from "../../sandbox.ts";
import { measurePlainShell, PLAIN_SHELL_BASELINE } from "./measure_plain_shell.ts";
import { type BenchRow, measure } from "./row.ts";

const RUNS = 15;
const OUTPUT_LIMIT = 32_768;

/**
 * Measures the sandbox's added time per command.
 *
 * @returns One row per command: sandboxed median vs plain median.
 */
export async function benchSandbox(): Promise<BenchRow[]> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-bench-sandbox-")));
  const host = createAutoHost();
  const sandbox = new BubblewrapSandbox();
  const shell = new SandboxShell(sandbox, { cwd: dir });
  const commands: Array<[string, string]> = [
    ["shell `true`", "true"],
    ["shell, 10 MB of output", "head -c 10485760 /dev/zero"],
  ];
  const rows: BenchRow[] = [];
  try {
    for (const [name, command] of commands) {
      const limits = { timeoutMs: 30_000, maxOutputBytes: OUTPUT_LIMIT };
      const paddockMs = await measure(() => shell.exec({ command, ...limits }), RUNS, 2);
      const baselineMs = await measurePlainShell(host, dir, command, limits, RUNS);
      rows.push({
        name: `SandboxShell (bubblewrap): ${name}`,
        paddockMs,
        baselineMs,
        baseline: PLAIN_SHELL_BASELINE,
      });
    }
  } finally {
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
  for (const row of await benchSandbox()) {
    console.log(
      `${row.name}: ${row.paddockMs} ms vs ${row.baselineMs} ms (+${
        Math.round((row.paddockMs - row.baselineMs) * 10) / 10
      } ms)`,
    );
  }
}
