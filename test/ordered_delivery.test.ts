// grep's in-order merge (OrderedFileSearch) over a fake host and fake threads:
// - outcomes that pile up behind a slow batch are handed over in slices with a turn of the event loop between
//   them. Found by the bench: a cold first call on the kernel tree delivered 16,384 outcomes in one step and
//   held the loop 105 ms;
// - at the end of a search the calling thread takes back the files the threads have not begun and searches them
//   itself, instead of waiting idle for them; a file its synchronous read declines goes back to the threads, alone.
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

interface FakeBatch {
  paths: readonly string[];
  front: number;
  end: number;
  results: Promise<FileSearchResult[]>;
  resolve: (results: FileSearchResult[]) => void;
}

test("at the end of a search the calling thread searches the files its threads have not begun; a stuck one is waited for", async () => {
  const readHere: string[] = [];
  // Every file reads "hello" once here; "big" is declined by the synchronous read (over its bound).
  const host = {
    readSync: (path: string, into: (stat: HostStat) => Uint8Array | null) => {
      if (path === "big") return null;
      readHere.push(path);
      const stat = { kind: "file", size: 5 } as HostStat;
      const buffer = into(stat)!;
      buffer.set(new TextEncoder().encode("hello"));
      return { stat, bytes: buffer.subarray(0, 5) };
    },
    // A thread that began the first file of the first batch and is stuck on it (a slow disk); it takes no
    // other file. A batch none of whose files is left to take is answered (its entries then unused).
    searchThreads: () => {
      const batches: FakeBatch[] = [];
      const answerIfEmpty = (batch: FakeBatch) => {
        if (batch.front >= batch.end && batch !== batches[0]) batch.resolve(batch.paths.map(() => NOTHING));
      };
      return {
        ready: true,
        queued: 0, // never busy: every file goes to the threads while the walk lasts
        batches,
        search: (paths: readonly string[]) => {
          let resolve!: (results: FileSearchResult[]) => void;
          const results = new Promise<FileSearchResult[]>((done) => (resolve = done));
          const batch = { paths, front: batches.length === 0 ? 1 : 0, end: paths.length, results, resolve };
          batches.push(batch);
          return results;
        },
        take: (results: Promise<FileSearchResult[]>) => {
          const batch = batches.find((candidate) => candidate.results === results);
          if (batch === undefined || batch.front >= batch.end) return -1;
          const index = --batch.end;
          queueMicrotask(() => answerIfEmpty(batch));
          return index;
        },
        close: () => {},
      };
    },
  } as unknown as Host;
  const names = Array.from({ length: 200 }, (_, i) => (i === 150 ? "big" : `f${i}`));
  const delivered: [string, number][] = [];
  const search = new OrderedFileSearch(host, {
    request: fileSearchRequest(SPEC, portableByteSearch),
    spec: SPEC,
    threadsAfter: 0,
    deliver: (path, _folder, outcome) => {
      delivered.push([path, outcome.count]);
      return true;
    },
  });
  const folder = {} as Folder;
  // The first add makes the search's threads; the fake's batches are reached through the host call's result.
  const made: { batches: FakeBatch[] }[] = [];
  const searchThreads = host.searchThreads!;
  (host as { searchThreads: unknown }).searchThreads = (...args: Parameters<typeof searchThreads>) => {
    const fake = searchThreads.apply(host, args) as unknown as { batches: FakeBatch[] };
    made.push(fake);
    return fake;
  };
  for (const name of names) await search.add(name, name, folder);
  expect(readHere).toEqual([]); // while the walk lasted, every file went to the threads
  const finished = search.finish();
  // Everything but the stuck file (the first) and "big" is searched here, from each batch's end.
  for (let waited = 0; readHere.length < names.length - 2 && waited < 2_000; waited += 5) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect([...readHere].sort()).toEqual(names.filter((name) => name !== "f0" && name !== "big").sort());
  const { batches } = made[0];
  // "big" went back to the threads in a batch of its own, which no one takes from.
  const alone = batches.find((batch) => batch.paths.length === 1 && batch.paths[0] === "big")!;
  expect(alone).toBeDefined();
  expect(delivered).toEqual([]); // all wait behind the stuck first file
  alone.resolve([{ matches: [], count: 9 }]);
  batches[0].resolve(batches[0].paths.map((_, i) => (i === 0 ? { matches: [], count: 7 } : NOTHING)));
  expect(await finished).toBe(true);
  // In order; the stuck file's and "big"'s counts from the threads, every other from this thread's read.
  expect(delivered).toEqual(names.map((name) => [name, name === "f0" ? 7 : name === "big" ? 9 : 1]));
});

const NOTHING: FileSearchResult = { matches: [], count: 0 };
