import type { ByteReader, HostChild } from "../../host.ts";
import { PIPE_DRAIN_GRACE_MS } from "../limits.ts";
import type { BackgroundControl, BackgroundSink } from "./background_process.ts";

/** Options of {@link backgroundChild}. */
export interface BackgroundChildOptions {
  /** Milliseconds between SIGTERM and SIGKILL when it is killed; 0 sends SIGKILL at once. */
  killGraceMs: number;
  /** After the leader exits, how long pipes held by a process that left the group may stay open. @default 500 */
  drainGraceMs?: number;
  /** Releases what the launch set up (a sandbox's files, a temp script); run once it ended. @default none */
  cleanup?: () => Promise<void>;
}

/**
 * Runs a spawned child in the background the way foreground commands run
 * (see `runProcess`): its output is read as it comes into `sink`; when the
 * leader exits its group is killed, so leftovers holding the pipes die;
 * pipes held by a process that left the group are closed after a grace.
 * Killing it sends SIGTERM to the whole group, then SIGKILL.
 *
 * @param child The child, spawned in its own process group (stdin a pipe to take input).
 * @param sink Where its output goes.
 * @param options The kill grace, the drain grace and the cleanup.
 * @returns Its control.
 */
export function backgroundChild(
  child: HostChild,
  sink: BackgroundSink,
  options: BackgroundChildOptions,
): BackgroundControl {
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  let drainTimer: ReturnType<typeof setTimeout> | undefined;
  const exited = child.exited.then((exit) => {
    // The leader is gone; anything left in its group only holds the pipes open.
    child.killGroup("SIGKILL");
    drainTimer = setTimeout(() => {
      void child.stdout.cancel().catch(() => {});
      void child.stderr.cancel().catch(() => {});
    }, options.drainGraceMs ?? PIPE_DRAIN_GRACE_MS);
    return exit;
  });
  const ended = Promise.all([exited, drain(child.stdout, sink.stdout), drain(child.stderr, sink.stderr)])
    .then(async ([exit]) => {
      clearTimeout(drainTimer);
      clearTimeout(graceTimer);
      await child.stdin?.close().catch(() => {});
      await options.cleanup?.().catch(() => {});
      return { exitCode: exit.code, signal: exit.signal };
    });
  const stdin = child.stdin;
  return {
    ...(stdin === undefined ? {} : { write: (data: Uint8Array) => stdin.write(data) }),
    kill: () => {
      if (options.killGraceMs <= 0) return child.killGroup("SIGKILL");
      child.killGroup("SIGTERM");
      graceTimer ??= setTimeout(() => child.killGroup("SIGKILL"), options.killGraceMs);
    },
    ended,
  };
}

async function drain(reader: ByteReader, push: (chunk: Uint8Array) => void): Promise<void> {
  try {
    for (;;) {
      const chunk = await reader.read();
      if (chunk === null) return;
      push(chunk);
    }
  } catch {
    // A stream torn down by a kill ends the capture; what was read is kept.
  } finally {
    await reader.cancel().catch(() => {});
  }
}
