// Exhaustive single-swap enumeration (issue 9): for each tool, the host calls
// of an undisturbed run are counted (host and handle methods alike); then for
// every N the tool runs once with one swap of a level's pair just before call
// N, left in place or undone before call N+1, on every host of this runtime.
// Each run is judged as the race judges it (nothing out in the result, nothing
// outside touched, nothing inside lost, no temp file, no descriptor left open).
// Red on the path-walking core (before issue 9's directory-handle seam).
// A soak: `npm run test:soak` runs it (SOAK_FILES in vitest.config.ts), not `npm test`.
import { describe, expect, test } from "vitest";
import { SWAP_MODES } from "./helpers/swap_at_call.ts";
import { FAILURE_KEYS, type FailureCounts, failures } from "./race/attempt.ts";
import { runtime } from "./helpers/runtime.ts";
import { hostsUnderTest } from "./race/hosts.ts";
import { LEVELS } from "./race/race_fixture.ts";
import { TOOL_CASES } from "./race/race_tools.ts";
import { describeRow, raceUnavailable } from "./race/run_race.ts";
import { singleSwapRow } from "./race/run_single_swaps.ts";

// The fallback (`…-paths` hosts, the path walk; its code is the same core on
// every runtime, so it runs under Node only) must survive every single swap that
// is left in place without touching anything outside or leaking anything into a
// result; what it may still do is written in the README and asserted here as
// such: make an entry outside for an instant and remove it again (an outside
// folder's mtime moves), and leave an entry under a temp name in a folder the
// adversary moved away. A swap that is swapped back between two of its checks
// is its documented remainder, so that mode is reported, not asserted.
const FALLBACK_GUARANTEES: readonly (keyof FailureCounts)[] = FAILURE_KEYS.filter((key) =>
  key !== "outsideTouched" && key !== "tempLeft" && key !== "insideLost"
);

for (const host of hostsUnderTest({ fallback: runtime === "node" })) {
  const unavailable = raceUnavailable(host);
  const fallback = host.confinement === "paths";
  describe(`tools on the ${host.name} host with one swap at each host call`, () => {
    for (const toolCase of TOOL_CASES) {
      test.skipIf(unavailable !== null)(
        (fallback
          ? `${toolCase.row} survives every single swap left in place at every level with nothing outside changed`
          : `${toolCase.row} survives every single swap at every level, left in place or swapped back`) +
          (unavailable === null ? "" : ` (skipped: ${unavailable})`),
        async () => {
          const rows = [];
          for (const level of LEVELS) {
            for (const mode of SWAP_MODES) rows.push(await singleSwapRow(host, toolCase, level, mode));
          }
          const report = rows.map((row) => `[${row.mode}, ${row.calls} calls] ${describeRow(row)}`).join("\n");
          if (!fallback) expect(rows.map(failures), report).toEqual(rows.map(() => 0));
          else {
            const stay = rows.filter((row) => row.mode === "stay");
            const broken = stay.flatMap((row) =>
              FALLBACK_GUARANTEES.filter((key) => row[key] > 0).map((key) => `${row.level}: ${key}`)
            );
            expect(broken, report).toEqual([]);
          }
        },
        300_000,
      );
    }
  });
}
