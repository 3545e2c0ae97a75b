import { describe, expect, test } from "vitest";
import type { HostFile } from "../host.ts";
import { readLineWindow } from "../src/core/read_line_window.ts";

// A file in memory, behind the HostFile interface.
function memoryFile(bytes: Uint8Array): HostFile {
  return {
    read: (buffer, position) => {
      const part = bytes.subarray(position, position + buffer.length);
      buffer.set(part);
      return Promise.resolve(part.length);
    },
    write: () => Promise.reject(new Error("read only")),
    sync: () => Promise.resolve(),
    stat: () => Promise.resolve({ kind: "file", size: bytes.length, mode: 0o644, dev: 1, ino: 1, mtimeMs: 0 }),
    close: () => Promise.resolve(),
  };
}

// Small deterministic generator (mulberry32), so a failure replays.
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The same window computed the obvious way, from the whole file.
function reference(text: string, offset: number, limit: number | undefined, maxBytes: number) {
  const encoder = new TextEncoder();
  const lines = text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const kept: string[] = [];
  let bytes = 0;
  for (let i = offset - 1; i < lines.length && (limit === undefined || kept.length < limit); i++) {
    const size = encoder.encode(lines[i]).length;
    if (bytes + size > maxBytes) break;
    kept.push(lines[i]);
    bytes += size;
  }
  if (kept.length === 0 && offset <= lines.length) {
    const line = encoder.encode(lines[offset - 1]);
    let cut = maxBytes;
    while (cut > 0 && (line[cut] & 0xc0) === 0x80) cut--;
    return {
      content: new TextDecoder().decode(line.subarray(0, cut)),
      endLine: offset,
      totalLines: lines.length,
      lineCut: true,
    };
  }
  return { content: kept.join(""), endLine: offset - 1 + kept.length, totalLines: lines.length, lineCut: false };
}

describe("readLineWindow()", () => {
  test("agrees with splitting the whole file, for random files, windows and chunk sizes", async () => {
    const next = random(42);
    const pieces = ["a", "bc", "é", "\n", "\r\n", "\n\n", "xyz"];
    for (let round = 0; round < 600; round++) {
      const text = Array.from({ length: Math.floor(next() * 30) }, () => pieces[Math.floor(next() * pieces.length)])
        .join("");
      const offset = 1 + Math.floor(next() * 12);
      const limit = next() < 0.3 ? undefined : 1 + Math.floor(next() * 6);
      const maxBytes = 2 + Math.floor(next() * 20);
      const chunkBytes = 1 + Math.floor(next() * 8);
      const count = next() < 0.5;
      const window = await readLineWindow(memoryFile(new TextEncoder().encode(text)), {
        offset,
        limit,
        maxBytes,
        chunkBytes,
        maxScanBytes: 1_000,
        countLinesMaxBytes: count ? 1_000 : 0,
      });
      const expected = reference(text, offset, limit, maxBytes);
      const label = JSON.stringify({ text, offset, limit, maxBytes, chunkBytes, count });
      expect(new TextDecoder().decode(window.bytes), label).toBe(expected.content);
      expect(window.endLine, label).toBe(expected.endLine);
      expect(window.lineCut, label).toBe(expected.lineCut);
      if (count) {
        expect(window.totalLines, label).toBe(expected.totalLines);
        expect(window.hasMore, label).toBe(expected.endLine < expected.totalLines);
      } else if (!expected.lineCut) {
        expect(window.hasMore, label).toBe(expected.endLine < expected.totalLines);
      }
    }
  });
});
