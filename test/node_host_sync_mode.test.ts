import * as fs from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Host } from "../src/host.ts";
import { createNodeHost } from "../src/hosts/node.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";

/** What a host call gave: its value, or its host error code and syscall. */
async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    const value = await run();
    return { value };
  } catch (error) {
    const { code, syscall } = error as { code?: string; syscall?: string };
    return { code, syscall };
  }
}

// The synchronous mode is the Node host's default (and what `paddock mcp` uses on Node and Bun).
describe("createNodeHost({ syncFileCalls: true }) behaves exactly like createNodeHost({ syncFileCalls: false })", () => {
  let fixture: DiskFixture;
  const sync = createNodeHost({ syncFileCalls: true });
  const async = createNodeHost({ syncFileCalls: false });
  beforeAll(async () => {
    fixture = await diskFixture(["d/", "d/f.txt=hello", "link => d/f.txt", "loop => loop", "dangling => nope"]);
  });
  afterAll(() => fixture?.cleanup());

  const metadata: [string, (host: Host, abs: (p: string) => string) => Promise<unknown>][] = [
    ["realpath of a link", (host, abs) => host.realpath(abs("link"))],
    ["realpath of a missing path", (host, abs) => host.realpath(abs("missing"))],
    ["lstat of a file", async (host, abs) => ({ ...(await host.lstat(abs("d/f.txt"))), mtimeMs: 0 })],
    ["lstat of a link", async (host, abs) => ({ ...(await host.lstat(abs("link"))), mtimeMs: 0 })],
    ["stat through a link", async (host, abs) => ({ ...(await host.stat(abs("link"))), mtimeMs: 0 })],
    ["stat of a loop", (host, abs) => host.stat(abs("loop"))],
    ["stat below a file", (host, abs) => host.stat(abs("d/f.txt/x"))],
    ["readdir", async (host, abs) => (await host.readdir(abs("."))).sort((a, b) => a.name.localeCompare(b.name))],
    ["readdir of a file", (host, abs) => host.readdir(abs("d/f.txt"))],
    ["readlink", (host, abs) => host.readlink(abs("dangling"))],
    ["open with noFollow on a link", (host, abs) => host.open(abs("link"), { read: true, noFollow: true })],
    ["open exclusive over a file", (host, abs) => host.open(abs("d/f.txt"), { write: true, createExclusive: true })],
    ["mkdir over a folder", (host, abs) => host.mkdir(abs("d"))],
    ["rmdir of a full folder", (host, abs) => host.rmdir(abs("d"))],
    ["unlink of a missing file", (host, abs) => host.unlink(abs("missing"))],
    ["rename of a missing file", (host, abs) => host.rename(abs("missing"), abs("other"))],
  ];

  test.each(metadata)("%s", async (_name, run) => {
    expect(await outcome(() => run(sync, fixture.abs))).toEqual(await outcome(() => run(async, fixture.abs)));
  });

  test("a file written, synced, read and renamed through it has the exact bytes", async () => {
    const file = await sync.open(fixture.abs("new.txt"), { write: true, createExclusive: true, mode: 0o600 });
    await file.write(new TextEncoder().encode("héllo"), 0);
    await file.sync();
    const stat = await file.stat();
    await file.close();
    await file.close();
    expect(stat).toMatchObject({ kind: "file", size: 6, mode: 0o600 });
    await sync.rename(fixture.abs("new.txt"), fixture.abs("renamed.txt"));
    const reader = await sync.open(fixture.abs("renamed.txt"), { read: true, noFollow: true });
    const buffer = new Uint8Array(16);
    const count = await reader.read(buffer, 0);
    await reader.close();
    expect(new TextDecoder().decode(buffer.subarray(0, count))).toBe("héllo");
    expect(fs.readFileSync(fixture.abs("renamed.txt"), "utf8")).toBe("héllo");
    const folder = await sync.openDir(fixture.abs("."));
    await folder.sync();
    await folder.close();
    await sync.unlink(fixture.abs("renamed.txt"));
    expect(fs.existsSync(fixture.abs("renamed.txt"))).toBe(false);
  });
});
