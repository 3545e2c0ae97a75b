import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Host } from "../host.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { paddockCommand, REPO, SERVER_RUNTIMES } from "./helpers/paddock_command.ts";

// Enough files, and lines, that one grep over them takes many of the walk's
// time slices, and a regex over every line (500,000 of them) still runs when
// a cancel sent after a ping reaches a loaded server (grep's worker threads
// made the 100,000 lines used before finish first there).
const FILES = 5_000;
const TREE = Array.from(
  { length: FILES },
  (_, i) => `d${Math.floor(i / 100)}/f${i}.txt=${"filler text\n".repeat(100)}`,
);

/** A client whose every incoming message is recorded, in order. */
async function connectRecorded(
  transport: StdioClientTransport | InMemoryTransport,
): Promise<{ client: Client; seen: JSONRPCMessage[] }> {
  const client = new Client({ name: "paddock-test", version: "1.0.0" });
  await client.connect(transport);
  const seen: JSONRPCMessage[] = [];
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    seen.push(message);
    deliver?.(message, extra);
  };
  return { client, seen };
}

const idOf = (message: JSONRPCMessage) => ("id" in message ? message.id : undefined);

describe.each(SERVER_RUNTIMES)("a long grep through paddock mcp under %s", (serverRuntime) => {
  let fixture: DiskFixture;
  let client: Client;
  let seen: JSONRPCMessage[];

  beforeAll(async () => {
    fixture = await diskFixture(TREE);
    const { command, args } = paddockCommand(serverRuntime, ["mcp", "--root", fixture.root]);
    ({ client, seen } = await connectRecorded(new StdioClientTransport({ command, args, cwd: REPO, stderr: "pipe" })));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    fixture?.cleanup();
  });

  test("a ping sent after the grep is answered before the grep's result", async () => {
    const order: string[] = [];
    const grep = client.callTool({ name: "grep", arguments: { pattern: "absent-everywhere", literal: true } }).then(
      (result) => {
        order.push("grep");
        return result;
      },
    );
    await client.ping().then(() => order.push("ping"));
    const result = await grep;
    expect(result.structuredContent).toMatchObject({ matches: [], truncated: false });
    expect(order).toEqual(["ping", "grep"]);
  });

  test("a cancelled grep sends no result, and the session goes on", async () => {
    const controller = new AbortController();
    const before = seen.length;
    // Every line holds the required text `iller `, so every line goes to RE2: the slowest kind of search.
    const call = client.callTool(
      { name: "grep", arguments: { pattern: "iller \\d", output_mode: "count" } },
      undefined,
      {
        signal: controller.signal,
      },
    );
    // Cancel once the server has shown it is reading requests meanwhile (it answered a ping).
    await client.ping();
    controller.abort();
    await expect(call).rejects.toThrow();
    // A later call is answered; by then the cancelled one would have had time to answer, and must not have.
    const after = await client.callTool({ name: "grep", arguments: { pattern: "nothing", path: "d0/f0.txt" } });
    expect(after.structuredContent).toMatchObject({ matches: [] });
    const replies = seen.slice(before).filter((message) => "result" in message || "error" in message);
    // The ping and the last grep: nothing for the cancelled call.
    expect(replies).toHaveLength(2);
    const ids = replies.map(idOf);
    expect(new Set(ids).size).toBe(2);
  });
});

describe("cancelling a grep through the MCP server, by counting work", () => {
  test("notifications/cancelled stops the walk: files read after the cancel stay a handful, and no result is sent", async () => {
    let reads = 0;
    let readsAtCancel = -1;
    let cancel: () => void = () => {};
    const inner = createAutoHost();
    const count = (path: string) => {
      if (path.endsWith(".txt") && ++reads === 50) cancel();
    };
    const host: Host = {
      ...inner,
      // Reads on worker threads cannot be counted here (the grep tool starts them ahead, and files go to
      // running ones early): this search stays in this thread. The threaded abort: grep_threads.test.ts.
      searchThreads: undefined,
      warmSearchThreads: undefined,
      open: (path, options) => {
        count(path);
        return inner.open(path, options);
      },
      ...(inner.readSync === undefined ? {} : {
        readSync: (...args: Parameters<NonNullable<Host["readSync"]>>) => {
          count(args[0]);
          return inner.readSync!(...args);
        },
      }),
    };
    const fixture = await diskFixture(TREE.slice(0, 1_000), { host });
    try {
      const { server } = await createPaddockMcpServer({ root: fixture.workspace });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const { client, seen } = await connectRecorded(clientSide);
      const controller = new AbortController();
      cancel = () => {
        readsAtCancel = reads;
        controller.abort();
      };
      const call = client.callTool(
        { name: "grep", arguments: { pattern: "filler", output_mode: "count" } },
        undefined,
        {
          signal: controller.signal,
        },
      );
      await expect(call).rejects.toThrow();
      await client.ping(); // the cancellation is delivered before this ping's answer
      const readsAfter = reads - readsAtCancel;
      expect(readsAtCancel).toBe(50);
      // The walk checks the signal at every entry: once the notification is read (its next turn), reading stops.
      expect(readsAfter).toBeLessThan(1_000 - 50);
      expect(seen.filter((message) => "result" in message && idOf(message) !== undefined)).toHaveLength(1); // the ping's
      await client.close();
    } finally {
      fixture.cleanup();
    }
  });
});

describe("progress of a long grep", () => {
  // Each read takes a millisecond of CPU, so 600 files take many progress intervals.
  async function slowFixture(): Promise<DiskFixture> {
    const inner = createAutoHost();
    const slow = () => {
      const until = Date.now() + 1;
      while (Date.now() < until) { /* busy */ }
    };
    // Every file through the slow open: no synchronous reads, whose slowness would send the files to the
    // worker threads (GREP_SLOW_FILES), where the search is fast again.
    const host: Host = {
      ...inner,
      readSync: undefined,
      open: (path, options) => {
        slow();
        return inner.open(path, options);
      },
    };
    return await diskFixture(TREE.slice(0, 600), { host });
  }

  test("the library reports growing counts of files searched through onProgress", async () => {
    const fixture = await slowFixture();
    try {
      const reports: { progress: number; message?: string }[] = [];
      const grep = (await import("../mod.ts")).createGrepTool(fixture.workspace);
      await grep.execute({ pattern: "absent", output_mode: "count" }, {
        onProgress: (progress) => reports.push(progress),
      });
      expect(reports.length).toBeGreaterThan(0);
      const counts = reports.map((report) => report.progress);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(counts[counts.length - 1]).toBeLessThanOrEqual(600);
      expect(reports[0].message).toMatch(/^\d+ files searched, \d+ results$/);
    } finally {
      fixture.cleanup();
    }
  });

  test("an MCP client that sends a progressToken gets notifications/progress before the result", async () => {
    const fixture = await slowFixture();
    try {
      const { server } = await createPaddockMcpServer({ root: fixture.workspace });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: "t", version: "1" });
      await client.connect(clientSide);
      const progress: number[] = [];
      const result = await client.callTool(
        { name: "grep", arguments: { pattern: "absent", output_mode: "count" } },
        undefined,
        {
          onprogress: (update) => progress.push(update.progress),
        },
      );
      expect(result.structuredContent).toMatchObject({ total: 0, truncated: false });
      expect(progress.length).toBeGreaterThan(0);
      expect(progress).toEqual([...progress].sort((a, b) => a - b));
      await client.close();
    } finally {
      fixture.cleanup();
    }
  });
});
