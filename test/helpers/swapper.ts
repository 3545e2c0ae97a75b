/**
 * The race adversary, driven from TypeScript: `swapper.c` compiled with `cc`
 * once per process, then used three ways.
 *
 * - {@link exchangeSync}: one atomic exchange of two names, synchronously (for
 *   the single-swap harness, which swaps inside a host call). It talks to a
 *   `swapper serve` child over two FIFOs, so a swap costs microseconds, not a
 *   process spawn.
 * - {@link SwapLoop}: `swapper loop`, exchanging as fast as it can while a
 *   tool runs, paused and resumed by signals between attempts.
 * - {@link swapperBinary}: the compiled program, or why there is none (no
 *   Linux, no `cc`, a filesystem without `RENAME_EXCHANGE`): callers skip with
 *   that reason.
 *
 * Test code only: `node:child_process` runs under Deno and Bun through their
 * Node compatibility.
 *
 * @module
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";

/** The compiled swapper, or the reason there is none. */
export type SwapperBinary = { ok: true; path: string } | { ok: false; reason: string };

const SOURCE = fileURLToPath(new URL("./swapper.c", import.meta.url));

/** How long to wait for the swapper to answer before failing the test instead of hanging. */
const ANSWER_TIMEOUT_MS = 15_000;

let compiled: SwapperBinary | undefined;

/**
 * Compiles `swapper.c` (once per process) and proves `RENAME_EXCHANGE` works
 * by swapping a folder and a link. The binary is kept in
 * `<tmp>/paddock-swapper-<uid>-<source hash>/`, a folder only this user may
 * write, so test processes share one build instead of each leaving its own
 * (vitest ends its workers without running exit handlers).
 */
export function swapperBinary(): SwapperBinary {
  compiled ??= compile();
  return compiled;
}

function buildFolder(source: Buffer): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : -1;
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const dir = path.join(os.tmpdir(), `paddock-swapper-${uid}-${hash}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as { code?: string }).code !== "EEXIST") throw error;
  }
  const stat = fs.lstatSync(dir);
  // Someone else's folder, or one others may write, is not trusted: build in a private one instead.
  if (!stat.isDirectory() || (uid >= 0 && stat.uid !== uid) || (stat.mode & 0o022) !== 0) {
    const own = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-swapper-"));
    process.on("exit", () => fs.rmSync(own, { recursive: true, force: true }));
    return own;
  }
  return dir;
}

function compile(): SwapperBinary {
  if (process.platform !== "linux") {
    return { ok: false, reason: `renameat2(RENAME_EXCHANGE) is Linux-only; this is ${process.platform}` };
  }
  const dir = buildFolder(fs.readFileSync(SOURCE));
  const binary = path.join(dir, "swapper");
  if (!fs.existsSync(binary)) {
    // Built under a private name, then renamed into place: concurrent builders never see half a binary.
    const building = path.join(dir, `swapper.${process.pid}.${Date.now()}`);
    try {
      execFileSync("cc", ["-O2", "-o", building, SOURCE], { stdio: ["ignore", "ignore", "pipe"] });
      fs.renameSync(building, binary);
    } catch (error) {
      fs.rmSync(building, { force: true });
      const detail = (error as { code?: string }).code === "ENOENT"
        ? "no C compiler (`cc` is not on PATH)"
        : `cc failed: ${String((error as { stderr?: unknown }).stderr ?? error).trim()}`;
      return { ok: false, reason: `the swapper cannot be built: ${detail}` };
    }
  }
  const probe = fs.mkdtempSync(path.join(dir, "probe-"));
  const a = path.join(probe, "folder");
  const b = path.join(probe, "link");
  try {
    fs.mkdirSync(a);
    fs.symlinkSync(a, b);
    try {
      execFileSync(binary, ["once", a, b], { stdio: ["ignore", "ignore", "pipe"] });
    } catch (error) {
      const detail = String((error as { stderr?: unknown }).stderr ?? error).trim();
      return { ok: false, reason: `renameat2(RENAME_EXCHANGE) fails in ${os.tmpdir()}: ${detail}` };
    }
    if (!fs.lstatSync(a).isSymbolicLink() || !fs.lstatSync(b).isDirectory()) {
      return { ok: false, reason: "renameat2(RENAME_EXCHANGE) reported success but did not exchange the names" };
    }
  } finally {
    fs.rmSync(probe, { recursive: true, force: true });
  }
  return { ok: true, path: binary };
}

function requireBinary(): string {
  const binary = swapperBinary();
  if (!binary.ok) throw new Error(`Cannot swap: ${binary.reason}`);
  return binary.path;
}

// ---------------------------------------------------------------------------
// One synchronous exchange, through a `swapper serve` child.

interface SwapServer {
  command: number;
  ack: number;
  child: ChildProcess;
}

let server: SwapServer | undefined;

function startServer(binary: string): SwapServer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-swapper-fifo-"));
  const commandPath = path.join(dir, "command");
  const ackPath = path.join(dir, "ack");
  execFileSync(binary, ["mkfifo", commandPath, ackPath]);
  const child = spawn(binary, ["serve", commandPath, ackPath], { stdio: ["ignore", "ignore", "inherit"] });
  child.unref();
  // The child blocks opening the command FIFO for reading; a non-blocking
  // writer open fails with ENXIO until it is there (or has died).
  const deadline = Date.now() + ANSWER_TIMEOUT_MS;
  let command: number | undefined;
  while (command === undefined) {
    try {
      command = fs.openSync(commandPath, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENXIO" || Date.now() > deadline || child.exitCode !== null) {
        throw new Error("Cannot start the swap server: it did not open its command FIFO", { cause: error });
      }
    }
  }
  // It is alive and opens the ack FIFO next; this blocking open meets it.
  const ack = fs.openSync(ackPath, "r");
  fs.rmSync(dir, { recursive: true, force: true });
  process.on("exit", () => {
    try {
      fs.closeSync(command);
    } catch { /* already closed */ }
  });
  return { command, ack, child };
}

const ackBuffer = new Uint8Array(64);

/**
 * Exchanges the names `a` and `b` atomically (`renameat2(RENAME_EXCHANGE)`),
 * synchronously: when it returns, the swap has happened.
 *
 * @throws {Error} With the errno name when the exchange fails (`ENOENT` when a name is missing).
 */
export function exchangeSync(a: string, b: string): void {
  if (a.includes("\t") || a.includes("\n") || b.includes("\t") || b.includes("\n")) {
    throw new Error("Cannot swap: a path holds a tab or a newline");
  }
  server ??= startServer(requireBinary());
  fs.writeSync(server.command, `${a}\t${b}\n`);
  let answer = "";
  while (!answer.endsWith("\n")) {
    const read = fs.readSync(server.ack, ackBuffer, 0, ackBuffer.length, null);
    if (read === 0) throw new Error("Cannot swap: the swap server exited");
    answer += new TextDecoder().decode(ackBuffer.subarray(0, read));
  }
  const errno = Number(answer.trim());
  if (errno !== 0) {
    const name = Object.entries(os.constants.errno).find(([, value]) => value === errno)?.[0] ?? `errno ${errno}`;
    throw Object.assign(new Error(`Cannot swap ${a} and ${b}: ${name}`), { code: name });
  }
}

// ---------------------------------------------------------------------------
// The loop.

/** What the loop reports when paused or stopped. */
export interface SwapLoopCounts {
  /** Exchanges that succeeded since the loop started (always even when reported). */
  swaps: number;
  /** Exchanges that failed (a name missing for a while, …). */
  failures: number;
  /**
   * Whether the pair is in its original orientation: `original` (as the
   * parity promises), `restored` (it was not, and one exchange put it back),
   * or `disturbed` (something else replaced or removed one of the names).
   */
  orientation: "original" | "restored" | "disturbed";
}

interface Identity {
  dev: number;
  ino: number;
}

function identityOf(at: string): Identity | null {
  try {
    const stat = fs.lstatSync(at);
    return { dev: stat.dev, ino: stat.ino };
  } catch {
    return null;
  }
}

const same = (x: Identity | null, y: Identity | null): boolean =>
  x !== null && y !== null && x.dev === y.dev && x.ino === y.ino;

/**
 * `swapper loop a b`: exchanges the two names as fast as it can between
 * {@link SwapLoop.resume} and {@link SwapLoop.pause}. It starts paused. Every
 * pause and stop leaves the pair in its original orientation: the swapper
 * makes its count even, and this side checks both names' identities and
 * exchanges once more if they are still crossed.
 *
 * Pausing is synchronous: the swapper answers on a FIFO read with `readSync`
 * (a pipe read through the event loop costs ~3 ms per answer on Deno).
 */
export class SwapLoop {
  readonly a: string;
  readonly b: string;
  private readonly child: ChildProcess;
  private readonly events: number;
  private buffered = "";
  private running = false;
  private stopped = false;
  private original: [Identity | null, Identity | null];

  private constructor(child: ChildProcess, events: number, a: string, b: string) {
    this.child = child;
    this.events = events;
    this.a = a;
    this.b = b;
    this.original = [identityOf(a), identityOf(b)];
  }

  /**
   * Starts the loop over `a` and `b` (both should exist; a missing name only
   * makes exchanges fail until it is back) and waits until it is ready, paused.
   *
   * @param max Stop after this many exchanges (0: until stopped). @default 0
   */
  static start(a: string, b: string, max = 0): SwapLoop {
    const binary = requireBinary();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-swapper-events-"));
    const eventsPath = path.join(dir, "events");
    execFileSync(binary, ["mkfifo", eventsPath]);
    // A non-blocking reader opens at once; the child's writer open then succeeds too.
    const events = fs.openSync(eventsPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    const child = spawn(binary, ["loop", a, b, String(max), eventsPath], { stdio: ["ignore", "ignore", "inherit"] });
    child.unref();
    const loop = new SwapLoop(child, events, a, b);
    try {
      loop.answer("paused", true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    return loop;
  }

  /** Records the pair's current identities as the original orientation (after rebuilding it while paused). */
  rebaseline(): void {
    this.original = [identityOf(this.a), identityOf(this.b)];
  }

  /** Lets the loop run. */
  resume(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.signal("SIGUSR2");
  }

  /** Stops the exchanges until {@link resume}; returns once the pair is back in its original orientation. */
  pause(): SwapLoopCounts {
    if (this.running) {
      this.running = false;
      this.signal("SIGUSR1");
      this.answer("paused");
    }
    return { ...this.last, orientation: this.orient() };
  }

  /** Ends the loop; returns once it has said so, with the pair in its original orientation. */
  stop(): SwapLoopCounts {
    if (!this.stopped) {
      this.stopped = true;
      this.signal("SIGTERM");
      try {
        this.answer("stopped");
      } finally {
        fs.closeSync(this.events);
      }
    }
    return { ...this.last, orientation: this.orient() };
  }

  private last: { swaps: number; failures: number } = { swaps: 0, failures: 0 };

  // process.kill, not child.kill: Deno's ChildProcess.kill sends only the first signal of a child's life.
  private signal(name: "SIGUSR1" | "SIGUSR2" | "SIGTERM"): void {
    process.kill(this.child.pid!, name);
  }

  private orient(): SwapLoopCounts["orientation"] {
    const [a0, b0] = this.original;
    const a1 = identityOf(this.a);
    const b1 = identityOf(this.b);
    if (same(a0, a1) && same(b0, b1)) return "original";
    if (same(a0, b1) && same(b0, a1)) {
      exchangeSync(this.a, this.b);
      return "restored";
    }
    return "disturbed";
  }

  /** Reads event lines until one starts with `word` (spinning on the non-blocking FIFO, with a deadline). */
  private answer(word: "paused" | "stopped", starting = false): void {
    const deadline = Date.now() + ANSWER_TIMEOUT_MS;
    const chunk = new Uint8Array(256);
    let spins = 0;
    for (;;) {
      let newline: number;
      while ((newline = this.buffered.indexOf("\n")) >= 0) {
        const [said, swaps, failures] = this.buffered.slice(0, newline).split(" ");
        this.buffered = this.buffered.slice(newline + 1);
        if (said === word) {
          this.last = { swaps: Number(swaps), failures: Number(failures) };
          return;
        }
      }
      let read = -1; // -1: nothing yet (EAGAIN)
      try {
        read = fs.readSync(this.events, chunk, 0, chunk.length, null);
      } catch (error) {
        if ((error as { code?: string }).code !== "EAGAIN") throw error;
      }
      if (read > 0) {
        this.buffered += new TextDecoder().decode(chunk.subarray(0, read));
        continue;
      }
      // 0 before the child has opened its end is "no writer yet"; after, it is the child gone.
      if (read === 0 && !starting) {
        throw new Error(`The swapper exited before saying "${word}"`);
      }
      if (Date.now() > deadline) throw new Error(`The swapper did not say "${word}" in time`);
      // Spin briefly, then sleep in small steps: on a loaded machine the swapper needs the CPU to answer.
      if (++spins > 50) Atomics.wait(SLEEPER, 0, 0, 0.1);
    }
  }
}

const SLEEPER = new Int32Array(new SharedArrayBuffer(4));
