/**
 * One session of the adversary — a fixture, a workspace on one host and one
 * tool — and one attempt in it: run the tool once while something swaps,
 * then judge everything the tests ask for, and rebuild the fixture
 * after any damage. Shared by the race driver and the single-swap harness.
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Host } from "../../host.ts";
import { type AnyTool, createCodingTools, openWorkspace } from "../../mod.ts";
import { openDescriptorsUnder } from "../helpers/held_descriptors.ts";
import { type CallLog, wrapHost } from "../helpers/swap_at_call.ts";
import { DISK_FS, type FixtureFs, memoryFs } from "./fixture_fs.ts";
import type { HostUnderTest } from "./hosts.ts";
import {
  buildFixture,
  describeFixture,
  diffTrees,
  fContent,
  type Level,
  MARKER,
  noDifference,
  pairIntact,
  type RaceFixture,
  snapshotTree,
  tempFiles,
  type TreeSnapshot,
} from "./race_fixture.ts";
import { type AttemptState, insideAsBuilt, judgeInside, type ToolCase } from "./race_tools.ts";

/**
 * Where disk fixtures go: `PADDOCK_RACE_DIR` if set, else `/dev/shm` when it
 * is a writable folder (tmpfs: the tools' fsyncs cost nothing there, so the
 * race spends its time racing; `renameat2(RENAME_EXCHANGE)` and the
 * `/proc/self/fd` route behave as on ext4), else the system temp folder.
 */
export function raceTempRoot(): string {
  const configured = process.env.PADDOCK_RACE_DIR;
  if (configured !== undefined && configured !== "") return configured;
  try {
    fs.accessSync("/dev/shm", fs.constants.W_OK);
    if (fs.statSync("/dev/shm").isDirectory()) return "/dev/shm";
  } catch { /* not there */ }
  return os.tmpdir();
}

/** How long one tool call may take before it counts as hung. */
export const ATTEMPT_TIMEOUT_MS = 10_000;

/** What went wrong, counted per attempt (an attempt can count in several). All must be 0. */
export interface FailureCounts {
  /** The marker (outside content or an outside name) appeared in the tool's result or error. */
  outsideInResult: number;
  /** Entries created below `outside/`. */
  outsideCreated: number;
  /** Entries below `outside/` whose kind, size, mode, content or link target changed. */
  outsideChanged: number;
  /** Entries deleted below `outside/`. */
  outsideDeleted: number;
  /** Outside folders whose mtime moved with the same listing (something was made there and removed). */
  outsideTouched: number;
  /** Inside files gone that the tool was not asked to remove. */
  insideLost: number;
  /** Inside files holding neither the old nor the new content. */
  insideHalfWritten: number;
  /** Inside files holding outside bytes. */
  outsideBytesInside: number;
  /** `.paddock-tmp-*` entries left anywhere below the fixture. */
  tempLeft: number;
  /** Descriptors under the fixture open after the call that were not before (disk), or handles never closed (memory). */
  descriptorLeaks: number;
  /** Calls that had not settled after {@link ATTEMPT_TIMEOUT_MS}. */
  hung: number;
}

/** The failure counters, in report order. */
export const FAILURE_KEYS: readonly (keyof FailureCounts)[] = [
  "outsideInResult",
  "outsideCreated",
  "outsideChanged",
  "outsideDeleted",
  "outsideTouched",
  "insideLost",
  "insideHalfWritten",
  "outsideBytesInside",
  "tempLeft",
  "descriptorLeaks",
  "hung",
];

/** Everything counted for one host × tool × level. */
export interface RowCounts extends FailureCounts {
  host: string;
  tool: string;
  level: Level;
  attempts: number;
  /** Calls that succeeded. */
  ok: number;
  /** Error codes of the calls that failed, with counts. */
  codes: Record<string, number>;
  /** Exchanges the adversary made. */
  swaps: number;
  /** Times the fixture was rebuilt (after damage, or after a tool replaced the swapped-in link). */
  rebuilds: number;
  /** Attempts whose every failure counter stayed 0. */
  clean: number;
  /** A few examples of failures, for the report. */
  examples: string[];
}

/** An empty row. */
export function emptyRow(host: string, tool: string, level: Level): RowCounts {
  const row = { host, tool, level, attempts: 0, ok: 0, codes: {}, swaps: 0, rebuilds: 0, clean: 0, examples: [] };
  return Object.assign(row, Object.fromEntries(FAILURE_KEYS.map((key) => [key, 0])) as unknown as FailureCounts);
}

/** The sum of a row's failure counters. */
export const failures = (row: FailureCounts): number => FAILURE_KEYS.reduce((sum, key) => sum + row[key], 0);

/** How a session's host is reached. */
export interface SessionOptions {
  /** Put the host behind the counting proxy (always for the memory host). @default false */
  wrap?: boolean;
  /** Called before every host call when wrapped: `n` counts from 1 at the start of each attempt. */
  beforeCall?: (n: number, name: string) => void;
}

/** One fixture, workspace and tool on one host, for one level. */
export class Session {
  readonly hostUnderTest: HostUnderTest;
  readonly toolCase: ToolCase;
  readonly fixture: RaceFixture;
  readonly log: CallLog | undefined;
  /** Called before each host call (wrapped hosts only); set per attempt. */
  beforeCall: ((n: number, name: string) => void) | undefined;
  /** Called after every rebuild (the race's swap loop records the new identities). */
  afterRebuild: (() => void) | undefined;
  state: AttemptState = { f: "A" };
  private readonly host: Host;
  private baseline: TreeSnapshot;
  private tool!: AnyTool;
  private tools: AnyTool[] = [];
  private callsAtStart = 0;
  private readonly cleanupBase: () => void;

  private constructor(hostUnderTest: HostUnderTest, toolCase: ToolCase, level: Level, options: SessionOptions) {
    this.hostUnderTest = hostUnderTest;
    this.toolCase = toolCase;
    let raw: Host;
    let fixtureFs: FixtureFs;
    let base: string;
    if (hostUnderTest.kind === "memory") {
      const memory = hostUnderTest.create();
      raw = memory;
      fixtureFs = memoryFs(memory, hostUnderTest.exchange);
      base = "/race";
      memory.mkdirSync(base);
      this.cleanupBase = () => {};
    } else {
      raw = hostUnderTest.create();
      fixtureFs = DISK_FS;
      base = fs.realpathSync(fs.mkdtempSync(path.join(raceTempRoot(), "paddock-race-")));
      this.cleanupBase = () => fs.rmSync(base, { recursive: true, force: true });
    }
    this.fixture = describeFixture(fixtureFs, base, level, toolCase.target);
    if (options.wrap || hostUnderTest.kind === "memory") {
      const wrapped = wrapHost(raw, {
        beforeCall: (n, name) => this.beforeCall?.(n - this.callsAtStart, name),
      });
      this.host = wrapped.host;
      this.log = wrapped.log;
    } else {
      this.host = raw;
    }
    buildFixture(this.fixture);
    this.baseline = snapshotTree(fixtureFs, this.fixture.outside);
  }

  /** Builds the fixture and opens the workspace. */
  static async open(hostUnderTest: HostUnderTest, toolCase: ToolCase, level: Level, options: SessionOptions = {}) {
    const session = new Session(hostUnderTest, toolCase, level, options);
    await session.reopen();
    return session;
  }

  private async reopen(): Promise<void> {
    const workspace = await openWorkspace(this.fixture.ws, {
      host: this.host,
      ...(this.hostUnderTest.confinement === undefined ? {} : { confinement: this.hostUnderTest.confinement }),
    });
    // The race measures confinement: without the stale-write guard, a write over a file this session
    // never read goes ahead (with it, every write_file, edit_file and apply_patch attempt would be refused).
    const options = { staleWriteGuard: false, ...this.toolCase.codingTools };
    this.tools = createCodingTools(workspace, options);
    const tool = this.tools.find((candidate) => candidate.name === this.toolCase.tool);
    if (tool === undefined) throw new Error(`No tool named ${this.toolCase.tool}`);
    this.tool = tool;
  }

  /** Rebuilds the fixture from scratch (f.txt in the current state) and reopens the workspace. */
  async rebuild(): Promise<void> {
    buildFixture(this.fixture, fContent(this.state.f));
    this.baseline = snapshotTree(this.fixture.fs, this.fixture.outside);
    this.afterRebuild?.();
    await this.reopen();
  }

  /** Host calls made since the current attempt began (wrapped hosts only). */
  callsThisAttempt(): number {
    return (this.log?.calls ?? 0) - this.callsAtStart;
  }

  private openCount(): number | null {
    return this.log !== undefined && this.hostUnderTest.kind === "memory"
      ? this.log.unclosedHandles()
      : openDescriptorsUnder(this.fixture.base);
  }

  /**
   * One attempt: run the tool once between `around.start()` and
   * `around.end()` (which must leave the swap pair in its original
   * orientation), then judge it into `row`. Rebuilds the fixture when the
   * attempt left anything but the fixture as built.
   *
   * @returns Whether the attempt was clean.
   */
  async attempt(row: RowCounts, around: { start(): void; end(): void }): Promise<boolean> {
    const fixture = this.fixture;
    await this.toolCase.setUp?.(this.tools, this.state);
    const before = this.openCount();
    const args = this.toolCase.args(this.state);
    const allowed = this.toolCase.allowed(this.state);
    this.callsAtStart = this.log?.calls ?? 0;
    let outcome: { ok: true; value: unknown } | { ok: false; error: unknown } | { hung: true };
    around.start();
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const hung = new Promise<{ hung: true }>((resolve) => {
        timer = setTimeout(() => resolve({ hung: true }), ATTEMPT_TIMEOUT_MS);
      });
      outcome = await Promise.race([
        this.tool.execute(args).then(
          (value) => ({ ok: true as const, value }),
          (error) => ({ ok: false as const, error }),
        ),
        hung,
      ]);
      clearTimeout(timer);
    } finally {
      around.end();
    }
    const after = this.openCount();
    row.attempts++;
    const failed: string[] = [];
    const count = (key: keyof FailureCounts, n: number, what: string) => {
      if (n <= 0) return;
      row[key] += n;
      failed.push(`${key}: ${what}`);
    };
    let shown: string;
    if ("hung" in outcome) {
      count("hung", 1, `${this.toolCase.row} did not settle`);
      shown = "";
    } else if (outcome.ok) {
      row.ok++;
      shown = JSON.stringify(outcome.value) ?? "";
    } else {
      const error = outcome.error as { code?: unknown; message?: unknown };
      const code = typeof error?.code === "string" ? error.code : (error as Error)?.name ?? "thrown";
      row.codes[code] = (row.codes[code] ?? 0) + 1;
      shown = `${String(error?.message)} ${JSON.stringify(error) ?? ""}`;
    }
    if (shown.includes(MARKER)) count("outsideInResult", 1, shown.slice(0, 300));
    if (before !== null && after !== null) count("descriptorLeaks", after - before, `${before} → ${after} open`);
    const diff = diffTrees(this.baseline, snapshotTree(fixture.fs, fixture.outside));
    count("outsideCreated", diff.created.length, diff.created.join(", "));
    count("outsideChanged", diff.changed.length, diff.changed.join(", "));
    count("outsideDeleted", diff.deleted.length, diff.deleted.join(", "));
    count("outsideTouched", diff.touched.length, diff.touched.join(", "));
    const temps = tempFiles(fixture);
    count("tempLeft", temps.length, temps.join(", "));
    const inside = judgeInside(fixture, allowed);
    count("insideLost", inside.lost.length, inside.lost.join(", "));
    count("insideHalfWritten", inside.halfWritten.length, inside.halfWritten.join(", "));
    count("outsideBytesInside", inside.outsideBytes.length, inside.outsideBytes.join(", "));
    if (failed.length > 0 && row.examples.length < 5) {
      row.examples.push(`${this.hostUnderTest.name} ${this.toolCase.row} @${fixture.level}: ${failed.join("; ")}`);
    }
    this.state = this.toolCase.next(this.state, fixture);
    let ready = failed.length === 0 && noDifference(diff) && pairIntact(fixture);
    if (ready) {
      try {
        this.toolCase.prepare(fixture);
        ready = insideAsBuilt(fixture, this.state);
      } catch {
        ready = false;
      }
    }
    if (!ready) {
      row.rebuilds++;
      await this.rebuild();
    }
    if (failed.length === 0) row.clean++;
    return failed.length === 0;
  }

  /** Removes the fixture. */
  close(): void {
    this.cleanupBase();
  }
}
