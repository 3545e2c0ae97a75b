/**
 * Load on `paddock mcp --http`: SESSIONS concurrent sessions (the TypeScript
 * SDK's StreamableHTTPClientTransport on loopback, one server with
 * `--root-per-session`), each making CALLS mixed calls one after another
 * (read_file, grep, edit_file over files of its own); the same load over
 * stdio beside it (SESSIONS `paddock mcp` processes, one client each). Per
 * call latency (p50, p99) and peak RSS (VmHWM: the server, or the stdio
 * processes summed). Every answer is checked: a call that fails, or shows
 * another session's marker, counts as lost or crossed.
 *
 * Run alone: `tsx scripts/bench/http_load.ts [SESSIONS] [CALLS]`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const FILES = 10;
const LINES = 200;
/** The SDK's own 60 s per request is too short for a p99 on a loaded two-core machine: a call over this is lost. */
const CALL_TIMEOUT_MS = 600_000;

/** What one transport's run measured. */
export interface LoadFigure {
  transport: string;
  sessions: number;
  calls: number;
  p50Ms: number;
  p99Ms: number;
  peakRssMb: number;
  lost: number;
  crossed: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

function peakRssKb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0].text;

/** One session's work: seed its files, then `calls` mixed calls, each answer checked for its own marker only. */
async function sessionWork(
  client: Client,
  calls: number,
  latencies: number[],
): Promise<{ lost: number; crossed: number }> {
  const marker = `session-${randomUUID()}`;
  let lost = 0;
  let crossed = 0;
  const body = (file: number) =>
    Array.from({ length: LINES }, (_, line) => `${marker} file ${file} line ${line} value 0`).join("\n") + "\n";
  for (let file = 0; file < FILES; file++) {
    await client.callTool({ name: "write_file", arguments: { path: `f${file}.txt`, content: body(file) } }, undefined, {
      timeout: CALL_TIMEOUT_MS,
    });
  }
  const values = new Array<number>(FILES).fill(0);
  const timed = async (name: string, args: Record<string, unknown>): Promise<string> => {
    const start = performance.now();
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: CALL_TIMEOUT_MS });
    latencies.push(performance.now() - start);
    if ((result as { isError?: boolean }).isError === true) lost++;
    const out = text(result);
    if (/session-[0-9a-f-]{36}/.test(out.replaceAll(marker, ""))) crossed++;
    return out;
  };
  for (let call = 0; call < calls; call++) {
    const file = call % FILES;
    switch (call % 3) {
      case 0: {
        const read = JSON.parse(await timed("read_file", { path: `f${file}.txt` }));
        if (!String(read.content).includes(`${marker} file ${file} line 7 value ${values[file]}`)) lost++;
        break;
      }
      case 1: {
        const found = JSON.parse(await timed("grep", { pattern: `file ${file} line 1[0-9] `, output_mode: "count" }));
        if (found.total !== 10) lost++;
        break;
      }
      default: {
        // An edit needs a read first (the stale-write guard): the read is part of the call's cost.
        await client.callTool({ name: "read_file", arguments: { path: `f${file}.txt` } }, undefined, {
          timeout: CALL_TIMEOUT_MS,
        });
        const edited = JSON.parse(
          await timed("edit_file", {
            path: `f${file}.txt`,
            old_string: `${marker} file ${file} line 7 value ${values[file]}\n`,
            new_string: `${marker} file ${file} line 7 value ${values[file] + 1}\n`,
          }),
        );
        if (edited.error !== undefined) lost++;
        else values[file]++;
      }
    }
  }
  return { lost, crossed };
}

async function runAll(
  clients: Client[],
  calls: number,
): Promise<{ latencies: number[]; lost: number; crossed: number }> {
  const latencies: number[] = [];
  const outcomes = await Promise.all(clients.map((client) => sessionWork(client, calls, latencies)));
  return {
    latencies: latencies.sort((a, b) => a - b),
    lost: outcomes.reduce((n, o) => n + o.lost, 0),
    crossed: outcomes.reduce((n, o) => n + o.crossed, 0),
  };
}

/** The figure of one transport's run: its latencies' p50 and p99, its peak RSS (`peakKb`, summed over its processes). */
function figureOf(
  transport: string,
  sessions: number,
  run: { latencies: number[]; lost: number; crossed: number },
  peakKb: number,
): LoadFigure {
  return {
    transport,
    sessions,
    calls: run.latencies.length,
    p50Ms: percentile(run.latencies, 0.5),
    p99Ms: percentile(run.latencies, 0.99),
    peakRssMb: peakKb / 1024,
    lost: run.lost,
    crossed: run.crossed,
  };
}

async function overHttp(sessions: number, calls: number): Promise<LoadFigure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-http-load-"));
  const token = randomUUID().replaceAll("-", "");
  fs.writeFileSync(path.join(dir, "token"), token);
  fs.mkdirSync(path.join(dir, "sessions"));
  const child: ChildProcess = spawn(process.execPath, [
    "--import",
    "tsx",
    path.join(REPO, "cli.ts"),
    "mcp",
    "--http",
    "127.0.0.1:0",
    "--root-per-session",
    path.join(dir, "sessions"),
    "--token-file",
    path.join(dir, "token"),
    "--node-process",
    "off",
  ], { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        err += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(err);
        if (match !== null) resolve(match[1]);
      });
      child.once("exit", () => reject(new Error(`the server exited: ${err}`)));
    });
    const clients = await Promise.all(Array.from({ length: sessions }, async () => {
      const client = new Client({ name: "paddock-load", version: "1" });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    }));
    const run = await runAll(clients, calls);
    const peak = peakRssKb(child.pid!);
    await Promise.all(clients.map((client) => client.close()));
    return figureOf("HTTP (1 server)", sessions, run, peak);
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("close", resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function overStdio(sessions: number, calls: number): Promise<LoadFigure> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-stdio-load-"));
  const transports: StdioClientTransport[] = [];
  try {
    const clients: Client[] = [];
    // Started a few at a time: fifty module loads at once on two cores would time out the handshake.
    for (let at = 0; at < sessions; at += 5) {
      clients.push(
        ...await Promise.all(Array.from({ length: Math.min(5, sessions - at) }, async (_, i) => {
          const root = path.join(dir, `s${at + i}`);
          fs.mkdirSync(root);
          const transport = new StdioClientTransport({
            command: process.execPath,
            args: ["--import", "tsx", path.join(REPO, "cli.ts"), "mcp", "--root", root, "--node-process", "off"],
            cwd: REPO,
            stderr: "ignore",
          });
          transports.push(transport);
          const client = new Client({ name: "paddock-load", version: "1" });
          await client.connect(transport);
          return client;
        })),
      );
    }
    const run = await runAll(clients, calls);
    const peak = transports.reduce((sum, transport) => sum + peakRssKb(transport.pid!), 0);
    await Promise.all(clients.map((client) => client.close()));
    return figureOf(`stdio (${sessions} processes)`, sessions, run, peak);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The load figure of `npm run bench`: lines of a small table.
 *
 * @param sessions Concurrent sessions. @default 50
 * @param calls Mixed calls per session. @default 100
 * @returns The table's lines.
 */
export async function benchHttpLoad(sessions = 50, calls = 100): Promise<string[]> {
  const figures: LoadFigure[] = [];
  const failures: string[] = [];
  for (const [label, run] of [["HTTP", overHttp], ["stdio", overStdio]] as const) {
    process.stderr.write(`  ${label}: ${sessions} sessions x ${calls} calls…\n`);
    try {
      figures.push(await run(sessions, calls));
    } catch (error) {
      failures.push(`${label}: not measured: ${(error as Error).message}`);
    }
  }
  const header = ["transport", "sessions", "calls", "p50", "p99", "peak RSS", "lost", "crossed"];
  const rows = figures.map((f) => [
    f.transport,
    String(f.sessions),
    String(f.calls),
    `${f.p50Ms.toFixed(2)} ms`,
    `${f.p99Ms.toFixed(2)} ms`,
    `${f.peakRssMb.toFixed(0)} MB`,
    String(f.lost),
    String(f.crossed),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join("  ");
  return [
    `MCP under load: ${sessions} concurrent sessions x ${calls} mixed calls (read_file, grep, edit_file) on loopback, Node`,
    line(header),
    line(widths.map((w) => "-".repeat(w))),
    ...rows.map(line),
    ...failures,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [sessions, calls] = process.argv.slice(2).map(Number);
  for (const line of await benchHttpLoad(sessions || undefined, calls || undefined)) console.log(line);
}
