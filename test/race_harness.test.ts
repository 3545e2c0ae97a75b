// The adversary's own machinery, checked on its own: the swapper, the
// counting host proxy, the descriptor count and the fixture's judges. These
// stay green whatever the core does; race.test.ts and single_swap.test.ts are
// the ones that judge the core.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createNodeHost } from "../src/hosts/node.ts";
import { openDescriptorsUnder } from "./helpers/held_descriptors.ts";
import { swapAtCall, wrapHost } from "./helpers/swap_at_call.ts";
import { exchangeSync, SwapLoop, swapperBinary } from "./helpers/swapper.ts";
import { emptyRow, failures, Session } from "./race/attempt.ts";
import { DISK_FS } from "./race/fixture_fs.ts";
import { hostsUnderTest } from "./race/hosts.ts";
import {
  buildFixture,
  describeFixture,
  diffTrees,
  LEVELS,
  MARKER,
  pairIntact,
  snapshotTree,
  tempFiles,
} from "./race/race_fixture.ts";
import { TOOL_CASES } from "./race/race_tools.ts";

const binary = swapperBinary();
const noSwapper = binary.ok ? null : binary.reason;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-harness-")));
  made.push(dir);
  return dir;
}

describe("the swapper", () => {
  test.skipIf(noSwapper !== null)(
    `exchanges a folder and a link synchronously${noSwapper ? ` (skipped: ${noSwapper})` : ""}`,
    () => {
      const dir = tempDir();
      fs.mkdirSync(path.join(dir, "folder"));
      fs.symlinkSync("/", path.join(dir, "link"));
      exchangeSync(path.join(dir, "folder"), path.join(dir, "link"));
      expect(fs.lstatSync(path.join(dir, "folder")).isSymbolicLink()).toBe(true);
      expect(fs.lstatSync(path.join(dir, "link")).isDirectory()).toBe(true);
      expect(() => exchangeSync(path.join(dir, "folder"), path.join(dir, "missing"))).toThrow(/ENOENT/);
    },
  );

  test.skipIf(noSwapper !== null)(
    `loop leaves the pair in its original orientation at every pause and at stop${
      noSwapper ? ` (skipped: ${noSwapper})` : ""
    }`,
    async () => {
      const dir = tempDir();
      const folder = path.join(dir, "folder");
      const link = path.join(dir, "link");
      fs.mkdirSync(folder);
      fs.symlinkSync("/", link);
      const loop = SwapLoop.start(folder, link);
      let sawLink = false;
      try {
        // 20 pauses at least; more (up to 400) while the loop has not been seen swapped: on a loaded
        // machine the swapper may get no CPU inside a 5 ms window.
        for (let i = 0; i < 20 || (!sawLink && i < 400); i++) {
          loop.resume();
          const until = Date.now() + 5;
          while (Date.now() < until) {
            if (fs.lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) sawLink = true;
          }
          await new Promise((resolve) => setTimeout(resolve, 1));
          const counts = loop.pause();
          expect(counts.swaps % 2).toBe(0);
          expect(counts.orientation).not.toBe("disturbed");
          expect(fs.lstatSync(folder).isDirectory()).toBe(true);
        }
      } finally {
        const stopped = loop.stop();
        expect(stopped.orientation).not.toBe("disturbed");
      }
      expect(sawLink).toBe(true);
      expect(fs.lstatSync(folder).isDirectory()).toBe(true);
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    },
  );
});

describe("the counting host proxy", () => {
  test("counts host calls and calls on the handles they resolve to, and finds unclosed handles", async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, "f"), "hello");
    const names: string[] = [];
    const { host, log } = wrapHost(createNodeHost(), { record: true, beforeCall: (_n, name) => names.push(name) });
    await host.lstat(path.join(dir, "f"));
    const file = await host.open(path.join(dir, "f"), { read: true });
    const buffer = new Uint8Array(5);
    await file.read(buffer, 0);
    expect(new TextDecoder().decode(buffer)).toBe("hello");
    expect(log.unclosedHandles()).toBe(1);
    await file.close();
    expect(log.calls).toBe(4);
    expect(names).toEqual(["lstat", "open", "open→read", "open→close"]);
    expect(log.unclosedHandles()).toBe(0);
  });

  test("runs the swap just before call N and undoes it just before call N+1", () => {
    const events: string[] = [];
    const hook = swapAtCall(2, "swap-back", () => events.push("swap"), () => events.push("unswap"));
    for (let n = 1; n <= 4; n++) {
      hook.beforeCall(n);
      events.push(`call ${n}`);
    }
    expect(events).toEqual(["call 1", "swap", "call 2", "unswap", "call 3", "call 4"]);
    expect(hook.state()).toEqual({ swapped: true, unswapped: true });
  });
});

describe("the descriptor count", () => {
  test("counts descriptors under a folder, deleted files included, and nothing else", () => {
    const dir = tempDir();
    const before = openDescriptorsUnder(dir);
    if (before === null) return; // no /proc here: held_descriptors.ts says so, and callers skip the count
    fs.writeFileSync(path.join(dir, "x"), "x");
    const fd = fs.openSync(path.join(dir, "x"), "r");
    fs.unlinkSync(path.join(dir, "x"));
    expect(openDescriptorsUnder(dir)).toBe(before + 1);
    fs.closeSync(fd);
    expect(openDescriptorsUnder(dir)).toBe(before);
  });
});

describe("the race fixture", () => {
  test("puts the marker only outside, and its judges see a rebuilt fixture as unchanged", () => {
    for (const level of LEVELS) {
      const base = tempDir();
      const fixture = describeFixture(DISK_FS, base, level, "g/d/f.txt");
      buildFixture(fixture);
      expect(pairIntact(fixture)).toBe(true);
      const before = snapshotTree(DISK_FS, fixture.outside);
      expect([...before.keys()].some((name) => name.includes(MARKER))).toBe(true);
      expect(fs.readFileSync(path.join(fixture.ws, "g/d/f.txt"), "utf8")).not.toContain(MARKER);
      expect(diffTrees(before, snapshotTree(DISK_FS, fixture.outside))).toEqual({
        created: [],
        deleted: [],
        changed: [],
        touched: [],
      });
      fs.writeFileSync(path.join(fixture.outside, "g/d/.paddock-tmp-x"), "");
      expect(tempFiles(fixture)).toEqual(["outside/g/d/.paddock-tmp-x"]);
      expect(diffTrees(before, snapshotTree(DISK_FS, fixture.outside)).created).toEqual(["g/d/.paddock-tmp-x"]);
    }
  });

  for (const host of hostsUnderTest()) {
    test(`every tool's undisturbed run on the ${host.name} host passes every check`, async () => {
      for (const toolCase of TOOL_CASES) {
        for (const level of LEVELS) {
          const session = await Session.open(host, toolCase, level, { wrap: true });
          try {
            const row = emptyRow(host.name, toolCase.row, level);
            for (let i = 0; i < 3; i++) await session.attempt(row, { start: () => {}, end: () => {} });
            expect({ failures: failures(row), examples: row.examples, ok: row.ok }).toEqual({
              failures: 0,
              examples: [],
              ok: 3,
            });
          } finally {
            session.close();
          }
        }
      }
    });
  }
});
