import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import {
  createCodingTools,
  createReadTool,
  createWriteTool,
  executeToolCall,
  openWorkspace,
  ToolRegistry,
  Workspace,
} from "../mod.ts";
import { type Host, type HostErrorCode, isHostError, isShellProvider } from "../host.ts";
import { MAX_SYMLINK_HOPS } from "../src/core/limits.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import {
  createMemoryHost,
  MEMORY_ENVIRONMENT,
  MEMORY_EXEC_PATH,
  MEMORY_HOST_DEV,
  MEMORY_WORKSPACE_ROOT,
  type MemoryHost,
  MemoryWorkspace,
} from "../testing.ts";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { SYMLINK_CASES, SYMLINK_TREE } from "./cases/symlink_fixtures.ts";
import { PATH_TOOLS, REPLAY_TREE } from "./cases/tool_replay.ts";
import {
  addMemoryOutside,
  MEMORY_HOST,
  MEMORY_OUTSIDE,
  memoryTestWorkspace,
  TEST_HOSTS,
  type TestWorkspace,
} from "./helpers/hosts.ts";
import { replayHostile, replayLink } from "./helpers/replay.ts";
import { skipNote } from "./helpers/runtime.ts";
import { runsHostIndependentCases } from "./helpers/suite_pass.ts";

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// The host error code an operation rejects with, or "ok".
async function outcome(operation: () => Promise<unknown>): Promise<HostErrorCode | "ok"> {
  try {
    await operation();
    return "ok";
  } catch (error) {
    if (isHostError(error)) return error.code;
    throw error;
  }
}

async function writeWhole(host: Host, at: string, content: string): Promise<void> {
  const file = await host.open(at, { write: true, createExclusive: true, mode: 0o644 });
  await file.write(new TextEncoder().encode(content), 0);
  await file.close();
}

async function readWhole(host: Host, at: string): Promise<string> {
  const file = await host.open(at, { read: true });
  try {
    const size = (await file.stat()).size;
    const buffer = new Uint8Array(size);
    let length = 0;
    while (length < size) {
      const count = await file.read(buffer.subarray(length), length);
      if (count === 0) break;
      length += count;
    }
    return text(buffer.subarray(0, length));
  } finally {
    await file.close();
  }
}

function memoryTree(): MemoryHost {
  const host = createMemoryHost();
  host.mkdirSync("/w/d/e", { recursive: true });
  host.writeFileSync("/w/f", "file f");
  host.writeFileSync("/w/d/g", "file g");
  host.symlinkSync("f", "/w/link");
  host.symlinkSync("missing", "/w/dangling");
  host.symlinkSync("d", "/w/dir-link");
  return host;
}

describe("the memory host", () => {
  test("reports fixed facts: runtime, platform, umask, cwd, environment, exec path and one device", async () => {
    const host = memoryTree();
    expect([host.runtime, host.platform, host.umask(), host.cwd()]).toEqual(["memory", "posix", 0o022, "/"]);
    expect(host.environment()).toEqual(MEMORY_ENVIRONMENT);
    host.environment().PATH = "changed";
    expect(host.environment().PATH).toBe(MEMORY_ENVIRONMENT.PATH);
    expect(host.execPath()).toBe(MEMORY_EXEC_PATH);
    for (const at of ["/", "/w", "/w/f", "/w/link"]) expect((await host.lstat(at)).dev).toBe(MEMORY_HOST_DEV);
  });

  test("keeps an object's identity across a rename, for files and folders", async () => {
    const host = memoryTree();
    const file = await host.lstat("/w/f");
    const folder = await host.lstat("/w/d");
    await host.rename("/w/f", "/w/d/e/moved");
    await host.rename("/w/d", "/w/renamed");
    expect(await host.lstat("/w/renamed/e/moved")).toMatchObject({ kind: "file", dev: file.dev, ino: file.ino });
    expect(await host.lstat("/w/renamed")).toMatchObject({ kind: "directory", ino: folder.ino });
    expect(await outcome(() => host.lstat("/w/f"))).toBe("ENOENT");
  });

  test("never reuses an inode number, even for a name deleted and created again", async () => {
    const host = createMemoryHost();
    const seen = new Set<number>();
    for (let round = 0; round < 5; round++) {
      await writeWhole(host, "/x", `round ${round}`);
      await host.mkdir("/dir");
      await host.symlink("x", "/ln");
      for (const at of ["/x", "/dir", "/ln"]) {
        const { ino } = await host.lstat(at);
        expect(seen.has(ino)).toBe(false);
        seen.add(ino);
      }
      await host.unlink("/x");
      await host.rmdir("/dir");
      await host.unlink("/ln");
    }
    expect(seen.size).toBe(15);
  });

  test("exclusive create fails with EEXIST on a dangling link and creates nothing at its target", async () => {
    const host = memoryTree();
    expect(await outcome(() => host.open("/w/dangling", { write: true, createExclusive: true }))).toBe("EEXIST");
    expect(await outcome(() => host.open("/w/f", { write: true, createExclusive: true }))).toBe("EEXIST");
    expect(await outcome(() => host.open("/w/d", { write: true, createExclusive: true }))).toBe("EEXIST");
    expect(await outcome(() => host.lstat("/w/missing"))).toBe("ENOENT");
    expect(await outcome(() => host.open("/w/nope/x", { write: true, createExclusive: true }))).toBe("ENOENT");
    expect(await outcome(() => host.open("/w/f/x", { write: true, createExclusive: true }))).toBe("ENOTDIR");
  });

  test("exclusive create makes a file with the mode less the umask", async () => {
    const host = createMemoryHost();
    const file = await host.open("/new", { write: true, createExclusive: true, mode: 0o666 });
    expect(await file.stat()).toMatchObject({ kind: "file", size: 0, mode: 0o644 });
    await file.chmod?.(0o640); // fchmod on the handle
    expect((await host.lstat("/new")).mode).toBe(0o640);
    await file.close();
    await (await host.open("/private", { write: true, createExclusive: true })).close();
    expect((await host.lstat("/private")).mode).toBe(0o600);
    await host.mkdir("/folder");
    expect((await host.lstat("/folder")).mode).toBe(0o755);
  });

  test("noFollow refuses a final link with ELOOP and follows links on the way", async () => {
    const host = memoryTree();
    expect(await outcome(() => host.open("/w/link", { read: true, noFollow: true }))).toBe("ELOOP");
    expect(await outcome(() => host.open("/w/dangling", { read: true, noFollow: true }))).toBe("ELOOP");
    const through = await host.open("/w/dir-link/g", { read: true, noFollow: true });
    expect((await through.stat()).ino).toBe((await host.lstat("/w/d/g")).ino);
    await through.close();
    expect(await readWhole(host, "/w/link")).toBe("file f");
    expect(await outcome(() => host.open("/w/dangling", { read: true }))).toBe("ENOENT");
  });

  test("opens without creating or truncating, and refuses to write a folder", async () => {
    const host = memoryTree();
    expect(await outcome(() => host.open("/w/missing", { write: true }))).toBe("ENOENT");
    expect(await outcome(() => host.open("/w/d", { write: true }))).toBe("EISDIR");
    const file = await host.open("/w/f", { write: true });
    await file.write(new TextEncoder().encode("F"), 0);
    await file.close();
    expect(await readWhole(host, "/w/f")).toBe("File f");
    const folder = await host.open("/w/d", { read: true });
    expect(await outcome(() => folder.read(new Uint8Array(4), 0))).toBe("EISDIR");
    await folder.close();
  });

  test("handles do positional reads and writes, fill holes with zeros, and fail once closed", async () => {
    const host = createMemoryHost();
    const file = await host.open("/p", { read: true, write: true, createExclusive: true });
    await file.write(new Uint8Array([1, 2, 3]), 0);
    await file.write(new Uint8Array([9]), 6);
    await file.write(new Uint8Array([7]), 1);
    expect((await file.stat()).size).toBe(7);
    const buffer = new Uint8Array(10);
    expect(await file.read(buffer, 0)).toBe(7);
    expect([...buffer.subarray(0, 7)]).toEqual([1, 7, 3, 0, 0, 0, 9]);
    expect(await file.read(buffer, 5)).toBe(2);
    expect(await file.read(buffer, 7)).toBe(0);
    await file.sync();
    await file.close();
    await file.close(); // safe twice
    expect(await outcome(() => file.read(buffer, 0))).toBe("EIO");
    expect(await outcome(() => file.write(buffer, 0))).toBe("EIO");
    const readOnly = await host.open("/p", { read: true });
    expect(await outcome(() => readOnly.write(buffer, 0))).toBe("EIO");
    await readOnly.close();
  });

  test("updates mtime on write and size on growth; a link's size is its target's length", async () => {
    let clock = 1_000;
    const host = createMemoryHost({ now: () => clock });
    await writeWhole(host, "/t", "abc");
    expect(await host.stat("/t")).toMatchObject({ size: 3, mtimeMs: 1_000, birthtimeMs: 1_000 });
    clock = 2_000;
    const file = await host.open("/t", { write: true });
    await file.write(new TextEncoder().encode("abcdef"), 0);
    await file.close();
    expect(await host.stat("/t")).toMatchObject({ size: 6, mtimeMs: 2_000, birthtimeMs: 1_000 });
    await host.symlink("t", "/l");
    expect(await host.lstat("/l")).toMatchObject({ kind: "symlink", size: 1 });
    expect(await host.stat("/l")).toMatchObject({ kind: "file", size: 6 });
  });

  test("rename replaces a file atomically: the name holds the new file, a handle on the old one still reads it", async () => {
    const host = memoryTree();
    await writeWhole(host, "/w/new", "new content");
    const newIno = (await host.lstat("/w/new")).ino;
    const oldHandle = await host.open("/w/f", { read: true });
    await host.rename("/w/new", "/w/f");
    expect((await host.lstat("/w/f")).ino).toBe(newIno);
    expect(await readWhole(host, "/w/f")).toBe("new content");
    expect(await outcome(() => host.lstat("/w/new"))).toBe("ENOENT");
    const buffer = new Uint8Array(6);
    expect(await oldHandle.read(buffer, 0)).toBe(6);
    expect(text(buffer)).toBe("file f");
    await oldHandle.close();
  });

  test("rename renames a link itself, never its target", async () => {
    const host = memoryTree();
    await host.rename("/w/link", "/w/link2");
    expect(await host.readlink("/w/link2")).toBe("f");
    expect(await readWhole(host, "/w/f")).toBe("file f");
  });

  test("rename reports EISDIR, ENOTDIR, ENOTEMPTY, EINVAL, ENOENT and EBUSY as Linux does", async () => {
    const host = memoryTree();
    await host.mkdir("/w/empty");
    expect(await outcome(() => host.rename("/w/f", "/w/d"))).toBe("EISDIR");
    expect(await outcome(() => host.rename("/w/d", "/w/f"))).toBe("ENOTDIR");
    expect(await outcome(() => host.rename("/w/empty", "/w/d"))).toBe("ENOTEMPTY");
    expect(await outcome(() => host.rename("/w/d", "/w/d/e/inside"))).toBe("EINVAL");
    expect(await outcome(() => host.rename("/w/missing", "/w/x"))).toBe("ENOENT");
    expect(await outcome(() => host.rename("/w/f", "/w/missing/x"))).toBe("ENOENT");
    expect(await outcome(() => host.rename("/", "/w/root"))).toBe("EBUSY");
    expect(await outcome(() => host.rename("/w/f", "/w/f"))).toBe("ok");
    expect(await outcome(() => host.rename("/w/d", "/w/empty"))).toBe("ok"); // an empty folder is replaced
    expect((await host.readdir("/w/empty")).map((entry) => entry.name)).toEqual(["e", "g"]);
  });

  test("unlink, mkdir, rmdir and readlink report the Linux codes", async () => {
    const host = memoryTree();
    expect(await outcome(() => host.unlink("/w/missing"))).toBe("ENOENT");
    expect(await outcome(() => host.unlink("/w/d"))).toBe("EISDIR");
    expect(await outcome(() => host.mkdir("/w/f"))).toBe("EEXIST");
    expect(await outcome(() => host.mkdir("/w/dangling"))).toBe("EEXIST");
    expect(await outcome(() => host.mkdir("/w/missing/x"))).toBe("ENOENT");
    expect(await outcome(() => host.rmdir("/w/d"))).toBe("ENOTEMPTY");
    expect(await outcome(() => host.rmdir("/w/f"))).toBe("ENOTDIR");
    expect(await outcome(() => host.rmdir("/w/dir-link"))).toBe("ENOTDIR");
    expect(await outcome(() => host.rmdir("/"))).toBe("EBUSY");
    expect(await outcome(() => host.readlink("/w/f"))).toBe("EINVAL");
    expect(await outcome(() => host.readlink("/w/missing"))).toBe("ENOENT");
    expect(await outcome(() => host.lstat("/w/f/x"))).toBe("ENOTDIR");
    expect(await outcome(() => host.readdir("/w/f"))).toBe("ENOTDIR");
    // Unlinking a link removes the link only.
    await host.unlink("/w/link");
    expect(await readWhole(host, "/w/f")).toBe("file f");
  });

  test("realpath resolves relative and absolute links and '..' after a link, physically", async () => {
    const host = memoryTree();
    host.symlinkSync("/w/d/e", "/w/abs");
    host.symlinkSync("../g", "/w/d/e/up");
    expect(await host.realpath("/w/link")).toBe("/w/f");
    expect(await host.realpath("/w/dir-link/e/../g")).toBe("/w/d/g");
    expect(await host.realpath("/w/abs/..")).toBe("/w/d");
    expect(await host.realpath("/w/abs/up")).toBe("/w/d/g");
    expect(await host.realpath("/../w/./d")).toBe("/w/d");
    expect(await host.realpath("/")).toBe("/");
    expect(await outcome(() => host.realpath("/w/dangling"))).toBe("ENOENT");
  });

  test(`realpath follows a chain of ${MAX_SYMLINK_HOPS} links and ends a longer chain or a loop with ELOOP`, async () => {
    const host = createMemoryHost();
    await writeWhole(host, "/end", "end");
    for (let i = 0; i < MAX_SYMLINK_HOPS + 1; i++) await host.symlink(i === 0 ? "end" : `l${i - 1}`, `/l${i}`);
    expect(await host.realpath(`/l${MAX_SYMLINK_HOPS - 1}`)).toBe("/end");
    expect(await outcome(() => host.realpath(`/l${MAX_SYMLINK_HOPS}`))).toBe("ELOOP");
    await host.symlink("b", "/a");
    await host.symlink("a", "/b");
    await host.symlink("self", "/self");
    for (const at of ["/a", "/self", "/a/x"]) {
      expect(await outcome(() => host.realpath(at))).toBe("ELOOP");
      expect(await outcome(() => host.stat(at))).toBe("ELOOP");
    }
    expect((await host.lstat("/a")).kind).toBe("symlink");
  });

  test("readdir lists kinds without following links, sorted, and lists a folder through a link", async () => {
    const host = memoryTree();
    expect(await host.readdir("/w")).toEqual([
      { name: "d", kind: "directory" },
      { name: "dangling", kind: "symlink" },
      { name: "dir-link", kind: "symlink" },
      { name: "f", kind: "file" },
      { name: "link", kind: "symlink" },
    ]);
    expect(await host.readdir("/w/dir-link")).toEqual([{ name: "e", kind: "directory" }, { name: "g", kind: "file" }]);
  });

  test("chmod sets the bits of a link's target", async () => {
    const host = memoryTree();
    await host.chmod("/w/link", 0o4750);
    expect((await host.lstat("/w/f")).mode).toBe(0o4750);
    expect((await host.lstat("/w/link")).mode).toBe(0o777);
  });

  test("cannot spawn: spawn rejects with UNSUPPORTED", async () => {
    const host = createMemoryHost();
    const launch = host.scriptLaunch({ scriptPath: "/s.cjs", bootstrapPath: "/b.cjs", args: ["a"], confineTo: ["/"] });
    expect(launch.argv).toEqual([MEMORY_EXEC_PATH, "/s.cjs", "a"]);
    await expect(host.spawn({ argv: launch.argv, cwd: "/", env: {} })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      syscall: "spawn",
    });
  });

  test("failNext makes the next call of one primitive fail once", async () => {
    const host = memoryTree();
    host.failNext("rename", "EXDEV");
    expect(await outcome(() => host.rename("/w/f", "/w/g"))).toBe("EXDEV");
    expect(await outcome(() => host.rename("/w/f", "/w/g"))).toBe("ok");
  });

  test("openWorkspace() opens a folder of a memory host, given absolute or relative to its cwd", async () => {
    const host = memoryTree();
    const workspace = await openWorkspace("/w", { host });
    expect(workspace.root).toBe("/w");
    expect(workspace.rootIdentity.ino).toBe((await host.lstat("/w")).ino);
    expect((await createReadTool(workspace).execute({ path: "dir-link/g" })).content).toBe("file g");
    expect((await openWorkspace("w/d", { host })).root).toBe("/w/d");
    host.symlinkSync("/w", "/root-link");
    const viaLink = await openWorkspace("/root-link", { host });
    expect([viaLink.root, viaLink.rootEntry]).toEqual(["/w", "/root-link"]);
    await expect(openWorkspace("/w/f", { host })).rejects.toMatchObject({ code: "WORKSPACE_ROOT_INVALID" });
    await expect(openWorkspace("/nope", { host })).rejects.toMatchObject({ code: "WORKSPACE_ROOT_INVALID" });
  });

  test("a root deleted and re-created gives WORKSPACE_ROOT_CHANGED (a new inode number)", async () => {
    const host = createMemoryHost();
    host.mkdirSync("/w");
    const workspace = await openWorkspace("/w", { host });
    await host.rmdir("/w");
    await host.mkdir("/w");
    await expect(createWriteTool(workspace).execute({ path: "x", content: "x" })).rejects.toMatchObject({
      code: "WORKSPACE_ROOT_CHANGED",
    });
    expect(await host.readdir("/w")).toEqual([]);
  });
});

// The same operations on a real temp folder (the running runtime's host) and
// on a memory host must end with the same codes: the memory host is checked
// against the disk, not only against what we believe Linux does.
describe("the memory host against the disk (differential)", () => {
  type Step = [string, (host: Host, at: (relative: string) => string) => Promise<unknown>];
  const steps: Step[] = [
    ["mkdir d", (h, at) => h.mkdir(at("d"))],
    ["mkdir d/e", (h, at) => h.mkdir(at("d/e"))],
    ["create f", (h, at) => writeWhole(h, at("f"), "f")],
    ["create d/g", (h, at) => writeWhole(h, at("d/g"), "g")],
    ["mkdir over a file", (h, at) => h.mkdir(at("f"))],
    ["mkdir with a missing parent", (h, at) => h.mkdir(at("x/y"))],
    ["create over a file", (h, at) => h.open(at("f"), { write: true, createExclusive: true })],
    ["create below a file", (h, at) => h.open(at("f/x"), { write: true, createExclusive: true })],
    ["open a missing file", (h, at) => h.open(at("missing"), { read: true })],
    ["open a folder for writing", (h, at) => h.open(at("d"), { write: true })],
    ["lstat below a file", (h, at) => h.lstat(at("f/x"))],
    ["readdir a file", (h, at) => h.readdir(at("f"))],
    ["readlink a file", (h, at) => h.readlink(at("f"))],
    ["unlink a folder", (h, at) => h.unlink(at("d"))],
    ["unlink a missing file", (h, at) => h.unlink(at("missing"))],
    ["rmdir a full folder", (h, at) => h.rmdir(at("d"))],
    ["rmdir a file", (h, at) => h.rmdir(at("f"))],
    ["rename a file over a folder", (h, at) => h.rename(at("f"), at("d"))],
    ["rename a folder over a file", (h, at) => h.rename(at("d"), at("f"))],
    ["rename a folder into itself", (h, at) => h.rename(at("d"), at("d/e/x"))],
    ["rename a missing file", (h, at) => h.rename(at("missing"), at("x"))],
    ["rename into a missing folder", (h, at) => h.rename(at("f"), at("missing/x"))],
    ["mkdir empty", (h, at) => h.mkdir(at("empty"))],
    ["rename a full folder over an empty one", (h, at) => h.rename(at("d"), at("empty"))],
    ["openDir a file", (h, at) => h.openDir(at("f"))],
    ["chmod a missing file", (h, at) => h.chmod(at("missing"), 0o600)],
    ["rmdir an emptied folder", async (h, at) => {
      await h.unlink(at("empty/g"));
      await h.rmdir(at("empty/e"));
      await h.rmdir(at("empty"));
    }],
  ];

  async function run(host: Host, base: string): Promise<string[]> {
    const at = (relative: string) => `${base}/${relative}`;
    const codes: string[] = [];
    for (const [name, step] of steps) {
      const result = await outcome(async () => {
        const value = await step(host, at);
        if (value !== null && typeof value === "object" && "close" in value) {
          await (value as { close(): Promise<void> }).close();
        }
      });
      codes.push(`${name}: ${result}`);
    }
    return codes;
  }

  test("gives the same code as the running runtime's host at every step", async () => {
    const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-memory-")));
    try {
      const disk = await run(createAutoHost(), parent);
      const memory = createMemoryHost();
      memory.mkdirSync("/base");
      expect(await run(memory, "/base")).toEqual(disk);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});

describe("MemoryWorkspace", () => {
  test("is a Workspace rooted at /workspace whose identity comes from the memory host", async () => {
    const ws = new MemoryWorkspace({ files: { "a.txt": "a" } });
    expect(ws).toBeInstanceOf(Workspace);
    expect(isShellProvider(ws)).toBe(true);
    expect([ws.root, ws.rootEntry]).toEqual([MEMORY_WORKSPACE_ROOT, MEMORY_WORKSPACE_ROOT]);
    expect(ws.rootIdentity).toMatchObject({ dev: MEMORY_HOST_DEV, ino: ws.host.lstatSync(MEMORY_WORKSPACE_ROOT).ino });
    await ws.checkRoot();
    const again = await openWorkspace(MEMORY_WORKSPACE_ROOT, { host: ws.host });
    expect((await createReadTool(again).execute({ path: "a.txt" })).content).toBe("a");
  });

  test("builds files (text and bytes), folders and links from its options", () => {
    const ws = new MemoryWorkspace({
      files: { "src/a.ts": "export {};\n", "bin/data": new Uint8Array([0, 1, 2]), "empty/": "", "b\\c.txt": "c" },
      links: { "src/link": "a.ts", "out": "/etc" },
    });
    expect(ws.host.readdirSync("/workspace")).toEqual([
      { name: "b", kind: "directory" },
      { name: "bin", kind: "directory" },
      { name: "empty", kind: "directory" },
      { name: "out", kind: "symlink" },
      { name: "src", kind: "directory" },
    ]);
    expect([...ws.host.readFileSync("/workspace/bin/data")]).toEqual([0, 1, 2]);
    expect(ws.host.readlinkSync("/workspace/out")).toBe("/etc");
    expect(ws.snapshotLinks()).toEqual({ out: "/etc", "src/link": "a.ts" });
  });

  test("refuses an option key the path grammar refuses, and keys that clash", () => {
    expect(() => new MemoryWorkspace({ files: { "../x": "x" } })).toThrow(
      expect.objectContaining({ code: "INVALID_RELATIVE_PATH" }),
    );
    expect(() => new MemoryWorkspace({ links: { "/abs": "x" } })).toThrow(
      expect.objectContaining({ code: "INVALID_RELATIVE_PATH" }),
    );
    expect(() => new MemoryWorkspace({ files: { "a": "file", "a/b": "below a file" } })).toThrow(
      expect.objectContaining({
        code: "ALREADY_EXISTS",
        message: "Cannot create 'a/b': something already exists there",
      }),
    );
    expect(() => new MemoryWorkspace({ files: { "a": "file" }, links: { "a": "b" } })).toThrow(
      expect.objectContaining({ code: "ALREADY_EXISTS" }),
    );
  });

  test("snapshot() returns every file's content by sorted relative path, without folders or links", async () => {
    const ws = new MemoryWorkspace({
      files: {
        "z.txt": "z",
        "a/b/c.txt": "c",
        "a/a.txt": "naïve ✓",
        "bad": new Uint8Array([0x61, 0xff]),
        "only-folder/": "",
      },
      links: { "a/link": "b/c.txt", "dir-link": "a" },
    });
    const snapshot = ws.snapshot();
    expect(snapshot).toEqual({ "a/a.txt": "naïve ✓", "a/b/c.txt": "c", "bad": "a\uFFFD", "z.txt": "z" });
    expect(Object.keys(snapshot)).toEqual(["a/a.txt", "a/b/c.txt", "bad", "z.txt"]);
    await createWriteTool(ws).execute({ path: "a/link", content: "through the link" });
    expect(ws.snapshot()["a/b/c.txt"]).toBe("through the link");
  });

  test("passes straight to createCodingTools: read and write work, node_process reports SPAWN_FAILED", async () => {
    const ws = new MemoryWorkspace({ files: { "notes.md": "# notes\n" } });
    const registry = new ToolRegistry(createCodingTools(ws));
    const call = async (name: string, args: unknown) =>
      JSON.parse((await executeToolCall(registry, { id: "1", name, arguments: args })).content);
    expect(await call("read_file", { path: "notes.md" })).toEqual({ path: "notes.md", content: "# notes\n", bytes: 8 });
    expect(await call("write_file", { path: "src/new.ts", content: "x" })).toEqual({ path: "src/new.ts", bytes: 1 });
    const node = await call("node_process", { source: "console.log(1)" });
    expect(node.error.code).toBe("SPAWN_FAILED");
    // The script files node_process wrote are removed again.
    expect(ws.snapshot()).toEqual({ "notes.md": "# notes\n", "src/new.ts": "x" });
  });

  test("write_file keeps an existing file's mode, gives a new file 0o644, and installs a new object", async () => {
    const ws = new MemoryWorkspace({ files: { "script.sh": "#!/bin/sh\n" }, links: { "alias.sh": "script.sh" } });
    await ws.host.chmod("/workspace/script.sh", 0o750);
    const before = ws.host.lstatSync("/workspace/script.sh");
    const write = createWriteTool(ws);
    await write.execute({ path: "alias.sh", content: "#!/bin/sh\necho hi\n" });
    const after = ws.host.lstatSync("/workspace/script.sh");
    expect(after.mode).toBe(0o750);
    expect(after.ino).not.toBe(before.ino); // a new file was renamed into place
    expect(ws.host.lstatSync("/workspace/alias.sh").kind).toBe("symlink");
    await write.execute({ path: "new.txt", content: "x" });
    expect(ws.host.lstatSync("/workspace/new.txt").mode).toBe(0o644);
    expect(ws.snapshot()).toEqual({ "new.txt": "x", "script.sh": "#!/bin/sh\necho hi\n" });
  });

  test("write_file keeps the old target and leaves no temp file when the rename fails", async () => {
    const ws = new MemoryWorkspace({ files: { "t.txt": "old" } });
    ws.host.failNext("rename", "EIO");
    await expect(createWriteTool(ws).execute({ path: "t.txt", content: "new" })).rejects.toMatchObject({
      code: "IO_ERROR",
    });
    expect(ws.snapshot()).toEqual({ "t.txt": "old" });
    expect(ws.host.readdirSync("/workspace").map((entry) => entry.name)).toEqual(["t.txt"]);
  });
});

// Memory host only: `npm test` runs these in its Node pass alone (test/helpers/suite_pass.ts).
describe.runIf(runsHostIndependentCases)(
  "the path tools replay the shared tables on a MemoryWorkspace built by its constructor" +
    skipNote(!runsHostIndependentCases, "memory host only: npm test's Node pass runs it"),
  () => {
    // REPLAY_TREE in the constructor's own terms: outside things live at /outside and /etc.
    function constructed(): TestWorkspace {
      const files: Record<string, string> = {};
      const links: Record<string, string> = {};
      for (const entry of [...REPLAY_TREE, "f"]) {
        const [name, target] = entry.split(" => ");
        if (target !== undefined) {
          links[name] = target.replace(/^@outside/, MEMORY_OUTSIDE).replace(/^@root/, MEMORY_WORKSPACE_ROOT);
        } else if (name.endsWith("/")) files[name] = "";
        else if (name.includes("=")) files[name.split("=")[0]] = name.split("=").slice(1).join("=");
        else files[name] = name;
      }
      const ws = new MemoryWorkspace({ files, links });
      addMemoryOutside(ws);
      return memoryTestWorkspace(ws);
    }

    describe.each(PATH_TOOLS)("$label", (tool) => {
      test.each(HOSTILE_PATHS)("refuses $name with $code and changes nothing", async (row) => {
        await replayHostile(constructed(), tool, row);
      });
      test.each(SYMLINK_CASES)("through $name ($path) does what the table says", async (row) => {
        await replayLink(constructed(), tool, row);
      });
    });
  },
);

describe("MEMORY_HOST", () => {
  test("MEMORY_HOST is in TEST_HOSTS (but for npm test's Deno and Bun passes), without processes, and builds the same tree as the disk", async () => {
    expect(TEST_HOSTS.includes(MEMORY_HOST)).toBe(runsHostIndependentCases);
    expect(MEMORY_HOST.processes).toBe(false);
    const disk = TEST_HOSTS.find((host) => host !== MEMORY_HOST);
    expect(disk?.processes).toBe(true);
    const memory = await MEMORY_HOST.open([...SYMLINK_TREE]);
    const real = await disk!.open([...SYMLINK_TREE]);
    try {
      expect(await memory.listAll()).toEqual(await real.listAll());
      expect(await memory.readRaw("chain1")).toBe(await real.readRaw("chain1"));
      expect(await memory.readRaw("missing")).toBeNull();
      expect(await memory.outsideIntact()).toBe(true);
      expect(await memory.leftovers()).toEqual([]);
    } finally {
      await memory.cleanup();
      await real.cleanup();
    }
  });
});

describe("MemoryWorkspace.exec()", () => {
  const request = { timeoutMs: 1_000, maxOutputBytes: 1_000 };

  test("answers from a map: a string is stdout with exit 0, an object sets every field", async () => {
    const ws = new MemoryWorkspace({
      exec: { "git status": "clean\n", "npm test": { stdout: "1 failed\n", stderr: "boom\n", exitCode: 1 } },
    });
    expect(await ws.exec({ command: "git status", ...request })).toEqual({
      exitCode: 0,
      signal: null,
      stdout: "clean\n",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      timedOut: false,
    });
    expect(await ws.exec({ command: "npm test", ...request })).toMatchObject({
      exitCode: 1,
      stdout: "1 failed\n",
      stderr: "boom\n",
    });
    expect(ws.commands.map((c) => c.command)).toEqual(["git status", "npm test"]);
  });

  test("answers an unscripted command with exit code 127 and says so on stderr", async () => {
    const ws = new MemoryWorkspace({ exec: { "ls": "a\n" } });
    const result = await ws.exec({ command: "rm -rf /", ...request });
    expect(result).toMatchObject({ exitCode: 127, stdout: "", timedOut: false });
    expect(result.stderr).toBe("memory workspace: command not scripted: rm -rf /\n");
    expect(await new MemoryWorkspace().exec({ command: "toString", ...request })).toMatchObject({ exitCode: 127 });
    expect(ws.commands.map((c) => c.command)).toEqual(["rm -rf /"]);
  });

  test("answers from a function, sync or async, which may leave a command unscripted", async () => {
    const ws = new MemoryWorkspace({
      exec: async (command) => {
        await Promise.resolve(); // a reply computed asynchronously
        if (command.startsWith("echo ")) return command.slice(5) + "\n";
        if (command === "false") return { exitCode: 1 };
        return undefined;
      },
    });
    expect((await ws.exec({ command: "echo hi", ...request })).stdout).toBe("hi\n");
    expect(await ws.exec({ command: "false", ...request })).toMatchObject({ exitCode: 1, stdout: "", stderr: "" });
    expect((await ws.exec({ command: "other", ...request })).exitCode).toBe(127);
    expect(ws.commands.map((c) => c.command)).toEqual(["echo hi", "false", "other"]);
  });

  test("keeps the start and the end of output over maxOutputBytes and flags it", async () => {
    const ws = new MemoryWorkspace({ exec: { big: { stdout: "a".repeat(50) + "b".repeat(50), stderr: "short" } } });
    const result = await ws.exec({ command: "big", timeoutMs: 1_000, maxOutputBytes: 20 });
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stderrTruncated).toBe(false);
    expect(result.stdout).toBe("a".repeat(10) + "\n[… 80 bytes omitted …]\n" + "b".repeat(10));
    expect(result.stderr).toBe("short");
  });

  test("cuts output only on UTF-8 character boundaries", async () => {
    const ws = new MemoryWorkspace({ exec: { wide: "é".repeat(20) } });
    const result = await ws.exec({ command: "wide", timeoutMs: 1_000, maxOutputBytes: 7 });
    expect(result.stdout).not.toContain("\uFFFD");
    expect(result.stdout.startsWith("é")).toBe(true);
    expect(result.stdout.endsWith("é")).toBe(true);
  });

  test("rejects with an AbortError when aborted, before or while a reply is pending", async () => {
    let release: () => void = () => {};
    const ws = new MemoryWorkspace({ exec: () => new Promise((resolve) => (release = () => resolve("late"))) });
    const before = new AbortController();
    before.abort();
    await expect(ws.exec({ command: "never", ...request, signal: before.signal })).rejects.toMatchObject({
      name: "AbortError",
    });
    expect(ws.commands.map((c) => c.command)).toEqual([]);
    const during = new AbortController();
    const pending = ws.exec({ command: "slow", ...request, signal: during.signal });
    during.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    release();
    expect(ws.commands.map((c) => c.command)).toEqual(["slow"]);
  });

  test("ends a reply slower than timeoutMs with timedOut", async () => {
    const ws = new MemoryWorkspace({ exec: () => new Promise(() => {}) });
    expect(await ws.exec({ command: "hang", timeoutMs: 10, maxOutputBytes: 100 })).toEqual({
      exitCode: null,
      signal: "SIGKILL",
      stdout: "",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      timedOut: true,
    });
  });

  test("gives child processes its env and inheritEnv on top of the host's fixed environment", () => {
    const ws = new MemoryWorkspace({ env: { CI: "1" }, inheritEnv: ["LANG"] });
    expect(ws.childEnvironment()).toEqual({ ...MEMORY_ENVIRONMENT, CI: "1" });
  });
});
