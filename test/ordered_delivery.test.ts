// grep's in-order merge (OrderedFileSearch) over a fake host: outcomes that pile up behind a slow
// batch are handed over in slices with a turn of the event loop between them. Found by the bench: a
// cold first call on the kernel tree delivered 16,384 outcomes in one step and held the loop 105 ms.
import { expect, test } from "vitest";
import type { FileSearchResult, Host, HostStat } from "../host.ts";
import type { Folder } from "../src/core/fs/folder.ts";
import { portableByteSearch } from "../src/core/search/byte_search.ts";
import { OrderedFileSearch } from "../src/core/search/ordered_file_search.ts";
import { fileSearchRequest } from "../src/core/search/search_batch.ts";

const SPEC = {
  pattern: "hello",
  literal: true,
  ignoreCase: false,
  outputMode: "count",
  context: 0,
  cap: 1_000_000,
  maxLineChars: 100,
  maxFileBytes: 1_000,
} as const;
const FILES = 10_000;

test("outcomes waiting behind a slow batch are delivered in slices, the event loop turning between them", async () => {
  let release!: (results: FileSearchResult[]) => void;
  const sent: string[] = [];
  // Every file reads "hello" at once, but "big", which the synchronous read declines (as a host does a file
  // over its bound): it goes to the threads, whose one batch answers only when released.
  const host = {
    readSync: (path: string, into: (stat: HostStat) => Uint8Array | null) => {
      if (path === "big") return null;
      const stat = { kind: "file", size: 5 } as HostStat;
      const buffer = into(stat)!;
      buffer.set(new TextEncoder().encode("hello"));
      return { stat, bytes: buffer.subarray(0, 5) };
    },
    searchThreads: () => ({
      ready: true,
      queued: 1_000_000, // always busy: the calling thread searches every file it can itself
      search: (paths: readonly string[]) => {
        sent.push(...paths);
        return new Promise<FileSearchResult[]>((resolve) => (release = resolve));
      },
      close: () => {},
    }),
  } as unknown as Host;
  const delivered: string[] = [];
  let turns = 0;
  const turnsAt: number[] = [];
  const search = new OrderedFileSearch(host, {
    request: fileSearchRequest(SPEC, portableByteSearch),
    spec: SPEC,
    threadsAfter: 0,
    deliver: (path) => {
      delivered.push(path);
      turnsAt.push(turns);
      // 20 µs a delivery: 10,000 of them take 200 ms.
      for (const until = performance.now() + 0.02; performance.now() < until;);
      return true;
    },
  });
  const folder = {} as Folder;
  expect(search.add("big", "big", folder)).toBe(true);
  for (let i = 0; i < FILES; i++) await search.add(`f${i}`, `f${i}`, folder);
  expect(sent).toEqual(["big"]);
  expect(delivered).toEqual([]); // all waiting behind "big"
  let spinning = true;
  const spin = () => {
    turns++;
    if (spinning) setTimeout(spin, 0);
  };
  setTimeout(spin, 0);
  await new Promise((resolve) => setTimeout(resolve, 5));
  release([{ matches: [], count: 1 }]);
  expect(await search.finish()).toBe(true);
  spinning = false;
  expect(delivered.length).toBe(FILES + 1);
  expect(delivered.slice(0, 3)).toEqual(["big", "f0", "f1"]);
  expect(delivered.at(-1)).toBe(`f${FILES - 1}`);
  // Timers ran while the outcomes were handed over: 200 ms of delivering in slices of about 8 ms.
  expect(turnsAt.at(-1)! - turnsAt[0]).toBeGreaterThanOrEqual(5);
});
