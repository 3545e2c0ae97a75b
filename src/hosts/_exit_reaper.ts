/**
 * Ends the process groups a host started when the host process itself ends
 * without closing its workspaces: on `exit` (a normal end, `process.exit`),
 * and on SIGTERM, SIGINT and SIGHUP. Children are spawned detached (their own
 * session, so a whole group can be killed), which also means nothing else
 * ends them with their parent.
 *
 * The listeners are there only while a group is alive. On a signal with no
 * other listener, the groups are killed, these listeners removed, and the
 * signal sent again, so the host still ends as it would have (by the signal);
 * when the program has listeners of its own, it decides whether to end, and
 * the groups are killed at its `exit`. What cannot be caught is not covered:
 * after a SIGKILL of the host (or a crash of the runtime) its unsandboxed
 * children keep running; the bubblewrap sandbox's `--die-with-parent` covers
 * that case for sandboxed commands.
 *
 * @module
 */
import process from "node:process";

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
type StopSignal = (typeof SIGNALS)[number];
const SIGNAL_NUMBERS: Record<StopSignal, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

const alive = new Set<() => void>();
let installed = false;

function killAll(): void {
  for (const kill of [...alive]) {
    try {
      kill();
    } catch {
      // Gone already.
    }
  }
  alive.clear();
}

function onExit(): void {
  killAll();
}

const onSignal: Record<StopSignal, () => void> = {
  SIGTERM: () => stopOn("SIGTERM"),
  SIGINT: () => stopOn("SIGINT"),
  SIGHUP: () => stopOn("SIGHUP"),
};

function stopOn(signal: StopSignal): void {
  // The program listens too: it decides whether to end, and its exit kills the groups.
  if (process.listenerCount(signal) > 1) return;
  killAll();
  uninstall();
  // End as the signal would have; where a runtime keeps the handler installed, exit with its code.
  try {
    process.kill(process.pid, signal);
  } catch {
    // Cannot signal oneself here: exit below.
  }
  setTimeout(() => process.exit(128 + SIGNAL_NUMBERS[signal]), 50);
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on("exit", onExit);
  for (const signal of SIGNALS) process.on(signal, onSignal[signal]);
}

function uninstall(): void {
  if (!installed) return;
  installed = false;
  process.off("exit", onExit);
  for (const signal of SIGNALS) process.off(signal, onSignal[signal]);
}

/** A place for one child's group, taken before the child is spawned. */
export type ReapSlot = {
  /** The child started: kill `kill`'s group when the host process ends, until `exited` settles. */
  track(kill: () => void, exited: Promise<unknown>): void;
  /** The spawn failed: nothing to kill. */
  release(): void;
};

const NO_SLOT: ReapSlot = { track: () => {}, release: () => {} };
let pending = 0;

function settle(): void {
  if (alive.size === 0 && pending === 0) uninstall();
}

/**
 * Takes a slot before a child is spawned, so the signal listeners are in place
 * before the child exists: a signal that arrives while the spawn is under way
 * (its handler runs once the synchronous spawn code has tracked the child)
 * still ends the child's group. Without this, a loaded host could run the
 * child, and the child its own children, before the listeners were added.
 *
 * @example
 * ```ts ignore
 * const slot = reserveReap();
 * const child = spawn(...); // detached
 * if (child.pid === undefined) slot.release();
 * else slot.track(() => process.kill(-child.pid, "SIGKILL"), exited);
 * ```
 */
export function reserveReap(): ReapSlot {
  // Windows has no process groups to kill at exit, and no such signals.
  if (process.platform === "win32") return NO_SLOT;
  pending++;
  install();
  let open = true;
  const close = (): boolean => {
    if (!open) return false;
    open = false;
    pending--;
    return true;
  };
  return {
    track(kill, exited) {
      if (!close()) return;
      alive.add(kill);
      const done = (): void => {
        alive.delete(kill);
        settle();
      };
      exited.then(done, done);
    },
    release() {
      if (close()) settle();
    },
  };
}
