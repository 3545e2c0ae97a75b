/**
 * Exhaustive single-swap enumeration: for one tool, count the host calls of
 * an undisturbed run (host and handle methods alike, see swap_at_call.ts),
 * then for every N in 1..count run the tool once with exactly one exchange of
 * the level's pair just before call N — left in place (`stay`) or undone just
 * before call N+1 (`swap-back`) — and judge each run as the race does.
 *
 * The exchange is synchronous, inside the wrapped host call: on disk through
 * the `swapper serve` child (`renameat2(RENAME_EXCHANGE)`), on the memory
 * host through its own API.
 *
 * @module
 */
import type { SwapMode } from "../helpers/swap_at_call.ts";
import { swapAtCall } from "../helpers/swap_at_call.ts";
import { emptyRow, type RowCounts, Session } from "./attempt.ts";
import type { HostUnderTest } from "./hosts.ts";
import type { Level } from "./race_fixture.ts";
import type { ToolCase } from "./race_tools.ts";
import { raceUnavailable } from "./run_race.ts";

/** A single-swap row: the race's counts, the mode, and the length of the undisturbed call sequence. */
export interface SingleSwapRow extends RowCounts {
  mode: SwapMode;
  /** Host calls of the undisturbed run (the N enumerated). */
  calls: number;
  /** Runs in which no swap was made (a name missing at call N, or fewer than N calls); still judged and counted. */
  swapImpossible: number;
}

/**
 * Enumerates every single swap of one tool at one level on one host.
 *
 * @throws {Error} When the undisturbed run itself fails a check (the fixture, not the tool, would be wrong).
 */
export async function singleSwapRow(
  host: HostUnderTest,
  toolCase: ToolCase,
  level: Level,
  mode: SwapMode,
): Promise<SingleSwapRow> {
  const unavailable = raceUnavailable(host);
  if (unavailable !== null) throw new Error(`Cannot swap on ${host.name}: ${unavailable}`);
  const session = await Session.open(host, toolCase, level, { wrap: true });
  const { fs } = session.fixture;
  const [a, b] = session.fixture.pair;
  const noop = { start: () => {}, end: () => {} };
  try {
    const undisturbed = emptyRow(host.name, toolCase.row, level);
    if (!(await session.attempt(undisturbed, noop))) {
      throw new Error(`The undisturbed run fails its checks: ${undisturbed.examples.join("; ")}`);
    }
    const calls = session.callsThisAttempt();
    const row: SingleSwapRow = { ...emptyRow(host.name, toolCase.row, level), mode, calls, swapImpossible: 0 };
    for (let n = 1; n <= calls; n++) {
      let identities: [number | undefined, number | undefined] = [undefined, undefined];
      let made = false;
      let failed = false;
      const exchange = () => {
        try {
          fs.exchange(a, b);
          return true;
        } catch {
          return false;
        }
      };
      const hook = swapAtCall(n, mode, () => {
        identities = [fs.lstat(a)?.ino, fs.lstat(b)?.ino];
        made = exchange();
        failed = !made;
        if (made) row.swaps++;
      }, () => {
        if (made && exchange()) made = false;
      });
      session.beforeCall = hook.beforeCall;
      await session.attempt(row, {
        start: () => {},
        end: () => {
          session.beforeCall = undefined;
          // Still crossed (stay mode, or no call N+1): swap back, unless a tool replaced one of the two.
          if (made && fs.lstat(a)?.ino === identities[1] && fs.lstat(b)?.ino === identities[0]) exchange();
        },
      });
      if (failed || !hook.state().swapped) row.swapImpossible++;
    }
    return row;
  } finally {
    session.close();
  }
}
