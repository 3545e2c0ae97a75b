import * as fs from "node:fs";
import { onDeno, runtime } from "./runtime.ts";

/** Sets a variable in the parent's environment, on every runtime (Deno keeps its own copy). */
export function setEnv(name: string, value: string): void {
  if (onDeno) {
    (globalThis as unknown as { Deno: { env: { set(n: string, v: string): void } } }).Deno.env.set(name, value);
  }
  process.env[name] = value;
}

/** Removes a variable set by {@link setEnv}. */
export function deleteEnv(name: string): void {
  if (onDeno) (globalThis as unknown as { Deno: { env: { delete(n: string): void } } }).Deno.env.delete(name);
  delete process.env[name];
}

/** Whether a process is alive and not a zombie (the container's init may not reap orphans at once). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return !fs.existsSync("/proc/self/stat"); // no /proc: trust kill(0)
  }
}

/** Kills a process, ignoring one that is already gone. */
export function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` every 20 ms until it holds; throws after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms (${runtime})`);
    await sleep(20);
  }
}

/** The error `promise` rejects with; throws if it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** Pids of processes whose command line is exactly `argv` (Linux /proc). */
export function pidsRunning(argv: string[]): number[] {
  const wanted = argv.join("\0");
  const found: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").replace(/\0$/, "") === wanted && isAlive(Number(entry))) {
        found.push(Number(entry));
      }
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
