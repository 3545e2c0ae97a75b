/**
 * One runtime's part of `npm run test:race`: races every tool × level on the
 * hosts of the runtime running this file and prints the rows as one JSON
 * line per row (prefixed `ROW `), for scripts/race.ts to tabulate.
 *
 * Arguments: `--attempts N` (per tool and host, spread over the four levels),
 * `--tools a,b` (rows by name), `--memory` (also the memory host), `--hosts
 * handles|paths|all` (the probed route, the fallback, or both; default handles), `--host-names a,b`
 * (only those hosts, e.g. `node,node-mcp`).
 */
import { hostsUnderTest } from "../test/race/hosts.ts";
import { LEVELS } from "../test/race/race_fixture.ts";
import { raceUnavailable, runRace } from "../test/race/run_race.ts";

const args = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const attempts = Number(option("attempts") ?? 10_000);
const tools = option("tools")?.split(",");
// `--hosts handles` (default): the hosts on their probed route; `paths`: the same hosts on the fallback; `all`.
const which = option("hosts") ?? "handles";
const hosts = hostsUnderTest({ memory: args.includes("--memory"), fallback: which !== "handles" })
  .filter((host) => which === "all" || (which === "paths") === (host.confinement === "paths"))
  .filter((host) => option("host-names") === undefined || option("host-names")!.split(",").includes(host.name));
for (const host of hosts) {
  const unavailable = raceUnavailable(host);
  if (unavailable !== null) console.log(`SKIP ${JSON.stringify({ host: host.name, reason: unavailable })}`);
}
await runRace({
  hosts,
  tools,
  attemptsPerLevel: Math.ceil(attempts / LEVELS.length),
  onRow: (row) => console.log(`ROW ${JSON.stringify(row)}`),
});
