import { abortError, WorkspaceError } from "../errors.ts";
import { OutputWindow } from "./output_window.ts";
import type { KeptOutput } from "./kept_output.ts";
import { notRunning, StdinQueue, type StdinQueueLimits, type StdinWritten } from "./stdin_queue.ts";

/** How a background process ended. */
export interface BackgroundExit {
  /** The exit code, or `null` when a signal ended it. */
  exitCode: number | null;
  /** The signal that ended it, or `null`. */
  signal: string | null;
}

/** Where a started process's output goes, chunk by chunk. */
export interface BackgroundSink {
  /** A chunk of standard output. */
  stdout(chunk: Uint8Array): void;
  /** A chunk of standard error. */
  stderr(chunk: Uint8Array): void;
}

/** A started process, as its launcher hands it over. */
export interface BackgroundControl {
  /** Writes to its stdin; `undefined` when it takes no input (a provider that only runs commands to the end). */
  write?: (data: Uint8Array) => Promise<void>;
  /** Ends its whole process group (SIGTERM, then SIGKILL after the launcher's grace). */
  kill: () => void;
  /** Resolves once it ended and its output was read to the end (and what it used was released). */
  ended: Promise<BackgroundExit>;
}

/** Starts one process, its output going to `sink`. */
export type BackgroundLauncher = (sink: BackgroundSink) => Promise<BackgroundControl>;

/** What a background process is, for listing. */
export interface BackgroundProcessInfo {
  /** Its id, as `process_output`, `process_input` and `process_kill` take it. */
  process_id: string;
  /** The tool that started it. */
  tool: string;
  /** The command line (shell) or a short description of the script (node_process). */
  command: string;
  /** `running`, or `exited` (its last output may still be unread). */
  status: "running" | "exited";
  /** When it started (ISO 8601). */
  started: string;
}

/** What `process_output` returns: the output since the last read, and how it ended once it has. */
export interface BackgroundOutput {
  /** The process. */
  process_id: string;
  /** `running`, or `exited` (then this was its last output, and the process is forgotten). */
  status: "running" | "exited";
  /** The exit code once exited (`null` while running or when a signal ended it). */
  exitCode: number | null;
  /** The signal that ended it, or `null`. */
  signal: string | null;
  /** Standard output printed since the last read: its start and end kept, the middle dropped (with a marker). */
  stdout: string;
  /** Standard error since the last read, bounded like `stdout`. */
  stderr: string;
  /** Whether bytes of stdout were dropped since the last read. */
  stdoutTruncated: boolean;
  /** Whether bytes of stderr were dropped since the last read. */
  stderrTruncated: boolean;
  /** Bytes of stdout dropped since the last read. */
  stdoutDroppedBytes: number;
  /** Bytes of stderr dropped since the last read. */
  stderrDroppedBytes: number;
  /** Whether its time limit ended it. */
  timedOut: boolean;
  /** Whether `process_kill` (or the workspace closing) ended it. */
  killed: boolean;
}

/** What {@link BackgroundProcess} is made of. */
export interface BackgroundProcessSpec {
  /** The tool that starts it. */
  tool: string;
  /** What the listing shows. */
  command: string;
  /** Bytes of stdout and of stderr kept between two reads, each. */
  maxOutputBytes: number;
  /** Milliseconds it may run before its group is killed. @default undefined (until it ends or is killed) */
  timeoutMs?: number;
  /** Rewrites output text before it is handed over (node_process hides its temp file's path). @default identity */
  sanitize?: (text: string) => string;
  /** The bounds of its stdin. @default PROCESS_INPUT_CHUNK_BYTES, PROCESS_INPUT_MAX_QUEUED_BYTES, PROCESS_INPUT_WAIT_MS */
  stdin?: StdinQueueLimits;
}

/**
 * One process running in the background: its output since the last read
 * (bounded, see {@link OutputWindow}), its stdin, and how it ended.
 */
export class BackgroundProcess {
  /** Its id. */
  readonly id: string;
  /** What it is. */
  readonly spec: BackgroundProcessSpec;
  /** When it started. */
  readonly started: Date = new Date();
  readonly #stdout: OutputWindow;
  readonly #stderr: OutputWindow;
  readonly #kept: KeptOutput | undefined;
  #control: BackgroundControl | undefined;
  #stdin: StdinQueue | undefined;
  #exit: BackgroundExit | undefined;
  #timedOut = false;
  #killed = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #waiters = new Set<() => void>();

  /**
   * Wraps one started process.
   *
   * @param id Its id.
   * @param spec What it is.
   * @param kept Where its whole output is kept too (for `process_output`'s pages and search). @default none
   */
  constructor(id: string, spec: BackgroundProcessSpec, kept?: KeptOutput) {
    this.id = id;
    this.spec = spec;
    this.#kept = kept;
    this.#stdout = new OutputWindow(spec.maxOutputBytes);
    this.#stderr = new OutputWindow(spec.maxOutputBytes);
  }

  /** The sink its launcher writes to. */
  get sink(): BackgroundSink {
    return {
      stdout: (chunk) => {
        this.#kept?.stdout.push(chunk);
        this.#push(this.#stdout, chunk);
      },
      stderr: (chunk) => {
        this.#kept?.stderr.push(chunk);
        this.#push(this.#stderr, chunk);
      },
    };
  }

  /** Whether it has ended. */
  get exited(): boolean {
    return this.#exit !== undefined;
  }

  /** Resolves once it ended. */
  get ended(): Promise<unknown> {
    return this.#control?.ended.catch(() => {}) ?? Promise.resolve();
  }

  /**
   * Takes over the started process.
   *
   * @param control What its launcher handed over.
   * @param onExit Called once it ended.
   */
  attach(control: BackgroundControl, onExit: () => void): void {
    this.#control = control;
    if (control.write !== undefined) this.#stdin = new StdinQueue(this.id, control.write, this.spec.stdin);
    if (this.spec.timeoutMs !== undefined) {
      this.#timer = setTimeout(() => {
        this.#timedOut = true;
        control.kill();
      }, this.spec.timeoutMs);
    }
    control.ended.then(
      (exit) => (this.#exit = exit),
      () => (this.#exit = { exitCode: null, signal: null }),
    ).finally(() => {
      this.#kept?.end(this.#exit ?? { exitCode: null, signal: null });
      clearTimeout(this.#timer);
      this.#wake();
      onExit();
    });
  }

  /** What the listing shows. */
  info(): BackgroundProcessInfo {
    return {
      process_id: this.id,
      tool: this.spec.tool,
      command: this.spec.command,
      status: this.exited ? "exited" : "running",
      started: this.started.toISOString(),
    };
  }

  /**
   * The output since the last read. With `waitMs`, waits until something new
   * is printed or the process ends, for at most that long.
   *
   * @param waitMs Milliseconds to wait for output while there is none.
   * @param signal Cancels the wait.
   * @returns The output, and the status.
   */
  async read(waitMs: number, signal?: AbortSignal): Promise<BackgroundOutput> {
    if (waitMs > 0 && !this.exited && !this.#stdout.pending && !this.#stderr.pending) {
      await new Promise<void>((resolve, reject) => {
        const done = (): void => {
          clearTimeout(timer);
          this.#waiters.delete(done);
          signal?.removeEventListener("abort", onAbort);
          resolve();
        };
        const onAbort = (): void => {
          done();
          reject(abortError(signal));
        };
        const timer = setTimeout(done, waitMs);
        this.#waiters.add(done);
        signal?.addEventListener("abort", onAbort, { once: true });
      });
    }
    const exit = this.#exit;
    const final = exit !== undefined;
    const sanitize = this.spec.sanitize ?? ((text: string) => text);
    const stdout = this.#stdout.take(final);
    const stderr = this.#stderr.take(final);
    return {
      process_id: this.id,
      status: final ? "exited" : "running",
      exitCode: exit?.exitCode ?? null,
      signal: exit?.signal ?? null,
      stdout: sanitize(stdout.text),
      stderr: sanitize(stderr.text),
      stdoutTruncated: stdout.droppedBytes > 0,
      stderrTruncated: stderr.droppedBytes > 0,
      stdoutDroppedBytes: stdout.droppedBytes,
      stderrDroppedBytes: stderr.droppedBytes,
      timedOut: this.#timedOut,
      killed: this.#killed,
    };
  }

  /** Bytes of input held for it now (see {@link StdinQueue.queuedBytes}). */
  get queuedInputBytes(): number {
    return this.#stdin?.queuedBytes ?? 0;
  }

  /**
   * Writes to its stdin, bounded in bytes queued and in time (see {@link StdinQueue}).
   *
   * @param data The bytes.
   * @param signal Cancels the wait.
   * @returns What was accepted, and what was not sent because it stopped reading.
   * @throws {WorkspaceError} `PROCESS_NOT_RUNNING` once it ended (or its stdin closed);
   *   `PROCESS_INPUT_UNSUPPORTED` when its launcher gives no stdin; `PROCESS_INPUT_BLOCKED` when it does not read.
   */
  async write(data: Uint8Array, signal?: AbortSignal): Promise<StdinWritten> {
    const stdin = this.#stdin;
    if (stdin === undefined) {
      throw new WorkspaceError("PROCESS_INPUT_UNSUPPORTED", `Cannot write to process ${this.id}: it takes no input`, {
        hint: "this shell provider runs commands to the end without stdin; pass the input in the command line",
      });
    }
    if (this.exited) throw notRunning(this.id);
    return await stdin.write(data, signal);
  }

  /** Ends its whole process group; resolves once it ended. */
  async kill(): Promise<void> {
    if (!this.exited) {
      this.#killed = true;
      this.#control?.kill();
    }
    await this.ended;
  }

  #push(window: OutputWindow, chunk: Uint8Array): void {
    window.push(chunk);
    this.#wake();
  }

  #wake(): void {
    for (const waiter of [...this.#waiters]) waiter();
  }
}
