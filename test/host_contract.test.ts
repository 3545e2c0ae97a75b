import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Host, HostError } from "../host.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { createNodeHost } from "../src/hosts/node.ts";
import { runtime } from "./helpers/runtime.ts";

// The same contract for every host that runs here: the runtime's own host,
// and (under Deno) the Node host too, through Deno's node compatibility.
const hosts: Array<[string, () => Host]> = [[`${runtime} (automatic)`, createAutoHost]];
if (runtime === "deno") hosts.push(["node host under deno", createNodeHost]);

let dir: string;
beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-host-")));
  fs.writeFileSync(path.join(dir, "file"), "content");
  fs.mkdirSync(path.join(dir, "folder"));
  fs.symlinkSync("file", path.join(dir, "link"));
  fs.symlinkSync("missing", path.join(dir, "dangling"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(HostError);
    return (error as HostError).code;
  }
  return "no error";
}

describe.each(hosts)("host contract: %s", (_name, create) => {
  const at = (name: string) => path.join(dir, name);

  test("lstat reports kinds without following links; stat follows them", async () => {
    const host = create();
    expect((await host.lstat(at("file"))).kind).toBe("file");
    expect((await host.lstat(at("folder"))).kind).toBe("directory");
    expect((await host.lstat(at("link"))).kind).toBe("symlink");
    expect((await host.stat(at("link"))).kind).toBe("file");
    expect(await code(host.lstat(at("missing")))).toBe("ENOENT");
    expect(await code(host.lstat(at("file/below")))).toBe("ENOTDIR");
  });

  test("identities match between lstat and an opened handle, and differ between objects", async () => {
    const host = create();
    const byPath = await host.lstat(at("file"));
    const handle = await host.open(at("file"), { read: true });
    const byHandle = await handle.stat();
    await handle.close();
    expect([byHandle.dev, byHandle.ino]).toEqual([byPath.dev, byPath.ino]);
    const other = await host.lstat(at("folder"));
    expect(other.ino).not.toBe(byPath.ino);
  });

  test("readSync, where a host has it, refuses a link, fills only the buffer its caller gives, and declines a large one", () => {
    const host = create();
    const readSync = host.readSync;
    if (readSync === undefined) {
      // Deno's own host has no synchronous read; grep takes the asynchronous way there.
      expect(host.runtime).toBe("deno");
      return;
    }
    const codeOf = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(HostError);
        return (error as HostError).code;
      }
      return "no error";
    };
    expect(codeOf(() => readSync(at("link"), () => new Uint8Array(16)))).toBe("ELOOP");
    expect(codeOf(() => readSync(at("missing"), () => new Uint8Array(16)))).toBe("ENOENT");
    const seen: string[] = [];
    const whole = readSync(at("file"), (stat) => {
      seen.push(`${stat.kind}:${stat.size}`);
      return new Uint8Array(stat.size + 1);
    });
    expect(seen).toEqual(["file:7"]);
    expect(new TextDecoder().decode(whole?.bytes)).toBe("content");
    expect(whole?.stat.kind).toBe("file");
    const part = readSync(at("file"), () => new Uint8Array(3));
    expect(new TextDecoder().decode(part?.bytes)).toBe("con");
    // The caller decides from the handle's metadata; null reads nothing.
    const folder = readSync(at("folder"), (stat) => {
      seen.push(stat.kind);
      return null;
    });
    expect(seen).toEqual(["file:7", "directory"]);
    expect(folder?.bytes.length).toBe(0);
    expect(readSync(at("file"), () => new Uint8Array(1 << 21))).toBeNull(); // over the 1 MiB + 1 a host reads in one step
  });

  test("open with noFollow refuses a final link with ELOOP", async () => {
    const host = create();
    expect(await code(host.open(at("link"), { read: true, noFollow: true }))).toBe("ELOOP");
  });

  test("exclusive create refuses an existing file and a dangling link with EEXIST", async () => {
    const host = create();
    expect(await code(host.open(at("file"), { write: true, createExclusive: true }))).toBe("EEXIST");
    expect(await code(host.open(at("dangling"), { write: true, createExclusive: true }))).toBe("EEXIST");
    expect(fs.existsSync(at("missing"))).toBe(false);
  });

  test("exclusive create honours the mode, and positional I/O round-trips", async () => {
    const host = create();
    const target = at(`new-${Math.random()}`);
    const handle = await host.open(target, { write: true, createExclusive: true, mode: 0o600 });
    await handle.write(new TextEncoder().encode("hello world"), 0);
    await handle.write(new TextEncoder().encode("HELLO"), 0);
    await handle.sync();
    await handle.close();
    expect(fs.readFileSync(target, "utf8")).toBe("HELLO world");
    expect(fs.statSync(target).mode & 0o777).toBe(0o600);
    const reader = await host.open(target, { read: true });
    const buffer = new Uint8Array(5);
    expect(await reader.read(buffer, 6)).toBe(5);
    expect(new TextDecoder().decode(buffer)).toBe("world");
    expect(await reader.read(buffer, 11)).toBe(0);
    await reader.close();
    await reader.close(); // closing twice is safe
    await host.unlink(target);
  });

  test("readdir reports kinds without following links; readlink returns the stored target", async () => {
    const host = create();
    const entries = (await host.readdir(dir)).filter((e) => ["file", "folder", "link", "dangling"].includes(e.name));
    expect(entries.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: "dangling", kind: "symlink" },
      { name: "file", kind: "file" },
      { name: "folder", kind: "directory" },
      { name: "link", kind: "symlink" },
    ]);
    expect(await host.readlink(at("link"))).toBe("file");
  });

  test("mkdir, rename, rmdir and their errors map to the same codes", async () => {
    const host = create();
    const sub = at(`sub-${Math.random()}`);
    await host.mkdir(sub);
    expect(await code(host.mkdir(sub))).toBe("EEXIST");
    fs.writeFileSync(path.join(sub, "x"), "");
    expect(await code(host.rmdir(sub))).toBe("ENOTEMPTY");
    await host.rename(path.join(sub, "x"), path.join(sub, "y"));
    expect(fs.readdirSync(sub)).toEqual(["y"]);
    await host.unlink(path.join(sub, "y"));
    await host.rmdir(sub);
    expect(fs.existsSync(sub)).toBe(false);
  });

  test("realpath resolves links and openDir can be synced", async () => {
    const host = create();
    expect(await host.realpath(at("link"))).toBe(at("file"));
    expect(await code(host.realpath(at("dangling")))).toBe("ENOENT");
    const folder = await host.openDir(dir);
    await folder.sync();
    await folder.close();
  });

  // The exit reaper's listeners go in before the child exists (a loaded host can run the child, and the child its
  // own, before the line after the spawn runs), stay while it runs, and go once it ended or failed to start.
  test.skipIf(process.platform === "win32")(
    "a spawn holds the exit reaper's listeners from before the child runs until it ended, and a failed one leaves none",
    async () => {
      const host = create();
      const before = process.listenerCount("SIGTERM");
      const started = host.spawn({ argv: ["/bin/sh", "-c", "read line"], cwd: dir, env: {}, stdin: "pipe" });
      // Synchronously, before the spawn's promise settles: the child is already running on Node and Bun.
      expect(process.listenerCount("SIGTERM")).toBe(before + 1);
      const child = await started;
      expect(process.listenerCount("SIGTERM")).toBe(before + 1);
      await child.stdin!.close();
      await child.exited;
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(process.listenerCount("SIGTERM")).toBe(before);
      expect(await code(host.spawn({ argv: [at("no-such-program")], cwd: dir, env: {} }))).toBe("ENOENT");
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(process.listenerCount("SIGTERM")).toBe(before);
    },
  );

  test("execPath is the running runtime's own executable", () => {
    const expected = runtime === "deno"
      ? (globalThis as unknown as { Deno: { execPath(): string } }).Deno.execPath()
      : process.execPath;
    expect(create().execPath()).toBe(expected);
  });
});
