// The adversary of issue 9, bounded: every tool × swap level × host of this
// runtime, each attempt run while another process (or, on the memory host,
// the host's own API between calls) swaps that level for a link to an outside
// folder. Nothing may escape: no outside byte or name in any result, nothing
// outside created, changed or deleted, nothing inside lost or half-written,
// no temp file left, no descriptor left open. `npm run test:race` runs the
// same driver at 10,000 attempts per tool per host.
//
// Red on the path-walking core (before issue 9's directory-handle seam): that
// is the adversary finding the escapes the issue describes. Do not relax it.
import { describe, expect, test } from "vitest";
import { failures } from "./race/attempt.ts";
import { hostsUnderTest } from "./race/hosts.ts";
import { LEVELS } from "./race/race_fixture.ts";
import { TOOL_CASES } from "./race/race_tools.ts";
import { describeRow, raceRow, raceUnavailable } from "./race/run_race.ts";

/**
 * Attempts per tool × level × host (60 per tool per host, on every runtime, in `npm run test:soak`;
 * `npm run test:race` runs 10,000); `PADDOCK_RACE_ATTEMPTS` overrides.
 */
const ATTEMPTS = Number(process.env.PADDOCK_RACE_ATTEMPTS ?? 15);

for (const host of hostsUnderTest()) {
  const unavailable = raceUnavailable(host);
  describe(`tools on the ${host.name} host while a folder is swapped for a link out`, () => {
    for (const toolCase of TOOL_CASES) {
      test.skipIf(unavailable !== null)(
        `${toolCase.row} lets nothing escape at any swap level${
          unavailable === null ? "" : ` (skipped: ${unavailable})`
        }`,
        async () => {
          const rows = [];
          for (const level of LEVELS) rows.push(await raceRow(host, toolCase, level, ATTEMPTS));
          const report = rows.map(describeRow).join("\n");
          expect(rows.map(failures), report).toEqual(LEVELS.map(() => 0));
        },
        300_000,
      );
    }
  });
}
