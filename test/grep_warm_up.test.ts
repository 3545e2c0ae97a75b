// grep's warm-up (`warmUp`, on in `paddock mcp`): background searches of the
// workspace when the tool is made, their results dropped, bounded by
// GREP_WARM_UP_MS and GREP_WARM_UP_PASSES and ended by the first call; off by default. Host calls are
// counted on a wrapping host (threads: 0, so every file is read in this thread).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, test } from "vitest";
import type { Host } from "../host.ts";
import { createGrepTool, LIMITS, openWorkspace } from "../mod.ts";
import { createPaddockMcpServer, serveStdio } from "../src/mcp/mod.ts";
import { PassThrough } from "node:stream";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { descriptorsUnder } from "./helpers/held_descriptors.ts";
import { runtime } from "./helpers/runtime.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Counts the host's file reads (`readSync`); `slowMs` makes each one take that long (the thread waits).
function countingReads(base: Host, slowMs = 0): { host: Host; reads: () => number } {
  let reads = 0;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const host = new Proxy(base, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        if (key === "readSync") {
          reads++;
          if (slowMs > 0) Atomics.wait(pause, 0, 0, slowMs);
        }
        return value.apply(target, args);
      };
    },
  });
  return { host, reads: () => reads };
}

// Waits until no read has happened for `quietMs` (or `maxMs` passed); the count then.
async function settled(reads: () => number, quietMs = 100, maxMs = 3_000): Promise<number> {
  const began = Date.now();
  let last = reads();
  let since = Date.now();
  while (Date.now() - began < maxMs) {
    await sleep(10);
    if (reads() !== last) [last, since] = [reads(), Date.now()];
    else if (Date.now() - since >= quietMs) break;
  }
  return last;
}

const tree = (folders: number, files: number): string[] =>
  Array.from({ length: folders * files }, (_, i) => `d${i % folders}/f${i}.txt=line\nTODO ${i}\nneedle ${i % 7}\n`);

async function withFixture(entries: string[], body: (fixture: DiskFixture) => Promise<void>): Promise<void> {
  const fixture = await diskFixture(entries);
  try {
    await body(fixture);
  } finally {
    fixture.cleanup();
  }
}

describe(`[${runtime}] grep's warm-up`, () => {
  test("is bounded by a documented constant", () => {
    expect(LIMITS.GREP_WARM_UP_MS).toBe(2_000);
    expect(LIMITS.GREP_WARM_UP_PASSES).toBe(10);
  });

  test("off by default: making the tool reads nothing", () =>
    withFixture(tree(2, 10), async (fixture) => {
      const counting = countingReads(fixture.host);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      createGrepTool(workspace, { threads: 0 });
      await sleep(LIMITS.GREP_WARM_UP_MS + 100);
      expect(counting.reads()).toBe(0);
    }));

  test("on: the whole workspace is searched GREP_WARM_UP_PASSES times in the background, and no descriptor is left", () =>
    // 160 files, each with a match: more than a call's 100 results, which do not end a pass.
    withFixture(tree(4, 40), async (fixture) => {
      const counting = countingReads(fixture.host);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      await workspace.confinement(); // the root held before the descriptors are taken
      const before = descriptorsUnder(fixture.root);
      createGrepTool(workspace, { threads: 0, warmUp: true });
      expect(await settled(counting.reads)).toBe(160 * LIMITS.GREP_WARM_UP_PASSES);
      if (before !== null) expect(descriptorsUnder(fixture.root)).toEqual(before);
      expect(fixture.listAll().filter((entry) => !/^workspace\/d\d\/(f\d+\.txt)?$|^workspace\/$|^outside/.test(entry)))
        .toEqual([]);
    }));

  test("the first call ends it: its answer is the one without a warm-up, and nothing is read after it", () =>
    withFixture(tree(20, 100), async (fixture) => {
      const args = { pattern: "needle 3", literal: true, output_mode: "count" as const, limit: 5_000 };
      const expected = await createGrepTool(fixture.workspace, { threads: 0, maxResults: 5_000 }).execute(args);
      const counting = countingReads(fixture.host);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      const grep = createGrepTool(workspace, { threads: 0, warmUp: true, maxResults: 5_000 });
      expect(await grep.execute(args)).toEqual(expected);
      const afterCall = counting.reads();
      // The call read each of the 2,000 files once; the warm-up, ended as the call began, next to none.
      expect(afterCall).toBeGreaterThanOrEqual(2_000);
      expect(afterCall).toBeLessThan(2_100);
      expect(await settled(counting.reads)).toBe(afterCall);
    }));

  test("a signal given instead of true ends it when it aborts; one aborted already starts none", () =>
    withFixture(tree(10, 100), async (fixture) => {
      // 2 ms per read: ten passes of the 1,000 files would take 20 s.
      const counting = countingReads(fixture.host, 2);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      const ended = new AbortController();
      ended.abort();
      createGrepTool(workspace, { threads: 0, warmUp: ended.signal });
      await sleep(200);
      expect(counting.reads()).toBe(0);
      const session = new AbortController();
      createGrepTool(workspace, { threads: 0, warmUp: session.signal });
      for (let waited = 0; counting.reads() < 20 && waited < 5_000; waited += 10) await sleep(10);
      session.abort();
      const atAbort = counting.reads();
      expect(atAbort).toBeGreaterThanOrEqual(20);
      // At most the read under way when it aborted, then nothing.
      expect(await settled(counting.reads)).toBeLessThanOrEqual(atAbort + 1);
    }));

  test("serveStdio ends it with the session: once stdin has closed and the session ended, nothing more is read", () =>
    withFixture(tree(10, 100), async (fixture) => {
      // 2 ms per read: one pass of the 1,000 files takes 2 s, so only the session's end can stop it early.
      const counting = countingReads(fixture.host, 2);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      let out = "";
      stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      const served = serveStdio({ root: workspace, nodeProcess: false, warmUp: true }, () => {}, { stdin, stdout });
      stdin.write(
        JSON.stringify({
          jsonrpc: "2.0",
          id: "init",
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        }) + "\n",
      );
      stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
      for (let waited = 0; counting.reads() < 20 && waited < 10_000; waited += 10) await sleep(10);
      expect(counting.reads()).toBeGreaterThanOrEqual(20); // the warm-up runs
      stdin.end();
      await served;
      expect(out).toContain('"id":"init"');
      const atEnd = counting.reads();
      // At most the read under way when the session ended; without the session's signal it read on (849
      // more, to its bound: measured with the signal taken out of serve_stdio.ts).
      expect(atEnd).toBeLessThan(1_000);
      expect(await settled(counting.reads)).toBeLessThanOrEqual(atEnd + 1);
    }));

  // A tool whose warm-up waits for `handshake()`, over a host that counts its reads.
  async function waitingWarmUp(fixture: DiskFixture) {
    const counting = countingReads(fixture.host);
    const workspace = await openWorkspace(fixture.root, { host: counting.host });
    let handshake = () => {};
    const warmUpAfter = new Promise<void>((resolve) => handshake = resolve);
    const grep = createGrepTool(workspace, { threads: 0, warmUp: true, warmUpAfter });
    return { counting, grep, handshake };
  }

  test("with warmUpAfter it reads nothing until the promise settles, then searches as before", () =>
    withFixture(tree(4, 40), async (fixture) => {
      const { counting, handshake } = await waitingWarmUp(fixture);
      await sleep(300);
      expect(counting.reads()).toBe(0);
      handshake();
      expect(await settled(counting.reads)).toBe(160 * LIMITS.GREP_WARM_UP_PASSES);
    }));

  test("a call made while the warm-up waits for warmUpAfter ends it before it begins", () =>
    withFixture(tree(4, 40), async (fixture) => {
      const { counting, grep, handshake } = await waitingWarmUp(fixture);
      await grep.execute({ pattern: "needle 3", literal: true, output_mode: "count" });
      const afterCall = counting.reads();
      expect(afterCall).toBe(160);
      handshake();
      expect(await settled(counting.reads)).toBe(afterCall);
    }));

  test("an MCP server's warm-up begins once the client's handshake is done, not before, whatever its oninitialized", () =>
    withFixture(tree(4, 40), async (fixture) => {
      const counting = countingReads(fixture.host);
      const workspace = await openWorkspace(fixture.root, { host: counting.host });
      const session = new AbortController();
      const { server } = await createPaddockMcpServer({ root: workspace, nodeProcess: false, warmUp: session.signal });
      // The user's own handler in the SDK's slot takes nothing of the server's start away.
      let handshakes = 0;
      server.oninitialized = () => handshakes++;
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      await sleep(300);
      expect(counting.reads()).toBe(0);
      const client = new Client({ name: "t", version: "1" });
      try {
        await client.connect(clientSide);
        for (let waited = 0; counting.reads() === 0 && waited < 3_000; waited += 10) await sleep(10);
        expect(counting.reads()).toBeGreaterThan(0);
        expect(handshakes).toBe(1);
      } finally {
        session.abort();
        await client.close();
        await settled(counting.reads);
      }
    }));

  test(
    `ends by itself after ${LIMITS.GREP_WARM_UP_MS} ms on a tree it cannot finish, and a call then runs in full`,
    () =>
      withFixture(tree(10, 100), async (fixture) => {
        // 6 ms per read: the 1,000 files would take 6 s (2 s read about a third of them).
        const counting = countingReads(fixture.host, 6);
        const workspace = await openWorkspace(fixture.root, { host: counting.host });
        const grep = createGrepTool(workspace, { threads: 0, warmUp: true, maxResults: 5_000 });
        const read = await settled(counting.reads, 200, LIMITS.GREP_WARM_UP_MS + 3_000);
        expect(read).toBeGreaterThan(0);
        expect(read).toBeLessThan(1_000 / 2);
        const result = await grep.execute({ pattern: "TODO", literal: true, output_mode: "count", path: "d3" });
        expect("counts" in result ? result.counts.length : result).toBe(100);
      }),
    20_000,
  );
});
