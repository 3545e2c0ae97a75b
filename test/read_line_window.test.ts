import { describe, expect, test } from "vitest";
import type { HostFile } from "../host.ts";
import { readLineWindow } from "../src/core/fs/read_line_window.ts";
import { random } from "./helpers/random.ts";

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

// An endless file (a sparse 100 GiB one, or one that keeps growing): `byteAt(n)`
// gives its n-th byte. Counts the bytes read.
function endlessFile(byteAt: (position: number) => number): HostFile & { readBytes: () => number } {
  let read = 0;
  return {
    ...memoryFile(new Uint8Array(0)),
    read: (buffer, position) => {
      for (let i = 0; i < buffer.length; i++) buffer[i] = byteAt(position + i);
      read += buffer.length;
      return Promise.resolve(buffer.length);
    },
    readBytes: () => read,
  };
}

describe("readLineWindow() bounds, by counting bytes read", () => {
  const CHUNK = 1_024;
  const request = { limit: 10, maxBytes: 4_096, chunkBytes: CHUNK, maxScanBytes: 1 << 20, countLinesMaxBytes: 0 };

  test("a line longer than the window is cut once maxBytes are read past its start; the rest is never read", async () => {
    const file = endlessFile(() => 0x61); // one endless line of 'a'
    const window = await readLineWindow(file, { ...request, offset: 1 });
    expect(window).toMatchObject({ startLine: 1, endLine: 1, lineCut: true, hasMore: true, scanLimitReached: false });
    expect(window.bytes.length).toBe(4_096);
    expect(file.readBytes()).toBeLessThanOrEqual(4_096 + 2 * CHUNK);
  });

  test("the window's line after short lines: the long one is cut the same way", async () => {
    const file = endlessFile((position) => (position < 20 && position % 2 === 1 ? 0x0a : 0x62)); // "b\n" ×10, then b forever
    const window = await readLineWindow(file, { ...request, offset: 11 });
    expect(window).toMatchObject({ startLine: 11, endLine: 11, lineCut: true, hasMore: true });
    expect(file.readBytes()).toBeLessThanOrEqual(20 + 4_096 + 2 * CHUNK);
  });

  test("a file that keeps growing ends the read once the window is full, even when lines are counted", async () => {
    const file = endlessFile((position) => (position % 10 === 9 ? 0x0a : 0x63)); // endless 10-byte lines
    const window = await readLineWindow(file, { ...request, offset: 1, countLinesMaxBytes: 1 << 16 });
    expect(window).toMatchObject({ startLine: 1, endLine: 10, hasMore: true, lineCut: false, totalLines: undefined });
    expect(file.readBytes()).toBeLessThanOrEqual((1 << 16) + CHUNK);
  });

  test("a window that does not start within maxScanBytes stops there: beyondScan, how far it got", async () => {
    const file = endlessFile(() => 0x64);
    const window = await readLineWindow(file, { ...request, offset: 2 });
    expect(window).toMatchObject({ beyondScan: true, scanLimitReached: true, hasMore: true, endLine: 1 });
    expect(window.scannedBytes).toBeGreaterThanOrEqual(1 << 20);
    expect(file.readBytes()).toBeLessThanOrEqual((1 << 20) + CHUNK);
  });

  test("a window that starts just before maxScanBytes ends at the bound: scanLimitReached, the line cut", async () => {
    const start = (1 << 20) - 100;
    const file = endlessFile((position) => (position === start - 1 ? 0x0a : 0x65));
    const window = await readLineWindow(file, { ...request, offset: 2 });
    expect(window).toMatchObject({ startLine: 2, endLine: 2, lineCut: true, hasMore: true, scanLimitReached: true });
    expect(window.bytes.length).toBeLessThanOrEqual(100);
    expect(new TextDecoder().decode(window.bytes)).toMatch(/^e+$/);
    expect(file.readBytes()).toBeLessThanOrEqual((1 << 20) + CHUNK);
  });
});
