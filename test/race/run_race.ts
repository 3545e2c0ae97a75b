/**
 * The race driver: for each host × tool × swap level, runs the tool through
 * the public API while an adversary swaps that level with a link to the
 * outside, and counts what escaped (see {@link FailureCounts}).
 *
 * - On a disk host the adversary is `swapper loop` (`renameat2(RENAME_EXCHANGE)`
 *   as fast as it can), resumed for each call and paused after it.
 * - On the memory host no other process can reach the tree: the adversary
 *   exchanges the pair through the host's own API at random host calls (each
 *   with probability ½, a fixed seed), which is what a concurrent swapper
 *   looks like to a single-threaded host.
 *
 * Used by `test/race.test.ts` (a bounded run) and `scripts/race.ts` (≥ 10,000
 * attempts per tool per host, printed as tables).
 *
 * @module
 */
import { random } from "../helpers/random.ts";
import { SwapLoop, swapperBinary } from "../helpers/swapper.ts";
import { emptyRow, FAILURE_KEYS, failures, type RowCounts, Session } from "./attempt.ts";
import type { HostUnderTest } from "./hosts.ts";
import { type Level, LEVELS } from "./race_fixture.ts";
import { TOOL_CASES, type ToolCase } from "./race_tools.ts";

export { type RowCounts } from "./attempt.ts";

/** Why the race cannot run on `host` here, or `null` when it can. */
export function raceUnavailable(host: HostUnderTest): string | null {
  if (host.kind === "memory") return null;
  const binary = swapperBinary();
  return binary.ok ? null : binary.reason;
}

/**
 * Runs `attempts` attempts of one tool at one level on one host.
 *
 * @throws {Error} When the race cannot run there (see {@link raceUnavailable}).
 */
export async function raceRow(
  host: HostUnderTest,
  toolCase: ToolCase,
  level: Level,
  attempts: number,
): Promise<RowCounts> {
  const unavailable = raceUnavailable(host);
  if (unavailable !== null) throw new Error(`Cannot race on ${host.name}: ${unavailable}`);
  const row = emptyRow(host.name, toolCase.row, level);
  const session = await Session.open(host, toolCase, level);
  const [a, b] = session.fixture.pair;
  try {
    if (host.kind === "memory") {
      const next = random(0x5eed ^ attempts);
      let armed = false;
      let crossed = false;
      const exchange = () => {
        try {
          session.fixture.fs.exchange(a, b);
          crossed = !crossed;
          row.swaps++;
        } catch { /* a name is missing for now (the tool removed it); as ENOENT on disk */ }
      };
      session.beforeCall = () => {
        if (armed && next() < 0.5) exchange();
      };
      for (let i = 0; i < attempts; i++) {
        await session.attempt(row, {
          start: () => {
            armed = true;
          },
          end: () => {
            armed = false;
            if (crossed) exchange();
            crossed = false;
          },
        });
      }
    } else {
      const loop = SwapLoop.start(a, b);
      session.afterRebuild = () => loop.rebaseline();
      try {
        for (let i = 0; i < attempts; i++) {
          await session.attempt(row, {
            start: () => loop.resume(),
            end: () => {
              row.swaps = loop.pause().swaps;
            },
          });
        }
      } finally {
        loop.stop();
      }
    }
  } finally {
    session.close();
  }
  return row;
}

/** What to race. */
export interface RaceOptions {
  hosts: HostUnderTest[];
  /** Tool rows by name. @default every row of TOOL_CASES */
  tools?: readonly string[];
  /** @default all four */
  levels?: readonly Level[];
  /** Attempts per host × tool × level. */
  attemptsPerLevel: number;
  /** Called after each row. */
  onRow?: (row: RowCounts) => void;
}

/** Runs every requested host × tool × level; hosts the race cannot reach here are left out (see {@link raceUnavailable}). */
export async function runRace(options: RaceOptions): Promise<RowCounts[]> {
  const cases = TOOL_CASES.filter((toolCase) => options.tools === undefined || options.tools.includes(toolCase.row));
  const rows: RowCounts[] = [];
  for (const host of options.hosts) {
    if (raceUnavailable(host) !== null) continue;
    for (const toolCase of cases) {
      for (const level of options.levels ?? LEVELS) {
        const row = await raceRow(host, toolCase, level, options.attemptsPerLevel);
        rows.push(row);
        options.onRow?.(row);
      }
    }
  }
  return rows;
}

const SHORT: Record<string, string> = {
  outsideInResult: "out→result",
  outsideCreated: "out+",
  outsideChanged: "out~",
  outsideDeleted: "out-",
  outsideTouched: "out.mtime",
  insideLost: "in lost",
  insideHalfWritten: "in half",
  outsideBytesInside: "out→in",
  tempLeft: "tmp",
  descriptorLeaks: "fd",
  hung: "hung",
};

function table(header: string[], body: string[][]): string {
  const widths = header.map((cell, i) => Math.max(cell.length, ...body.map((line) => line[i].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < 3 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

/** Sums rows with the same key. */
function sumBy(rows: RowCounts[], key: (row: RowCounts) => string): Map<string, RowCounts> {
  const sums = new Map<string, RowCounts>();
  for (const row of rows) {
    const k = key(row);
    const sum = sums.get(k) ?? emptyRow(row.host, row.tool, row.level);
    sum.attempts += row.attempts;
    sum.ok += row.ok;
    sum.swaps += row.swaps;
    sum.rebuilds += row.rebuilds;
    sum.clean += row.clean;
    for (const failure of FAILURE_KEYS) sum[failure] += row[failure];
    for (const [code, n] of Object.entries(row.codes)) sum.codes[code] = (sum.codes[code] ?? 0) + n;
    sums.set(k, sum);
  }
  return sums;
}

/** The counts as text: one line per host × tool × level, then per tool × host (levels summed). */
export function formatRace(rows: RowCounts[]): string {
  const header = [
    "host",
    "tool",
    "level",
    "attempts",
    "ok",
    "failed",
    ...FAILURE_KEYS.map((key) => SHORT[key]),
    "swaps",
  ];
  const cells = (row: RowCounts, level: string) => [
    row.host,
    row.tool,
    level,
    String(row.attempts),
    String(row.ok),
    String(row.attempts - row.clean),
    ...FAILURE_KEYS.map((key) => String(row[key])),
    String(row.swaps),
  ];
  const detail = table(header, rows.map((row) => cells(row, row.level)));
  const summed = [...sumBy(rows, (row) => `${row.tool}\u0000${row.host}`).values()]
    .sort((x, y) => x.tool.localeCompare(y.tool) || x.host.localeCompare(y.host));
  const summary = table(header, summed.map((row) => cells(row, "all")));
  const hosts = [...new Set(rows.map((row) => row.host))];
  const tools = [...new Set(rows.map((row) => row.tool))];
  const byToolHost = sumBy(rows, (row) => `${row.tool}\u0000${row.host}`);
  const grid = table(
    ["tool", "", "", ...hosts.map((host) => `${host} failed/attempts`)],
    tools.map((tool) => [
      tool,
      "",
      "",
      ...hosts.map((host) => {
        const row = byToolHost.get(`${tool}\u0000${host}`);
        return row === undefined ? "—" : `${row.attempts - row.clean}/${row.attempts}`;
      }),
    ]),
  );
  return [
    "Per host × tool × level (failure columns count events; 'failed' counts attempts with any):",
    detail,
    "",
    "Per tool × host, levels summed:",
    summary,
    "",
    "Failed attempts per tool × host:",
    grid,
    "",
    `Legend: ${FAILURE_KEYS.map((key) => `${SHORT[key]} = ${key}`).join(", ")}`,
  ].join("\n");
}

/** A one-line account of a row's failures, for assertion messages. */
export function describeRow(row: RowCounts): string {
  const parts = FAILURE_KEYS.filter((key) => row[key] > 0).map((key) => `${key} ${row[key]}`);
  return `${row.host} ${row.tool} @${row.level}: ${row.attempts} attempts, ${row.ok} ok, ${row.swaps} swaps, ` +
    `${failures(row) === 0 ? "no failures" : parts.join(", ")}; codes ${JSON.stringify(row.codes)}` +
    (row.examples.length > 0 ? `\n  e.g. ${row.examples.join("\n  e.g. ")}` : "");
}
