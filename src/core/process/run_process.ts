import type { ByteReader, ExitStatus, Host, HostChild } from "../../host.ts";
import type { ShellExecResult, ShellOutputSink } from "../../shell_provider.ts";
import { abortError } from "../errors.ts";
import { PIPE_DRAIN_GRACE_MS } from "../limits.ts";
import { decodeUtf8Lenient, utf8BoundaryAtOrBefore } from "../text/utf8.ts";

/** How output beyond the limit is dropped. */
export type TruncationMode = "head" | "head-and-tail";

/** What {@link runProcess} runs and how it is bounded. */
export interface RunProcessRequest {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** Wall-clock limit; the whole process group is killed when it passes. */
  timeoutMs: number;
  /** Bytes kept of stdout, and of stderr, each. */
  maxOutputBytes: number;
  /** `head` keeps the start; `head-and-tail` keeps the start and the end. @default "head" */
  truncation?: TruncationMode;
  /** After a timeout or abort, how long to wait between SIGTERM and SIGKILL; 0 sends SIGKILL at once. @default 0 */
  killGraceMs?: number;
  /**
   * After the leader exits (and its group is killed), how long the output
   * pipes may stay open before they are closed: a process that left the group
   * (`setsid`) and holds them must not hang the call. @default 500
   */
  drainGraceMs?: number;
  signal?: AbortSignal;
  /** Receives every chunk as it is read, before the limit (the whole output, kept for `process_output`). @default none */
  output?: ShellOutputSink;
}

/** One captured output stream. */
export interface CapturedOutput {
  /** The kept text; cut only on UTF-8 character boundaries. */
  text: string;
  /** Whether bytes were dropped. */
  truncated: boolean;
  /** All bytes the stream carried. */
  totalBytes: number;
}

/** How a bounded run ended. Output is complete up to the limits in every case. */
export interface RunProcessResult {
  exitCode: number | null;
  signal: string | null;
  stdout: CapturedOutput;
  stderr: CapturedOutput;
  timedOut: boolean;
}

/** Marker placed between head and tail when `head-and-tail` drops the middle. */
export function omittedMarker(bytes: number): string {
  return `\n[… ${bytes} bytes omitted …]\n`;
}

// Keeps the first `limit` bytes (and, in head-and-tail mode, the last
// `limit / 2`), with flat memory whatever the stream's size.
class OutputCollector {
  private readonly head: Uint8Array[] = [];
  private headBytes = 0;
  private tail: Uint8Array = new Uint8Array(0);
  total = 0;

  constructor(private readonly limit: number, private readonly mode: TruncationMode) {}

  private get headLimit(): number {
    return this.mode === "head" ? this.limit : Math.ceil(this.limit / 2);
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    const room = this.headLimit + 1 - this.headBytes; // one byte more tells a cut from an exact fit
    if (room > 0) {
      const part = chunk.subarray(0, room);
      this.head.push(part.slice());
      this.headBytes += part.length;
      chunk = chunk.subarray(part.length);
    }
    if (this.mode === "head-and-tail" && chunk.length > 0) {
      const keep = this.limit - this.headLimit + 4; // a few bytes to realign on a character
      const joined = new Uint8Array(Math.min(keep, this.tail.length + chunk.length));
      const fromChunk = Math.min(chunk.length, joined.length);
      const fromTail = joined.length - fromChunk;
      joined.set(this.tail.subarray(this.tail.length - fromTail), 0);
      joined.set(chunk.subarray(chunk.length - fromChunk), fromTail);
      this.tail = joined;
    }
  }

  finish(): CapturedOutput {
    const head = concat(this.head, this.headBytes);
    if (this.total <= this.limit) {
      return {
        text: decodeUtf8Lenient(concat([head, this.tail], this.total).subarray(0, this.total)),
        truncated: false,
        totalBytes: this.total,
      };
    }
    const headCut = head.subarray(0, utf8BoundaryAtOrBefore(head, this.headLimit));
    if (this.mode === "head") {
      return { text: decodeUtf8Lenient(headCut), truncated: true, totalBytes: this.total };
    }
    // Skip continuation bytes at the start of the tail so it starts on a character.
    const tailLimit = this.limit - this.headLimit;
    let start = Math.max(0, this.tail.length - tailLimit);
    while (start < this.tail.length && (this.tail[start] & 0xc0) === 0x80) start++;
    const tail = this.tail.subarray(start);
    const omitted = this.total - headCut.length - tail.length;
    return {
      text: decodeUtf8Lenient(headCut) + omittedMarker(omitted) + decodeUtf8Lenient(tail),
      truncated: true,
      totalBytes: this.total,
    };
  }
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    const piece = part.subarray(0, Math.max(0, size - offset));
    out.set(piece, offset);
    offset += piece.length;
  }
  return out;
}

async function drain(reader: ByteReader, collector: OutputCollector, tee?: (chunk: Uint8Array) => void): Promise<void> {
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk === null) return;
      tee?.(chunk);
      collector.push(chunk);
    }
  } catch {
    // A stream torn down by a kill ends the capture; what was read is kept.
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Runs a program in its own process group with bounded time and output.
 * On timeout or abort the whole group is killed (grandchildren too); when the
 * leader exits the group is killed again, so leftovers holding the pipes die
 * and the call cannot hang; pipes held open by a process that left the group
 * are closed after `drainGraceMs`. A timeout resolves with `timedOut: true`; an abort
 * rejects with an AbortError once everything is cleaned up.
 *
 * @param host The host to spawn on.
 * @param request What to run and its bounds.
 * @returns Exit status and captured output.
 */
export async function runProcess(host: Host, request: RunProcessRequest): Promise<RunProcessResult> {
  const { signal, killGraceMs = 0, drainGraceMs = PIPE_DRAIN_GRACE_MS, truncation = "head" } = request;
  if (signal?.aborted) throw abortError(signal);
  const child: HostChild = await host.spawn({ argv: request.argv, cwd: request.cwd, env: request.env });
  const stdout = new OutputCollector(request.maxOutputBytes, truncation);
  const stderr = new OutputCollector(request.maxOutputBytes, truncation);
  let timedOut = false;
  let aborted = false;
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;

  const stop = (): void => {
    if (killGraceMs <= 0) {
      child.killGroup("SIGKILL");
      return;
    }
    child.killGroup("SIGTERM");
    graceTimer ??= setTimeout(() => child.killGroup("SIGKILL"), killGraceMs);
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, request.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    stop();
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  let status: ExitStatus;
  try {
    const exited = child.exited.then((exit) => {
      // The leader is gone; anything left in its group only holds the pipes open.
      child.killGroup("SIGKILL");
      // A process outside the group (it called setsid) may hold them still:
      // stop waiting for it after a grace; what was read is kept.
      drainTimer = setTimeout(() => {
        void child.stdout.cancel().catch(() => {});
        void child.stderr.cancel().catch(() => {});
      }, drainGraceMs);
      return exit;
    });
    const tee = request.output;
    [status] = await Promise.all([
      exited,
      drain(child.stdout, stdout, tee && ((chunk) => tee.stdout(chunk))),
      drain(child.stderr, stderr, tee && ((chunk) => tee.stderr(chunk))),
    ]);
  } finally {
    clearTimeout(timer);
    if (graceTimer !== undefined) clearTimeout(graceTimer);
    if (drainTimer !== undefined) clearTimeout(drainTimer);
    signal?.removeEventListener("abort", onAbort);
  }
  if (aborted) throw abortError(signal);
  return {
    exitCode: status.code,
    signal: status.signal,
    stdout: stdout.finish(),
    stderr: stderr.finish(),
    timedOut,
  };
}

/**
 * The flat result shape the process tools report (`exitCode`, `signal`,
 * `stdout`, `stderr`, the two truncation flags, `timedOut`).
 */
export function toExecResult(result: RunProcessResult): ShellExecResult {
  return {
    exitCode: result.exitCode,
    signal: result.signal,
    stdout: result.stdout.text,
    stderr: result.stderr.text,
    stdoutTruncated: result.stdout.truncated,
    stderrTruncated: result.stderr.truncated,
    timedOut: result.timedOut,
  };
}
