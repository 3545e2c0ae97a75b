// A large file is searched a part at a time (GREP_READ_CHUNK_BYTES), so a
// search holds about one part of it, not all of it: the results must be the
// ones its whole-file search gives, in every mode, with context across the
// parts' edges, line numbers, CRLF, a BOM, long lines, short reads. Then grep
// end to end on every host, with a file of several parts, on the calling
// thread and on a worker thread.
import { describe, expect, test } from "vitest";
import type { ByteSearch, HostFile, HostStat } from "../host.ts";
import { createGrepTool } from "../mod.ts";
import { GREP_BINARY_SNIFF_BYTES, GREP_READ_CHUNK_BYTES } from "../src/core/limits.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { portableByteSearch } from "../src/core/search/byte_search.ts";
import { compileLineMatcher } from "../src/core/search/line_matcher.ts";
import { searchInChunks } from "../src/core/search/search_chunks.ts";
import { searchText, type TextSearchRequest } from "../src/core/search/search_text.ts";
import { TEST_HOSTS } from "./helpers/hosts.ts";

const encoder = new TextEncoder();

// A file over bytes: each read gives at most `most` bytes (a short read), so the fill loop is exercised.
// The byte search with its own `alloc`, which notes the size of each buffer made.
function countingAllocs(base: ByteSearch): { sizes: number[]; counted: ByteSearch } {
  const sizes: number[] = [];
  const counted: ByteSearch = {
    view: (bytes) => base.view(bytes),
    alloc: (size) => {
      sizes.push(size);
      return new Uint8Array(size);
    },
  };
  return { sizes, counted };
}

function fileOf(bytes: Uint8Array, most = Number.POSITIVE_INFINITY): HostFile & { reads: number } {
  const file = {
    reads: 0,
    read(buffer: Uint8Array, position: number): Promise<number> {
      file.reads++;
      const count = Math.max(0, Math.min(buffer.length, bytes.length - position, most));
      buffer.set(bytes.subarray(position, position + count));
      return Promise.resolve(count);
    },
    stat: (): Promise<HostStat> => Promise.reject(new Error("not used")),
    close: (): Promise<void> => Promise.resolve(),
  };
  return file as unknown as HostFile & { reads: number };
}

// A seeded generator, so a failure replays.
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const PIECES = ["foo", "Foo", "FOO", "bar", " ", "x", "é", "\u212A", "ſ", "\r", "ax", "cx", "\t", "oo", "zz"];

// Lines of mixed lengths (some empty, some longer than a part), CRLF endings now and then, maybe a BOM,
// a last line with or without its ending, and a stray invalid byte.
function textOf(seed: number, lines: number): Uint8Array {
  const next = random(seed);
  const parts: string[] = next() < 0.3 ? ["\uFEFF"] : [];
  for (let i = 0; i < lines; i++) {
    const long = next() < 0.01;
    const pieces = long ? 3_000 + Math.floor(next() * 3_000) : Math.floor(next() * 12);
    let line = "";
    for (let j = 0; j < pieces; j++) line += PIECES[Math.floor(next() * PIECES.length)];
    parts.push(line, next() < 0.2 ? "\r\n" : "\n");
  }
  if (next() < 0.5) parts.pop();
  const bytes = encoder.encode(parts.join(""));
  if (bytes.length > 20_000 && next() < 0.5) bytes[15_000] = 0xff;
  expect(bytes.length).toBeGreaterThan(4 * GREP_BINARY_SNIFF_BYTES);
  return bytes;
}

const PATTERNS: Array<[string, { literal?: boolean; ignoreCase?: boolean }]> = [
  ["foo", { literal: true }],
  ["fo+", {}],
  ["foo", { literal: true, ignoreCase: true }],
  ["k", { ignoreCase: true }],
  ["^$", {}],
  ["o$", {}],
  ["[ac]x", {}],
  ["\\bbar\\b", {}],
];

// A literal counted per file.
function counting(literal: string): TextSearchRequest {
  return {
    matcher: compileLineMatcher(literal, { literal: true }),
    outputMode: "count",
    context: 0,
    cap: 1,
    maxLineChars: 20,
  };
}

const SEARCHES: Array<[string, ByteSearch]> = [["portable", portableByteSearch]];
const native = createAutoHost().byteSearch;
if (native !== undefined) SEARCHES.push(["the host's", native]);

describe.each(SEARCHES)("searchInChunks with the %s byte search", (_name, search) => {
  test("gives the whole-file search's results, in every mode, context and part size", async () => {
    let compared = 0;
    for (let seed = 1; seed <= 4; seed++) {
      const bytes = textOf(seed, 500 + seed * 100);
      // Parts of 8 KiB (the least) or of 10,000 bytes; seed 3 also reads short.
      const chunk = seed % 2 === 1 ? GREP_BINARY_SNIFF_BYTES : 10_000;
      for (const [pattern, options] of PATTERNS) {
        const matcher = compileLineMatcher(pattern, options);
        for (const outputMode of ["content", "count", "files_with_matches"] as const) {
          for (const context of outputMode === "content" ? [0, 1, 3] : [0]) {
            for (const cap of outputMode === "content" ? [7, 1_000_000] : [1_000_000]) {
              const request: TextSearchRequest = { matcher, outputMode, context, cap, maxLineChars: 50 };
              const whole = searchText(bytes, request, search);
              const file = fileOf(bytes, seed === 3 ? 3_001 : undefined);
              const parts = await searchInChunks(file, request, search, bytes.length, chunk);
              expect(parts, `seed ${seed} /${pattern}/ ${outputMode} context ${context} cap ${cap}`).toEqual(whole);
              compared++;
            }
          }
        }
      }
    }
    expect(compared).toBe(4 * PATTERNS.length * (3 * 2 + 2));
  });

  test("a match just before a part's edge gets its lines after from the next part, numbered on", async () => {
    // 8 KiB parts; lines of 100 bytes: `needle` on line 80 (bytes 7,900–7,999), the part's last whole line.
    const lines = Array.from({ length: 200 }, (_, i) => (i === 79 ? "needle" : `line ${i + 1}`).padEnd(99, "."));
    const bytes = encoder.encode(lines.join("\n") + "\n");
    const request: TextSearchRequest = {
      matcher: compileLineMatcher("needle", { literal: true }),
      outputMode: "content",
      context: 2,
      cap: 10,
      maxLineChars: 20,
    };
    const found = await searchInChunks(fileOf(bytes), request, search, bytes.length, GREP_BINARY_SNIFF_BYTES);
    expect(found).toEqual({
      count: 1,
      matches: [{
        line: 80,
        column: 1,
        text: "needle".padEnd(20, "."),
        cut: true,
        before: ["line 78".padEnd(20, "."), "line 79".padEnd(20, ".")],
        after: ["line 81".padEnd(20, "."), "line 82".padEnd(20, ".")],
      }],
    });
  });

  test("holds one part and the longest line, not the file", async () => {
    const { sizes, counted } = countingAllocs(search);
    const request = counting("absent");
    // 400 KB of short lines: one 8 KiB buffer.
    const short = encoder.encode("a short line\n".repeat(30_000));
    const file = fileOf(short);
    expect(await searchInChunks(file, request, counted, short.length, 8_192)).toEqual({ matches: [], count: 0 });
    expect(sizes).toEqual([8_192]);
    expect(file.reads).toBeGreaterThan(40);
    // A 20,000-byte line among them: the 8 KiB buffer left by the search above grows to hold it (16, 32 KiB).
    sizes.length = 0;
    const long = encoder.encode(
      "a short line\n".repeat(1_000) + "y".repeat(20_000) + "\n" + "a short line\n".repeat(1_000),
    );
    expect(await searchInChunks(fileOf(long), request, counted, long.length, 8_192)).toEqual({
      matches: [],
      count: 0,
    });
    expect(sizes).toEqual([16_384, 32_768]);
    // The next search takes the 8 KiB buffer the first one left (a grown one is not kept).
    sizes.length = 0;
    await searchInChunks(fileOf(short), request, counted, short.length, 8_192);
    await searchInChunks(fileOf(short), request, counted, short.length, 8_192);
    expect(sizes).toEqual([8_192]);
  });

  test("files searched side by side take a buffer each, kept for later searches (up to 4)", async () => {
    const { sizes, counted } = countingAllocs(search);
    const request = counting("absent");
    const short = encoder.encode("a short line\n".repeat(30_000));
    const together = (files: number) =>
      Promise.all(
        Array.from({ length: files }, () => searchInChunks(fileOf(short), request, counted, short.length, 8_192)),
      );
    // Three at once (each waits at its reads): three buffers.
    expect(await together(3)).toEqual(Array(3).fill({ matches: [], count: 0 }));
    expect(sizes).toEqual([8_192, 8_192, 8_192]);
    // Three again, and one at a time: the three kept.
    sizes.length = 0;
    await together(3);
    for (let i = 0; i < 3; i++) await searchInChunks(fileOf(short), request, counted, short.length, 8_192);
    expect(sizes).toEqual([]);
    // Six at once: three more; four of the six are kept, so four at once make none.
    await together(6);
    expect(sizes).toEqual([8_192, 8_192, 8_192]);
    sizes.length = 0;
    await together(4);
    expect(sizes).toEqual([]);
    await together(5);
    expect(sizes).toEqual([8_192]);
  });

  test("in content mode a file without the required text is read once; one with it, again from its start", async () => {
    const content = (literal: string): TextSearchRequest => ({ ...counting(literal), outputMode: "content", cap: 10 });
    const bytes = encoder.encode("a short line\n".repeat(30_000) + "the needle\n");
    const without = fileOf(bytes);
    expect(await searchInChunks(without, content("absent"), search, bytes.length, 8_192)).toEqual({
      matches: [],
      count: 0,
    });
    // The 8 KiB head, then one read per 8 KiB part (less what the last part carried over), then the end.
    const once = without.reads;
    expect(once).toBeGreaterThanOrEqual(Math.ceil(bytes.length / 8_192));
    expect(once).toBeLessThan(Math.ceil(bytes.length / 8_192) + 4);
    const holding = fileOf(bytes);
    expect(await searchInChunks(holding, content("needle"), search, bytes.length, 8_192)).toEqual({
      matches: [{ line: 30_001, column: 5, text: "the needle" }],
      count: 1,
    });
    expect(holding.reads).toBeGreaterThan(2 * once - 4);
    // A regex with no required text: one pass.
    const regex = fileOf(bytes);
    const none: TextSearchRequest = { ...content("x"), matcher: compileLineMatcher("ne+dle|xyz") };
    expect(none.matcher.prefilter.kind).toBe("none");
    expect((await searchInChunks(regex, none, search, bytes.length, 8_192) as { count: number }).count).toBe(1);
    expect(regex.reads).toBeLessThan(once + 2);
  });

  test("a NUL in the first 8 KiB makes the file binary after one read of 8 KiB; a later NUL does not", async () => {
    const request = counting("needle");
    const early = encoder.encode("x".repeat(8_191) + "\0" + "needle\n".repeat(10_000));
    const file = fileOf(early);
    expect(await searchInChunks(file, request, search, early.length, 65_536)).toEqual({
      binary: true,
      matches: [],
      count: 0,
    });
    expect(file.reads).toBe(1);
    const late = encoder.encode("x".repeat(8_192) + "\0\n" + "needle\n".repeat(10_000));
    expect(await searchInChunks(fileOf(late), request, search, late.length, 65_536)).toEqual({
      matches: [],
      count: 10_000,
    });
  });

  test("`stop` ends the search between parts, after the part it was asked before", async () => {
    const bytes = encoder.encode("a short line\n".repeat(30_000));
    let asked = 0;
    const file = fileOf(bytes);
    // True at the third time of asking: two parts were read (the head and the first part's rest, then one more).
    const found = await searchInChunks(file, counting("absent"), search, bytes.length, 8_192, () => ++asked === 3);
    expect(found).toEqual({ stopped: true });
    expect(asked).toBe(3);
    expect(file.reads).toBeLessThanOrEqual(3);
    // Never true: the whole file, as without it.
    const whole = fileOf(bytes);
    expect(await searchInChunks(whole, counting("short"), search, bytes.length, 8_192, () => false)).toEqual({
      matches: [],
      count: 30_000,
    });
    expect(whole.reads).toBeGreaterThan(40);
  });

  test("a file that grew past the bound while read is too large", async () => {
    const request = counting("needle");
    const bytes = encoder.encode("needle\n".repeat(10_000));
    expect(await searchInChunks(fileOf(bytes), request, search, 50_000, 8_192)).toEqual({ tooLarge: true });
    // One line longer than the bound: no buffer past it is made.
    const line = encoder.encode("y".repeat(60_000));
    expect(await searchInChunks(fileOf(line), request, search, 40_000, 8_192)).toEqual({ tooLarge: true });
  });
});

// grep end to end: a file of three and a half parts, matches on both sides of each edge.
const PART = GREP_READ_CHUNK_BYTES;
const LINE = 64;
const LINES = Math.floor((PART * 3.5) / LINE);
// The lines that hold `needle`: the first, around each part's edge, and the last.
const NEEDLES = new Set([1, LINES]);
for (let part = 1; part <= 3; part++) {
  const edge = Math.floor((part * PART) / LINE);
  for (const line of [edge - 1, edge, edge + 1, edge + 2]) NEEDLES.add(line);
}
const lineText = (n: number): string => (NEEDLES.has(n) ? `needle at ${n}` : `line ${n}`).padEnd(LINE - 1, "-");
const BIG = Array.from({ length: LINES }, (_, i) => lineText(i + 1)).join("\n") + "\n";

for (const host of TEST_HOSTS) {
  describe(`grep of a file larger than GREP_READ_CHUNK_BYTES (${host.name})`, () => {
    const threads = host.name === "memory" ? [0] : [0, 1];
    test.each(threads)("finds every match with its line and context (worker threads: %i)", async (count) => {
      const tw = await host.open([`big.txt=${BIG}`, "small.txt=needle"]);
      try {
        const grep = createGrepTool(tw.workspace, {
          maxFileBytes: 4 * PART,
          threads: count,
          threadsAfterFiles: 0,
          maxLineChars: LINE,
        });
        const expected = [...NEEDLES].sort((a, b) => a - b);
        const content = await grep.execute({ pattern: "needle", literal: true, context: 1, limit: 100 });
        if (!("matches" in content)) throw new Error("not content");
        const big = content.matches.filter((match) => match.path === "big.txt");
        expect(big.map((match) => match.line)).toEqual(expected);
        for (const match of big) {
          expect(match.text).toBe(lineText(match.line));
          expect(match.before).toEqual(match.line === 1 ? [] : [lineText(match.line - 1)]);
          expect(match.after).toEqual(match.line === LINES ? [] : [lineText(match.line + 1)]);
        }
        const counted = await grep.execute({ pattern: "needle at \\d+", output_mode: "count" });
        expect("counts" in counted && counted.counts).toEqual([{ path: "big.txt", count: NEEDLES.size }]);
        const files = await grep.execute({
          pattern: "NEEDLE AT",
          ignore_case: true,
          output_mode: "files_with_matches",
        });
        expect("files" in files && files.files).toEqual(["big.txt"]);
      } finally {
        await tw.cleanup();
      }
    });
  });
}
