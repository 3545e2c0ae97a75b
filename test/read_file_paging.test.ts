import { afterEach, describe, expect, test } from "vitest";
import { createReadTool, openWorkspace, type Workspace } from "../mod.ts";
import type { Host, HostFile } from "../host.ts";
import { codeOf, errorOf } from "./helpers/codes.ts";
import { TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";

const TEN_LINES = Array.from({ length: 10 }, (_, i) => `line${i + 1}\n`).join("");

// A host that records every read made through an opened file.
function spyOn(host: Host): { host: Host; reads: number[]; bytesRead: () => number } {
  const reads: number[] = [];
  let total = 0;
  const wrap = (file: HostFile): HostFile => ({
    read: async (buffer, position) => {
      reads.push(buffer.length);
      const count = await file.read(buffer, position);
      total += count;
      return count;
    },
    write: (data, position) => file.write(data, position),
    sync: () => file.sync(),
    stat: () => file.stat(),
    close: () => file.close(),
  });
  const spy = new Proxy(host, {
    get(target, property) {
      if (property === "open") {
        return async (path: string, options: Parameters<Host["open"]>[1]) => wrap(await target.open(path, options));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { host: spy, reads, bytesRead: () => total };
}

// 5 MiB of 100-byte lines: "line 0000001" padded with dots, then "\n".
const LINE_BYTES = 100;
const BIG_LINES = 52_429;
function bigLine(n: number): string {
  const head = `line ${String(n).padStart(7, "0")} `;
  return head + ".".repeat(LINE_BYTES - 1 - head.length) + "\n";
}
const BIG_FILE = Array.from({ length: BIG_LINES }, (_, i) => bigLine(i + 1)).join("");

for (const host of TEST_HOSTS) {
  describe(`read_file windows on the ${host.name} host`, () => {
    let fixture: TestWorkspace | undefined;
    const open = async (tree: string[]) => (fixture = await host.open(tree));
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    test("keeps the {path, content, bytes} result when no window is asked for", async () => {
      const ws = await open([`a.txt=${TEN_LINES}`]);
      expect(await createReadTool(ws.workspace).execute({ path: "a.txt" })).toEqual({
        path: "a.txt",
        content: TEN_LINES,
        bytes: TEN_LINES.length,
      });
    });

    test.each([
      { where: "at the start", offset: 1, limit: 3, first: 1, last: 3, hasMore: true, nextOffset: 4 },
      { where: "in the middle", offset: 4, limit: 3, first: 4, last: 6, hasMore: true, nextOffset: 7 },
      { where: "at the end", offset: 9, limit: 5, first: 9, last: 10, hasMore: false, nextOffset: null },
      { where: "with only a limit", offset: undefined, limit: 2, first: 1, last: 2, hasMore: true, nextOffset: 3 },
      {
        where: "with only an offset",
        offset: 8,
        limit: undefined,
        first: 8,
        last: 10,
        hasMore: false,
        nextOffset: null,
      },
    ])("returns whole lines $where", async ({ offset, limit, first, last, hasMore, nextOffset }) => {
      const ws = await open([`a.txt=${TEN_LINES}`]);
      const page = await createReadTool(ws.workspace).execute({ path: "a.txt", offset, limit });
      const content = Array.from({ length: last - first + 1 }, (_, i) => `line${first + i}\n`).join("");
      expect(page).toEqual({
        path: "a.txt",
        content,
        bytes: content.length,
        startLine: first,
        endLine: last,
        totalLines: 10,
        hasMore,
        nextOffset,
        fileBytes: TEN_LINES.length,
      });
    });

    test("returns an empty window past the end of the file", async () => {
      const ws = await open([`a.txt=${TEN_LINES}`, "empty.txt="]);
      expect(await createReadTool(ws.workspace).execute({ path: "a.txt", offset: 20, limit: 5 })).toMatchObject({
        content: "",
        bytes: 0,
        startLine: 20,
        endLine: 19,
        totalLines: 10,
        hasMore: false,
        nextOffset: null,
      });
      expect(await createReadTool(ws.workspace).execute({ path: "empty.txt", offset: 1 })).toMatchObject({
        content: "",
        endLine: 0,
        totalLines: 0,
        hasMore: false,
      });
    });

    test("counts a last line without a newline and keeps CRLF line endings in the content", async () => {
      const ws = await open(["a.txt=one\r\ntwo\r\nthree"]);
      const read = createReadTool(ws.workspace);
      expect(await read.execute({ path: "a.txt", offset: 2, limit: 1 })).toMatchObject({
        content: "two\r\n",
        startLine: 2,
        endLine: 2,
        totalLines: 3,
        nextOffset: 3,
      });
      expect(await read.execute({ path: "a.txt", offset: 3 })).toMatchObject({
        content: "three",
        endLine: 3,
        hasMore: false,
      });
    });

    test("stops at the byte limit on a line boundary", async () => {
      const ws = await open([`a.txt=${TEN_LINES}`]);
      // "line1\n".."line9\n" are 6 bytes each: 20 bytes hold three whole lines.
      const page = await createReadTool(ws.workspace, { maxBytes: 20 }).execute({
        path: "a.txt",
        offset: 2,
        limit: 100,
      });
      expect(page).toMatchObject({ content: "line2\nline3\nline4\n", endLine: 4, hasMore: true, nextOffset: 5 });
    });

    test("cuts one line longer than the byte limit on a character boundary", async () => {
      const ws = await open(["a.txt=ééééééé\nnext\n"]);
      const page = await createReadTool(ws.workspace, { maxBytes: 5 }).execute({ path: "a.txt", offset: 1, limit: 1 });
      expect(page).toMatchObject({ content: "éé", bytes: 4, endLine: 1, lineCut: true, hasMore: true, nextOffset: 2 });
    });

    test("refuses a large file without a window, with a hint on paging", async () => {
      const ws = await open([`a.txt=${TEN_LINES}`]);
      const error = await errorOf(createReadTool(ws.workspace, { maxBytes: 20 }).execute({ path: "a.txt" }));
      expect(error.code).toBe("FILE_TOO_LARGE");
      expect(error.message).toBe(`Cannot read 'a.txt': the file has ${TEN_LINES.length} bytes, more than 20`);
      expect(error.hint).toContain(`${TEN_LINES.length} bytes`);
      expect(error.hint).toContain("offset");
      expect(error.hint).toContain("limit");
    });

    test("reads a window from the middle of a 5 MB file, returning only what fits", async () => {
      const ws = await open([`big.txt=${BIG_FILE}`]);
      const page = await createReadTool(ws.workspace).execute({ path: "big.txt", offset: 25_000, limit: 100_000 });
      const fit = Math.floor(65_536 / LINE_BYTES);
      expect(page.bytes).toBe(fit * LINE_BYTES);
      expect(page.content.startsWith(bigLine(25_000))).toBe(true);
      expect(page.content.endsWith(bigLine(25_000 + fit - 1))).toBe(true);
      expect(page).toMatchObject({
        startLine: 25_000,
        endLine: 25_000 + fit - 1,
        totalLines: BIG_LINES,
        hasMore: true,
        nextOffset: 25_000 + fit,
        fileBytes: BIG_FILE.length,
      });
      expect(await codeOf(createReadTool(ws.workspace).execute({ path: "big.txt" }))).toBe("FILE_TOO_LARGE");
    });

    test("reads a window of a large file in bounded chunks without loading the rest", async () => {
      const ws = await open([`big.txt=${BIG_FILE}`]);
      const spy = spyOn(ws.workspace.host);
      const spied: Workspace = await openWorkspace(ws.workspace.rootEntry, { host: spy.host });
      // Too large to count its lines: only the start of the file is read.
      const read = createReadTool(spied, { countLinesMaxBytes: 1_000_000 });
      const page = await read.execute({ path: "big.txt", offset: 1, limit: 10 });
      expect(page).toMatchObject({ startLine: 1, endLine: 10, hasMore: true, nextOffset: 11 });
      expect(page.totalLines).toBeUndefined();
      expect(Math.max(...spy.reads)).toBeLessThanOrEqual(65_536);
      expect(spy.bytesRead()).toBeLessThanOrEqual(2 * 65_536);
      // Counting the lines of the whole file still reads it in chunks only.
      spy.reads.length = 0;
      await createReadTool(spied).execute({ path: "big.txt", offset: 40_000, limit: 10 });
      expect(Math.max(...spy.reads)).toBeLessThanOrEqual(65_536);
    });

    test("refuses a window that starts beyond the scan limit", async () => {
      const ws = await open([`a.txt=${TEN_LINES}`]);
      // Line 3 starts at byte 12, line 2 at byte 6.
      const read = createReadTool(ws.workspace, { maxScanBytes: 12 });
      const error = await errorOf(read.execute({ path: "a.txt", offset: 3 }));
      expect(error.code).toBe("FILE_TOO_LARGE");
      expect(error.message).toBe("Cannot read 'a.txt': line 3 does not start within the first 12 bytes");
      expect(await codeOf(read.execute({ path: "a.txt", offset: 9 }))).toBe("FILE_TOO_LARGE");
      expect(await read.execute({ path: "a.txt", offset: 2, limit: 1 })).toMatchObject({ content: "line2\n" });
    });

    test("refuses a bad offset or limit as INVALID_ARGUMENTS", async () => {
      const ws = await open([`a.txt=${TEN_LINES}`]);
      const read = createReadTool(ws.workspace);
      for (const args of [{ offset: 0 }, { offset: 1.5 }, { limit: 0 }, { limit: -1 }, { offset: "2" }]) {
        // Wrong types on purpose (a model's arguments): spread as `object`, so only validate() sees them.
        expect(await codeOf(read.execute({ path: "a.txt", ...(args as object) }))).toBe("INVALID_ARGUMENTS");
      }
    });
  });
}
