/**
 * Per-command overhead of `SandboxShell` on the container sandbox — a fresh
 * container per command, and one reused container (commands through exec) —
 * against bubblewrap and against the same `/bin/sh -c` run directly through
 * the host, for `true` and for 10 MB of output. No target: a container start
 * costs what the engine takes.
 *
 * Needs a Docker Engine on the socket and the image (`PADDOCK_SANDBOX_IMAGE`,
 * default `paddock/sandbox-node:local`; `bash ../shared/docker/setup-engine.sh up`
 * makes both); without them the suite is not measured and says why.
 *
 * Run: `node_modules/.bin/tsx scripts/bench/container.ts` (or `deno run -A`).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createAutoHost } from "../../src/hosts/auto.ts";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../../sandbox.ts";
import { measurePlainShell, PLAIN_SHELL_BASELINE } from "./measure_plain_shell.ts";
import { type BenchRow, measure } from "./row.ts";

const RUNS = 9;
const OUTPUT_LIMIT = 32_768;
const IMAGE = process.env.PADDOCK_SANDBOX_IMAGE ?? "paddock/sandbox-node:local";

/**
 * Measures each backend's time per command.
 *
 * @returns One row per backend and command: its median vs the unsandboxed median.
 * @throws {Error} When no engine answers or the image is missing (the suite is then not measured).
 */
export async function benchContainer(): Promise<BenchRow[]> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-bench-container-")));
  fs.chmodSync(dir, 0o777); // the container's user (uid 1000 for a root caller) writes nothing here, but may
  const host = createAutoHost();
  const fresh = new SubprocessSandbox({ image: IMAGE });
  const reused = new SubprocessSandbox({ image: IMAGE, reuse: true });
  const bubblewrap = new BubblewrapSandbox();
  try {
    await fresh.check().catch((error: Error) => {
      throw new Error(`no container engine to measure (${error.message})`);
    });
    const backends: Array<[string, SandboxShell | null]> = [
      ["container, fresh", new SandboxShell(fresh, { cwd: dir })],
      ["container, reused", new SandboxShell(reused, { cwd: dir })],
      ["bubblewrap", await bubblewrap.check().then(() => new SandboxShell(bubblewrap, { cwd: dir }), () => null)],
    ];
    const commands: Array<[string, string]> = [
      ["`true`", "true"],
      ["10 MB of output", "head -c 10485760 /dev/zero"],
    ];
    const rows: BenchRow[] = [];
    for (const [name, command] of commands) {
      const limits = { timeoutMs: 60_000, maxOutputBytes: OUTPUT_LIMIT };
      const baselineMs = await measurePlainShell(host, dir, command, limits, RUNS);
      for (const [backend, shell] of backends) {
        const paddockMs = shell === null
          ? Number.NaN
          : await measure(() => shell.exec({ command, ...limits }), RUNS, 2);
        rows.push({
          name: `SandboxShell (${backend}): ${name}`,
          paddockMs,
          baselineMs,
          baseline: shell === null ? "bubblewrap cannot run here" : PLAIN_SHELL_BASELINE,
        });
      }
    }
    return rows;
  } finally {
    await Promise.all([fresh.close(), reused.close(), bubblewrap.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].split("/").pop() ?? "")) {
  for (const row of await benchContainer()) {
    console.log(
      `${row.name}: ${row.paddockMs.toFixed(1)} ms vs ${row.baselineMs.toFixed(1)} ms (+${
        (row.paddockMs - row.baselineMs).toFixed(1)
      } ms)`,
    );
  }
}
