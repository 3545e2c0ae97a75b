import { abortError, WorkspaceError } from "../errors.ts";
import { PROCESS_INPUT_CHUNK_BYTES, PROCESS_INPUT_MAX_QUEUED_BYTES, PROCESS_INPUT_WAIT_MS } from "../limits.ts";
import { utf8BoundaryAtOrBefore } from "../text/utf8.ts";

/** What one {@link StdinQueue.write} did. */
export interface StdinWritten {
  /** Bytes accepted: taken by the process's stdin, or (at most one piece) handed to it and taken when it reads. */
  bytes: number;
  /** Bytes of the text not sent, because the process stopped reading in time; 0 when all was sent. */
  unsentBytes: number;
}

/** The bounds of a {@link StdinQueue}. */
export interface StdinQueueLimits {
  /** Bytes handed to the pipe and not yet taken, at most. @default PROCESS_INPUT_CHUNK_BYTES */
  chunkBytes?: number;
  /** Bytes held by calls writing or waiting their turn, at most. @default PROCESS_INPUT_MAX_QUEUED_BYTES */
  maxQueuedBytes?: number;
  /** Milliseconds one call waits (its turn included). @default PROCESS_INPUT_WAIT_MS */
  waitMs?: number;
}

/**
 * The stdin of one background process, bounded in bytes and in time: calls
 * write in arrival order, one at a time, in pieces of at most `chunkBytes`
 * (cut on UTF-8 characters), each handed over once the last was taken. A call
 * returns when its text was taken, or when its time ran out: then it reports
 * what was accepted and what was not sent; a call that got nothing accepted
 * (the pipe still holds an earlier piece the process never took, or the
 * calls before it hold too much) is `PROCESS_INPUT_BLOCKED`. So a process
 * that never reads holds at most one piece in its pipe's queue, calls hold at
 * most `maxQueuedBytes`, and none waits longer than `waitMs`.
 */
export class StdinQueue {
  readonly #id: string;
  readonly #write: (data: Uint8Array) => Promise<void>;
  readonly #chunkBytes: number;
  readonly #maxQueued: number;
  readonly #waitMs: number;
  #held = 0;
  #inFlight = 0;
  #stalled = false;
  #turn: Promise<void> = Promise.resolve();

  /**
   * Wraps a stdin writer.
   *
   * @param id The process's id, for messages.
   * @param write Writes to its stdin; resolves once the bytes were taken.
   * @param limits The bounds.
   */
  constructor(id: string, write: (data: Uint8Array) => Promise<void>, limits: StdinQueueLimits = {}) {
    this.#id = id;
    this.#write = write;
    this.#chunkBytes = Math.max(4, limits.chunkBytes ?? PROCESS_INPUT_CHUNK_BYTES);
    this.#maxQueued = limits.maxQueuedBytes ?? PROCESS_INPUT_MAX_QUEUED_BYTES;
    this.#waitMs = limits.waitMs ?? PROCESS_INPUT_WAIT_MS;
  }

  /** Bytes held now: by calls writing or waiting their turn, and a piece the process has not taken. */
  get queuedBytes(): number {
    return this.#held + (this.#stalled ? this.#inFlight : 0);
  }

  /** Bytes handed to the pipe and not yet taken (at most `chunkBytes`). */
  get inFlightBytes(): number {
    return this.#inFlight;
  }

  /**
   * Writes `data`, bounded as the class says.
   *
   * @param data The bytes.
   * @param signal Cancels the wait (what was handed over stays handed over).
   * @returns What was accepted and what was not sent.
   * @throws {WorkspaceError} `PROCESS_INPUT_BLOCKED` when nothing was accepted; `PROCESS_NOT_RUNNING` when the pipe closed.
   */
  async write(data: Uint8Array, signal?: AbortSignal): Promise<StdinWritten> {
    if (signal?.aborted) throw abortError(signal);
    // 1. Refuse at once what cannot be queued: the pipe is stuck, or the waiting calls hold too much.
    if (this.#stalled) throw this.#blocked(`${this.#inFlight} bytes sent earlier were not taken yet`);
    if (this.#held + data.length > this.#maxQueued) {
      throw this.#blocked(`calls waiting to write to it hold ${this.#held} bytes already`);
    }
    if (data.length === 0) return { bytes: 0, unsentBytes: 0 };
    // 2. Take a place in line, and start the clock (the wait for the turn counts).
    this.#held += data.length;
    const previous = this.#turn;
    let release = (): void => {};
    this.#turn = new Promise<void>((resolve) => release = resolve);
    const deadline = timeLimit(this.#waitMs, signal);
    try {
      if (await deadline.race(previous) === "late") return this.#late(signal, 0, data.length);
      if (this.#stalled) throw this.#blocked(`${this.#inFlight} bytes sent earlier were not taken yet`);
      // 3. Hand the text over piece by piece, each once the last was taken.
      let written = 0;
      while (written < data.length) {
        const piece = data.subarray(written, pieceEnd(data, written, this.#chunkBytes));
        this.#inFlight = piece.length;
        const taken = this.#write(piece).then(() => {
          this.#inFlight = 0;
          this.#stalled = false;
        });
        let outcome;
        try {
          outcome = await deadline.race(taken);
        } catch (error) {
          this.#inFlight = 0;
          throw notRunning(this.#id, error);
        }
        if (outcome === "late") {
          // 4. It stopped reading: the piece stays handed over (it arrives when it reads); the rest is not sent.
          this.#stalled = true;
          taken.catch(() => (this.#inFlight = 0, this.#stalled = false));
          return this.#late(signal, written + piece.length, data.length);
        }
        written += piece.length;
      }
      return { bytes: written, unsentBytes: 0 };
    } finally {
      deadline.clear();
      this.#held -= data.length;
      release();
    }
  }

  #late(signal: AbortSignal | undefined, accepted: number, size: number): StdinWritten {
    if (signal?.aborted) throw abortError(signal);
    if (accepted === 0) throw this.#blocked(`nothing of the text could be written within ${this.#waitMs} ms`);
    return { bytes: accepted, unsentBytes: size - accepted };
  }

  #blocked(why: string): WorkspaceError {
    return new WorkspaceError(
      "PROCESS_INPUT_BLOCKED",
      `Cannot write to process ${this.#id}: it is not reading its stdin (${why})`,
      {
        hint:
          "nothing of this text was sent; read process_output to see what it waits for, send the text again once it reads, or end it with process_kill",
      },
    );
  }
}

/** The error for a stdin that closed: the process ended. */
export function notRunning(id: string, cause?: unknown): WorkspaceError {
  return new WorkspaceError("PROCESS_NOT_RUNNING", `Cannot write to process ${id}: it has ended`, {
    hint: "read its last output with process_output",
    cause,
  });
}

// The end of the piece starting at `start`: at most `size` bytes, cut before a character's first byte.
function pieceEnd(data: Uint8Array, start: number, size: number): number {
  if (start + size >= data.length) return data.length;
  const end = start + utf8BoundaryAtOrBefore(data.subarray(start), size);
  return end > start ? end : start + size;
}

interface TimeLimit {
  /** Resolves with "done" when `work` settles first (rejecting as it does), "late" when the time or the signal ends first. */
  race(work: Promise<void>): Promise<"done" | "late">;
  clear(): void;
}

function timeLimit(ms: number, signal: AbortSignal | undefined): TimeLimit {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort = (): void => {};
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), ms);
    onAbort = () => resolve("late");
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  return {
    race: (work) => Promise.race([work.then(() => "done" as const), late]),
    clear: () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    },
  };
}
