// Exhaustive single-swap enumeration (issue 9): for each tool, the host calls
// of an undisturbed run are counted (host and handle methods alike); then for
// every N the tool runs once with one swap of a level's pair just before call
// N, left in place or undone before call N+1, on every host of this runtime.
// Each run is judged as the race judges it (nothing out in the result, nothing
// outside touched, nothing inside lost, no temp file, no descriptor left open).
// Red on the path-walking core (before issue 9's directory-handle seam).
import { describe, expect, test } from "vitest";
import { SWAP_MODES } from "./helpers/swap_at_call.ts";
import { failures } from "./race/attempt.ts";
import { hostsUnderTest } from "./race/hosts.ts";
import { LEVELS } from "./race/race_fixture.ts";
import { TOOL_CASES } from "./race/race_tools.ts";
import { describeRow, raceUnavailable } from "./race/run_race.ts";
import { singleSwapRow } from "./race/run_single_swaps.ts";

for (const host of hostsUnderTest()) {
  const unavailable = raceUnavailable(host);
  describe(`tools on the ${host.name} host with one swap at each host call`, () => {
    for (const toolCase of TOOL_CASES) {
      test.skipIf(unavailable !== null)(
        `${toolCase.row} survives every single swap at every level, left in place or swapped back` +
          (unavailable === null ? "" : ` (skipped: ${unavailable})`),
        async () => {
          const rows = [];
          for (const level of LEVELS) {
            for (const mode of SWAP_MODES) rows.push(await singleSwapRow(host, toolCase, level, mode));
          }
          const report = rows.map((row) => `[${row.mode}, ${row.calls} calls] ${describeRow(row)}`).join("\n");
          expect(rows.map(failures), report).toEqual(rows.map(() => 0));
        },
        300_000,
      );
    }
  });
}
