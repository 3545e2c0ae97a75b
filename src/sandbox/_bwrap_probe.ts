// Finding bwrap and running the short commands of its probe.
import * as fs from "node:fs";
import * as path from "node:path";
import { SANDBOX_PROBE_TIMEOUT_MS } from "../core/limits.ts";
import { runProcess } from "../core/process/run_process.ts";
import type { Host } from "../host.ts";

// Enough of `bwrap --help` and of a probe's error to read; not a user-facing limit.
const SANDBOX_PROBE_OUTPUT_BYTES = 16_384;

// Characters of bwrap's complaint quoted in a message.
const SHOWN_REASON_CHARS = 200;

// One line of bwrap's complaint, with host paths replaced (messages never hold them).
export function reasonOf(stderr: string): string {
  const line = stderr.split("\n").map((text) => text.trim()).find((text) => text.length > 0) ?? "no message";
  return line.replace(/^bwrap:\s*/, "").replace(/\/[^\s:'"]*/g, "<path>").slice(0, SHOWN_REASON_CHARS);
}

// Runs a short probe command through the host (Deno's node-compat
// child_process rewrites some argument lists, its native spawn does not);
// rejects only when it cannot be started at all.
export async function run(
  host: Host,
  argv: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const result = await runProcess(host, {
    argv,
    cwd: "/",
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: SANDBOX_PROBE_TIMEOUT_MS,
    maxOutputBytes: SANDBOX_PROBE_OUTPUT_BYTES,
  });
  return { code: result.exitCode, stdout: result.stdout.text, stderr: result.stderr.text };
}

export function isExecutableFile(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

export function findOnPath(name: string): string | undefined {
  let pathVariable = "";
  try {
    pathVariable = process.env.PATH ?? "";
  } catch {
    // Deno without --allow-env: look in the usual places only.
  }
  const dirs = pathVariable.split(":").filter((dir) => dir.startsWith("/"));
  for (const dir of [...dirs, "/usr/bin", "/usr/local/bin", "/bin"]) {
    const candidate = path.join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
