// A binary file's read ends at its head: grep reads the first 64 KiB of a
// longer file, and no more when they hold a NUL in the first 8 KiB (ripgrep
// too stops at a NUL). Every host: the synchronous read (libc route at a held
// folder, and the runtime's own by a plain path), the asynchronous read, and
// grep end to end, with the bytes read counted.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Host, ReadHead } from "../host.ts";
import { createGrepTool } from "../mod.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { readRegularFile, readRegularFileSync } from "../src/core/fs/read_regular_file.ts";
import { diskFixture } from "./helpers/fixture.ts";
import { TEST_HOSTS } from "./helpers/hosts.ts";

const HEAD = 65_536;
// 100,000 bytes: a NUL at byte 10 (binary), the text `needle` at 70,000 (past the head).
const binary = (): string => "ab" + "x".repeat(8) + "\0" + "y".repeat(69_989) + "needle" + "z".repeat(29_994);
// The same with its NUL at byte 9,000: past the 8 KiB sniffed, so text.
const lateNul = (): string => "q".repeat(9_000) + "\0" + "y".repeat(60_999) + "needle" + "z".repeat(29_994);

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-head-")));
  fs.writeFileSync(path.join(dir, "binary"), binary());
  fs.writeFileSync(path.join(dir, "small"), "tiny\0file");
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function head(stop: boolean, seen: number[]): ReadHead {
  return {
    bytes: HEAD,
    stop: (bytes) => {
      seen.push(bytes.length);
      return stop;
    },
  };
}

describe("Host.readSync with a head", () => {
  // Both ways a host reads: a name at a held folder (libc where reached) and a plain path (the runtime's).
  const routes: Array<[string, (host: Host) => Promise<{ at: string; done: () => Promise<void> }>]> = [
    ["a name at a held folder", async (host) => {
      const folder = await host.openDir(dir);
      return { at: `${folder.at ?? dir}/binary`, done: () => folder.close() };
    }],
    ["a plain path", () => Promise.resolve({ at: path.join(dir, "binary"), done: () => Promise.resolve() })],
  ];

  test.each(routes)(
    "%s: a head that says stop ends the read there; one that does not reads the whole file",
    async (_name, reach) => {
      const host = createAutoHost();
      const readSync = host.readSync!;
      const { at, done } = await reach(host);
      try {
        const seen: number[] = [];
        const stopped = readSync(at, (stat) => new Uint8Array(stat.size + 1), head(true, seen));
        expect(stopped?.stopped).toBe(true);
        expect(stopped?.bytes.length).toBe(HEAD);
        expect(new TextDecoder().decode(stopped?.bytes.subarray(0, 2))).toBe("ab");
        expect(seen).toEqual([HEAD]);
        const whole = readSync(at, (stat) => new Uint8Array(stat.size + 1), head(false, seen));
        expect(whole?.stopped).toBeUndefined();
        expect(whole?.bytes.length).toBe(100_000);
        expect(new TextDecoder().decode(whole?.bytes.subarray(70_000, 70_006))).toBe("needle");
        expect(seen).toEqual([HEAD, HEAD]);
      } finally {
        await done();
      }
    },
  );

  test("a buffer no longer than the head is read at once, and the head is never looked at", () => {
    const readSync = createAutoHost().readSync!;
    const seen: number[] = [];
    const read = readSync(path.join(dir, "small"), (stat) => new Uint8Array(stat.size + 1), head(true, seen));
    expect(read?.bytes.length).toBe(9);
    expect(read?.stopped).toBeUndefined();
    expect(seen).toEqual([]);
  });
});

describe("readRegularFile / readRegularFileSync with a head", () => {
  test("the asynchronous read stops at a binary head and gives the head alone", async () => {
    const host = createAutoHost();
    const seen: number[] = [];
    const read = await readRegularFile(host, path.join(dir, "binary"), 1 << 20, undefined, head(true, seen));
    expect(read.kind).toBe("head");
    expect(read.kind === "head" && read.bytes.length).toBe(HEAD);
    const whole = await readRegularFile(host, path.join(dir, "binary"), 1 << 20, undefined, head(false, seen));
    expect(whole.kind === "read" && new TextDecoder().decode(whole.bytes)).toBe(binary());
    expect(seen).toEqual([HEAD, HEAD]);
  });

  test("the synchronous read says `head` and keeps the scratch buffer its size; a text head grows it, then reads all", () => {
    const inner = createAutoHost();
    const sizes: number[] = [];
    const host: Host = {
      ...inner,
      readSync: (at, into, readHead) =>
        inner.readSync!(at, (stat) => {
          const buffer = into(stat);
          sizes.push(buffer?.length ?? -1);
          return buffer;
        }, readHead),
    };
    const scratch = { buffer: new Uint8Array(HEAD) };
    const seen: number[] = [];
    const read = readRegularFileSync(host, path.join(dir, "binary"), 1 << 20, scratch, head(true, seen));
    expect(read?.kind).toBe("head");
    expect(read?.kind === "head" && read.bytes.length).toBe(HEAD);
    // No buffer the file's size was made for a binary file: the head went into the scratch buffer as it was.
    expect(scratch.buffer.length).toBe(HEAD);
    expect(sizes).toEqual([HEAD]);
    const whole = readRegularFileSync(host, path.join(dir, "binary"), 1 << 20, scratch, head(false, seen));
    expect(whole?.kind === "read" && new TextDecoder().decode(whole.bytes)).toBe(binary());
    // Not binary by its head: the buffer grows to the next power of two and the file is read again, whole.
    expect(scratch.buffer.length).toBe(131_072);
    expect(sizes).toEqual([HEAD, HEAD, 100_001]);
    expect(seen).toEqual([HEAD, HEAD]);
    // Now it fits: one read, the head looked at in it.
    const again = readRegularFileSync(host, path.join(dir, "binary"), 1 << 20, scratch, head(true, seen));
    expect(again?.kind).toBe("head");
    expect(sizes).toEqual([HEAD, HEAD, 100_001, 100_001]);
  });
});

describe.each(TEST_HOSTS)("grep over a long binary file ($name)", (testHost) => {
  test("skips it as binary, yet finds text past the head of a file whose NUL comes after 8 KiB", async () => {
    const fixture = await testHost.open(["binary.dat=" + binary(), "late.txt=" + lateNul()]);
    try {
      const grep = createGrepTool(fixture.workspace);
      const result = await grep.execute({ pattern: "needle", literal: true, output_mode: "files_with_matches" });
      expect(result).toMatchObject({ files: ["late.txt"], skipped: { binary: 1, tooLarge: 0, unreadable: 0 } });
    } finally {
      await fixture.cleanup();
    }
  });
});

describe("grep reads no more of a binary file than its head", () => {
  test("the bytes read of a 100,000-byte binary file are its first 64 KiB", async () => {
    const inner = createAutoHost();
    const reads: Record<string, number> = {};
    const host: Host = {
      ...inner,
      readSync: inner.readSync === undefined ? undefined : (at, into, readHead) => {
        const done = inner.readSync!(at, into, readHead);
        reads[at.slice(at.lastIndexOf("/") + 1)] = done?.bytes.length ?? -1;
        return done;
      },
    };
    const fixture = await diskFixture(["binary.dat=" + binary(), "late.txt=" + lateNul()], { host });
    try {
      const grep = createGrepTool(fixture.workspace, { threads: 0 });
      const result = await grep.execute({ pattern: "needle", literal: true, output_mode: "count" });
      expect(result).toMatchObject({ counts: [{ path: "late.txt", count: 1 }], skipped: { binary: 1 } });
      expect(reads).toEqual({ "binary.dat": HEAD, "late.txt": 100_000 });
    } finally {
      await fixture.cleanup();
    }
  });
});
