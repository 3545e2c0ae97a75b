// Red-team tests: attacks on the path grammar, the confined walk, the atomic
// write, read_file, node_process and executeToolCall. Each test names the
// attack; where a race cannot be closed (no openat in JavaScript), the test
// asserts the documented behaviour and says so in its name.
import * as childProcess from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import {
  createFileInfoTool,
  createNodeProcessTool,
  createReadMediaFileTool,
  createReadTool,
  createWriteTool,
  executeToolCall,
  normalizeWorkspacePath,
  openWorkspace,
  ToolRegistry,
} from "../mod.ts";
import type { Host, HostFile } from "../host.ts";
import { MAX_PATH_BYTES, MAX_SEGMENT_BYTES, MAX_SYMLINK_HOPS } from "../src/core/limits.ts";
import { MINIMAL_ENVIRONMENT_NAMES } from "../src/core/process/environment.ts";
import { type MemoryHost, MemoryWorkspace } from "../testing.ts";
import { diskFixture, hasProgram, leftovers, listAll, OUTSIDE_SECRET, type Tree } from "./helpers/fixture.ts";
import { listMemory, MEMORY_OUTSIDE, memoryFixture, TEST_HOSTS } from "./helpers/hosts.ts";
import { onBun, onDeno, runtime } from "./helpers/runtime.ts";
import { callTool as call, withReadWriteWorkspace as withHost } from "./helpers/tool_call.ts";

// ---------------------------------------------------------------------------
// Race harness: a real workspace (disk or memory) plus raw powers of "another
// process" that can write inside the workspace: move a folder away and put a
// link to the outside folder in its place.
interface RaceFixture {
  name: string;
  root: string;
  base: Host;
  /** Replaces the workspace folder `relative` with a link to the outside folder (the folder moves to `relative-moved`). */
  swapForOutsideLink(relative: string): Promise<void>;
  /** Everything in the outside folder, relative, sorted. */
  outsideEntries(): string[];
  /** Leftover temp files in the workspace. */
  leftovers(): string[];
  /** Rewrites a workspace file in place (same identity), as another process would. */
  rewriteInPlace(relative: string, content: string): void;
  cleanup(): void;
}

type RaceHostName = "disk" | "memory";
const RACE_HOSTS: RaceHostName[] = ["disk", "memory"];

async function raceFixture(kind: RaceHostName, tree: Tree): Promise<RaceFixture> {
  if (kind === "disk") {
    const fixture = await diskFixture(tree);
    return {
      name: runtime,
      root: fixture.root,
      base: fixture.host,
      swapForOutsideLink: (relative) => {
        fs.renameSync(fixture.abs(relative), fixture.abs(`${relative}-moved`));
        fs.symlinkSync(fixture.outside, fixture.abs(relative));
        return Promise.resolve();
      },
      outsideEntries: () => listAll(fixture.outside),
      leftovers: () => leftovers(fixture.root),
      rewriteInPlace: (relative, content) => fs.writeFileSync(fixture.abs(relative), content),
      cleanup: () => fixture.cleanup(),
    };
  }
  const fixture = memoryFixture(tree);
  const memory = fixture.workspace;
  const host: MemoryHost = memory.host;
  return {
    name: "memory",
    root: memory.root,
    base: host,
    swapForOutsideLink: async (relative) => {
      await host.rename(`${memory.root}/${relative}`, `${memory.root}/${relative}-moved`);
      await host.symlink(MEMORY_OUTSIDE, `${memory.root}/${relative}`);
    },
    outsideEntries: () => listMemory(host, MEMORY_OUTSIDE),
    leftovers: () => listMemory(host, memory.root).filter((entry) => /(^|\/)\.paddock-tmp-/.test(entry)),
    rewriteInPlace: (relative, content) => host.writeFileSync(`${memory.root}/${relative}`, content),
    cleanup: () => {},
  };
}

describe("races: another process swaps a folder for a link to the outside", () => {
  // `handles`: the walk holds each folder, so the call goes on in the folder it
  // held (moved aside, still inside) and succeeds; `paths` (the fallback): the
  // chain is re-verified and the call refuses. Neither touches the outside.
  const CONFINEMENTS = ["handles", "paths"] as const;
  for (const kind of RACE_HOSTS) {
    for (const confinement of CONFINEMENTS) {
      const open = (root: string, host: Host) =>
        openWorkspace(root, { host, confinement: confinement === "paths" ? "paths" : "auto" });
      const label = `[${kind}, ${confinement}]`;

      test(`${label} write_file creates nothing outside when a folder is swapped between the walk and the creation of a missing subfolder`, async () => {
        // The walk holds 'a', then creates 'a/b'. If 'a' became a link to the
        // outside in between, a mkdir by path would create 'outside/b'.
        const fixture = await raceFixture(kind, ["a/"]);
        try {
          let swapped = false;
          const host: Host = {
            ...fixture.base,
            mkdir: async (at, mode) => {
              if (!swapped && at.endsWith("/b")) {
                swapped = true;
                await fixture.swapForOutsideLink("a");
              }
              return await fixture.base.mkdir(at, mode);
            },
          };
          const workspace = await open(fixture.root, host);
          const write = createWriteTool(workspace).execute({ path: "a/b/f.txt", content: "pwned" });
          if (confinement === "paths") await expect(write).rejects.toMatchObject({ code: "PATH_CHANGED" });
          else await expect(write).resolves.toMatchObject({ bytes: 5 });
          expect(swapped).toBe(true);
          expect(fixture.outsideEntries()).toEqual(["secret.txt"]);
          expect(fixture.leftovers()).toEqual([]);
        } finally {
          fixture.cleanup();
        }
      });

      test(`${label} write_file writes no byte outside when the parent folder is swapped just before the temp file is created`, async () => {
        const fixture = await raceFixture(kind, ["d/f.txt=old"]);
        try {
          let swapped = false;
          const outsideAtWrite: string[][] = [];
          const host: Host = {
            ...fixture.base,
            open: async (at, options) => {
              if (options.createExclusive && !swapped) {
                swapped = true;
                await fixture.swapForOutsideLink("d");
              }
              const file = await fixture.base.open(at, options);
              return {
                ...file,
                write: (data: Uint8Array, position: number) => {
                  outsideAtWrite.push(fixture.outsideEntries());
                  return file.write(data, position);
                },
              };
            },
          };
          const workspace = await open(fixture.root, host);
          const write = createWriteTool(workspace).execute({ path: "d/f.txt", content: "pwned" });
          if (confinement === "paths") await expect(write).rejects.toMatchObject({ code: "PATH_CHANGED" });
          else await expect(write).resolves.toMatchObject({ bytes: 5 });
          expect(swapped).toBe(true);
          // No byte was written while our temp file sat in the outside folder.
          for (const entries of outsideAtWrite) expect(entries).toEqual(["secret.txt"]);
          expect(fixture.outsideEntries()).toEqual(["secret.txt"]);
          expect(fixture.leftovers()).toEqual([]);
        } finally {
          fixture.cleanup();
        }
      });

      test(`${label} write_file does not touch the outside when the parent is swapped right before the rename`, async () => {
        const fixture = await raceFixture(kind, ["d/f.txt=old"]);
        try {
          let swapped = false;
          const host: Host = {
            ...fixture.base,
            rename: async (from, to) => {
              if (!swapped) {
                swapped = true;
                await fixture.swapForOutsideLink("d");
              }
              return await fixture.base.rename(from, to);
            },
          };
          const workspace = await open(fixture.root, host);
          const write = createWriteTool(workspace).execute({ path: "d/f.txt", content: "pwned" });
          // `paths`: the rename by path goes through the link and finds no temp file
          // there (the fallback's documented remainder: the temp file stays in the
          // folder that was moved aside, where no path leads any more).
          if (confinement === "paths") await expect(write).rejects.toMatchObject({ code: "NOT_FOUND" });
          else {
            await expect(write).resolves.toMatchObject({ bytes: 5 });
            expect(fixture.leftovers()).toEqual([]);
          }
          expect(fixture.outsideEntries()).toEqual(["secret.txt"]);
        } finally {
          fixture.cleanup();
        }
      });

      test(`${label} read_file returns nothing from outside when the parent is swapped between the walk and the open`, async () => {
        const fixture = await raceFixture(kind, ["d/secret.txt=inside"]);
        try {
          let swapped = false;
          const host: Host = {
            ...fixture.base,
            open: async (at, options) => {
              if (!swapped) {
                swapped = true;
                await fixture.swapForOutsideLink("d");
              }
              return await fixture.base.open(at, options);
            },
          };
          const workspace = await open(fixture.root, host);
          const result = await createReadTool(workspace).execute({ path: "d/secret.txt" }).catch((e) => e);
          if (confinement === "paths") expect(result).toMatchObject({ code: "PATH_CHANGED" });
          else expect(result).toEqual({ path: "d/secret.txt", content: "inside", bytes: 6 });
          expect(JSON.stringify(result)).not.toContain(OUTSIDE_SECRET);
        } finally {
          fixture.cleanup();
        }
      });

      test(`${label} read_media_file returns no byte from outside when the parent is swapped between the walk and the open (the same name there)`, async () => {
        const fixture = await raceFixture(kind, ["d/secret.txt=GIF89a inside"]);
        try {
          let swapped = false;
          const host: Host = {
            ...fixture.base,
            open: async (at, options) => {
              if (!swapped) {
                swapped = true;
                await fixture.swapForOutsideLink("d");
              }
              return await fixture.base.open(at, options);
            },
          };
          const workspace = await open(fixture.root, host);
          const result = await createReadMediaFileTool(workspace).execute({ path: "d/secret.txt" }).catch((e) => e);
          expect(swapped).toBe(true);
          if (confinement === "paths") {
            expect(result).toMatchObject({ code: "PATH_CHANGED" });
          } else {expect(result).toMatchObject({
              path: "d/secret.txt",
              mimeType: "image/gif",
              data: btoa("GIF89a inside"),
            });}
          expect(JSON.stringify(result)).not.toContain(btoa(OUTSIDE_SECRET).slice(0, 8));
        } finally {
          fixture.cleanup();
        }
      });

      test(`${label} get_file_info describes nothing outside when the parent is swapped before the final lstat`, async () => {
        const fixture = await raceFixture(kind, ["d/f.txt=inside"]);
        try {
          let swapped = false;
          const host: Host = {
            ...fixture.base,
            lstat: async (at) => {
              if (!swapped && at.endsWith("f.txt")) {
                swapped = true;
                await fixture.swapForOutsideLink("d");
              }
              return await fixture.base.lstat(at);
            },
          };
          const workspace = await open(fixture.root, host);
          const result = await createFileInfoTool(workspace).execute({ path: "d/f.txt" }).catch((e) => e);
          expect(swapped).toBe(true);
          // `handles`: the lstat happens at the held folder (moved aside, still inside); `paths`: the chain is re-verified.
          if (confinement === "paths") {
            expect(result).toMatchObject({ code: "PATH_CHANGED" });
          } else expect(result).toMatchObject({ path: "d/f.txt", kind: "file", size: 6 });
        } finally {
          fixture.cleanup();
        }
      });
    }
  }
});

// ---------------------------------------------------------------------------
// A Windows host simulated over the memory host: paths are `C:\…`, and every
// path is normalized as Win32 does before the lookup (each component loses
// its final spaces and dots, then `.` and `..` fold), so a name that Windows
// rewrites behaves here as it would there.
function simulatedWindowsHost(memory: MemoryHost): Host {
  const toMemory = (at: string): string => {
    const out: string[] = [];
    for (const raw of at.replace(/^[A-Za-z]:/, "").split(/[\\/]/)) {
      let part = raw.replace(/ +$/, "");
      if (!/^\.+$/.test(part)) part = part.replace(/[. ]+$/, "");
      if (part === "" || part === ".") continue;
      if (part === "..") out.pop();
      else out.push(part);
    }
    return "/" + out.join("/");
  };
  const fromMemory = (at: string): string => "C:" + at.replaceAll("/", "\\");
  return {
    ...memory,
    platform: "win32",
    realpath: async (at) => fromMemory(await memory.realpath(toMemory(at))),
    lstat: (at) => memory.lstat(toMemory(at)),
    stat: (at) => memory.stat(toMemory(at)),
    open: (at, options) => memory.open(toMemory(at), options),
    openDir: (at) => memory.openDir(toMemory(at)),
    chmod: (at, mode) => memory.chmod(toMemory(at), mode),
    rename: (from, to) => memory.rename(toMemory(from), toMemory(to)),
    unlink: (at) => memory.unlink(toMemory(at)),
    mkdir: (at, mode) => memory.mkdir(toMemory(at), mode),
    rmdir: (at) => memory.rmdir(toMemory(at)),
    readdir: (at) => memory.readdir(toMemory(at)),
    readlink: (at) => memory.readlink(toMemory(at)),
  };
}

describe("link targets on a (simulated) Windows host", () => {
  const LINKS: Array<[string, string, string | null]> = [
    // [link target, what it attacks, expected code or null = reads "inside"]
    ["d\\f.txt", "a plain relative target (control)", null],
    ["C:\\workspace\\d\\f.txt", "a plain absolute target (control)", null],
    [".. \\outside\\secret.txt", "'.. ' (dot dot space), which Win32 turns into '..'", "PATH_ESCAPES_WORKSPACE"],
    ["..  /outside/secret.txt", "'..' with two spaces and forward slashes", "PATH_ESCAPES_WORKSPACE"],
    ["d\\.. \\.. \\outside\\secret.txt", "'.. ' twice, from a folder", "PATH_ESCAPES_WORKSPACE"],
    [
      "C:\\workspace\\.. \\outside\\secret.txt",
      "an absolute target under the root holding '.. '",
      "PATH_ESCAPES_WORKSPACE",
    ],
    ["d.\\f.txt", "a folder name with a final dot (Win32 reads 'd')", "PATH_ESCAPES_WORKSPACE"],
    ["d\\f.txt:stream", "an alternate data stream", "PATH_ESCAPES_WORKSPACE"],
    ["d\\CON", "a device name", "PATH_ESCAPES_WORKSPACE"],
  ];
  test.each(LINKS)("read_file through a link to '%s' (%s) gives %s", async (target, _what, code) => {
    const memory = new MemoryWorkspace({ files: { "d/f.txt": "inside" } });
    memory.host.mkdirSync(MEMORY_OUTSIDE);
    memory.host.writeFileSync(`${MEMORY_OUTSIDE}/secret.txt`, OUTSIDE_SECRET);
    memory.host.symlinkSync(target, "/workspace/l");
    const workspace = await openWorkspace("C:\\workspace", { host: simulatedWindowsHost(memory.host) });
    const result = await createReadTool(workspace).execute({ path: "l" }).then((output) => output.content, (e) => e);
    if (code === null) expect(result).toBe("inside");
    else {
      expect(result).toMatchObject({ code });
      expect(JSON.stringify(result)).not.toContain(OUTSIDE_SECRET);
    }
  });
});

describe("Unicode: lone surrogates alias U+FFFD on disk", () => {
  test("the grammar refuses a lone high or low surrogate anywhere in a path", () => {
    for (const hostile of ["a\uD800", "\uDC00", "d/x\uDBFF.txt", "\uDFFF\uD800"]) {
      expect(() => normalizeWorkspacePath(hostile), JSON.stringify(hostile)).toThrow(
        expect.objectContaining({ code: "INVALID_RELATIVE_PATH" }),
      );
    }
    // A proper pair (one code point) is a plain name.
    expect(normalizeWorkspacePath("emoji-\u{1F600}.txt")).toEqual(["emoji-\u{1F600}.txt"]);
  });

  test(`[${runtime}] the runtime really stores a lone surrogate as U+FFFD (why the grammar refuses it)`, async () => {
    const fixture = await diskFixture([]);
    try {
      fs.writeFileSync(fixture.abs("x\uD800"), "lone");
      expect(fs.readFileSync(fixture.abs("x\uFFFD"), "utf8")).toBe("lone");
    } finally {
      fixture.cleanup();
    }
  });

  for (const host of TEST_HOSTS) {
    test(`[${host.name}] write_file refuses a lone surrogate and creates nothing`, async () => {
      await withHost(host.open, ["x\uFFFD=replacement char"], async (ws, registry) => {
        const { body } = await call(registry, "write_file", { path: "x\uD800", content: "overwrite" });
        expect(body).toEqual({
          error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_RELATIVE_PATH", hint: expect.any(String) },
        });
        expect(await ws.readRaw("x\uFFFD")).toBe("replacement char");
      });
    });
  }
});

// ---------------------------------------------------------------------------
// Link targets with odd forms, replayed on every host.
const ODD_LINK_TREE: Tree = [
  "d/",
  "d/f.txt=inside",
  "dot-slash => ./",
  "dots-only => ./././.",
  "d/dot => .",
  "d/trailing => f.txt/",
  "d/double-slash => .//f.txt",
  "d/parent => ..",
  "d/own-parent => ../d",
  "dip-out-and-back => ../workspace/d/f.txt",
  "d/dip-out-and-back => ../../workspace/d/f.txt",
  "root-link => @root",
  "root-link-slash => @root/",
  "abs-through-root-link => @root/root-link/d/f.txt",
  "abs-dotdot-inside => @root/d/../d/f.txt",
  "abs-dotdot-out => @root/d/../../outside/secret.txt",
  "double-slash-abs => //etc/passwd",
  "backslash-out => ..\\outside\\secret.txt",
  "backslash-in => d\\f.txt",
  "d/dangling-dir => missing/",
];

const ODD_LINK_CASES: Array<{ path: string; read: string | null; write: string | null; why: string }> = [
  {
    path: "dot-slash",
    read: "NOT_A_FILE",
    write: "WORKSPACE_ROOT_PROTECTED",
    why: "'./' names the link's own folder (the root)",
  },
  { path: "dot-slash/d/f.txt", read: null, write: null, why: "through './' to a file inside" },
  { path: "dots-only", read: "NOT_A_FILE", write: "WORKSPACE_ROOT_PROTECTED", why: "'./././.' is the root too" },
  { path: "d/dot/f.txt", read: null, write: null, why: "'.' is the link's folder" },
  {
    path: "d/trailing",
    read: "NOT_A_DIRECTORY",
    write: "NOT_A_DIRECTORY",
    why: "a final '/' means a folder, in link targets as in callers' paths (POSIX, Go's os.Root: ENOTDIR)",
  },
  { path: "d/double-slash", read: null, write: null, why: "'//' inside a relative target is one separator" },
  { path: "d/parent/d/f.txt", read: null, write: null, why: "'..' from a folder back to the root" },
  { path: "d/parent/d/parent/d/parent/d/f.txt", read: null, write: null, why: "'..' links stacked" },
  {
    path: "d/own-parent/own-parent/own-parent/f.txt",
    read: null,
    write: null,
    why: "a link to its own folder, repeated",
  },
  { path: "d/parent", read: "NOT_A_FILE", write: "WORKSPACE_ROOT_PROTECTED", why: "'..' to the root is a folder" },
  {
    path: "dip-out-and-back",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    why: "'..' may not climb above the root, even to come back",
  },
  {
    path: "d/dip-out-and-back",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    why: "the same from a folder",
  },
  { path: "root-link/d/f.txt", read: null, write: null, why: "an absolute link to the root" },
  { path: "root-link-slash/d/f.txt", read: null, write: null, why: "an absolute link to the root with a final '/'" },
  { path: "root-link", read: "NOT_A_FILE", write: "WORKSPACE_ROOT_PROTECTED", why: "the root itself is a folder" },
  {
    path: "abs-through-root-link",
    read: null,
    write: null,
    why: "an absolute target naming the root through another link",
  },
  { path: "abs-dotdot-inside", read: null, write: null, why: "'..' in an absolute target that stays under the root" },
  {
    path: "abs-dotdot-out",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    why: "'..' in an absolute target that leaves the root",
  },
  {
    path: "double-slash-abs",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    why: "'//etc' is '/etc' on POSIX",
  },
  {
    path: "backslash-out",
    read: "DANGLING_SYMLINK",
    write: "DANGLING_SYMLINK",
    why: "on POSIX a backslash is part of the name",
  },
  {
    path: "backslash-in",
    read: "DANGLING_SYMLINK",
    write: "DANGLING_SYMLINK",
    why: "on POSIX 'd\\f.txt' is one (missing) name",
  },
  {
    path: "d/dangling-dir/new.txt",
    read: "DANGLING_SYMLINK",
    write: "DANGLING_SYMLINK",
    why: "a folder link to nothing is never followed, not even to create",
  },
];

for (const host of TEST_HOSTS) {
  describe(`odd link targets on the ${host.name} host`, () => {
    test.each(ODD_LINK_CASES)("read_file '$path' gives $read: $why", async ({ path: at, read }) => {
      await withHost(host.open, ODD_LINK_TREE, async (_ws, registry) => {
        const { body } = await call(registry, "read_file", { path: at });
        if (read === null) expect(body.content).toBe("inside");
        else expect(body.error.code).toBe(read);
        expect(JSON.stringify(body)).not.toContain("SECRET");
      });
    });

    test.each(ODD_LINK_CASES)("write_file '$path' gives $write: $why", async ({ path: at, write }) => {
      await withHost(host.open, ODD_LINK_TREE, async (ws, registry) => {
        const before = await ws.listAll();
        const { body } = await call(registry, "write_file", { path: at, content: "new" });
        if (write === null) {
          expect(body.error).toBeUndefined();
          expect(await ws.readRaw("d/f.txt")).toBe("new");
        } else {
          expect(body.error.code).toBe(write);
          expect(await ws.readRaw("d/f.txt")).toBe("inside");
          expect(await ws.listAll()).toEqual(before);
        }
      });
    });

    test(`a chain of exactly ${MAX_SYMLINK_HOPS} links is followed and one more link is SYMLINK_LOOP`, async () => {
      const chain = (n: number, prefix: string) =>
        Array.from({ length: n }, (_, i) => `${prefix}${i} => ${i + 1 < n ? `${prefix}${i + 1}` : "d/f.txt"}`);
      await withHost(host.open, [
        "d/f.txt=inside",
        ...chain(MAX_SYMLINK_HOPS, "ok"),
        ...chain(MAX_SYMLINK_HOPS + 1, "long"),
      ], async (ws, registry) => {
        expect((await call(registry, "read_file", { path: "ok0" })).body.content).toBe("inside");
        expect((await call(registry, "read_file", { path: "long0" })).body.error.code).toBe("SYMLINK_LOOP");
        expect((await call(registry, "write_file", { path: "long0", content: "x" })).body.error.code).toBe(
          "SYMLINK_LOOP",
        );
        expect((await call(registry, "write_file", { path: "ok0", content: "end" })).body.error).toBeUndefined();
        expect(await ws.readRaw("d/f.txt")).toBe("end");
      });
    });

    test("a folder link to its own parent, repeated past the hop limit, is SYMLINK_LOOP and costs no more than the limit", async () => {
      await withHost(host.open, ["d/f.txt=inside", "d/up => .."], async (_ws, registry) => {
        const ok = "d/up/".repeat(MAX_SYMLINK_HOPS) + "d/f.txt";
        const over = "d/up/".repeat(MAX_SYMLINK_HOPS + 1) + "d/f.txt";
        expect((await call(registry, "read_file", { path: ok })).body.content).toBe("inside");
        expect((await call(registry, "read_file", { path: over })).body.error.code).toBe("SYMLINK_LOOP");
      });
    });
  });
}

test(`[${runtime}] the kernel agrees on the hop limit: ${MAX_SYMLINK_HOPS} links open, ${MAX_SYMLINK_HOPS + 1} are ELOOP`, async () => {
  const chain = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => `${prefix}${i} => ${i + 1 < n ? `${prefix}${i + 1}` : "d/f.txt"}`);
  const fixture = await diskFixture([
    "d/f.txt=inside",
    ...chain(MAX_SYMLINK_HOPS, "ok"),
    ...chain(MAX_SYMLINK_HOPS + 1, "long"),
  ]);
  try {
    expect(fs.readFileSync(fixture.abs("ok0"), "utf8")).toBe("inside");
    expect(() => fs.readFileSync(fixture.abs("long0"))).toThrow(expect.objectContaining({ code: "ELOOP" }));
  } finally {
    fixture.cleanup();
  }
});

// ---------------------------------------------------------------------------
// Unicode and case tricks. The grammar refuses what any platform would read
// as something else (device names in any case, '..', separators); look-alike
// characters are plain names everywhere (POSIX and Win32's wide API take them
// literally), so they are accepted and must stay one literal segment.
describe("Unicode and case tricks", () => {
  test.each([
    ["Con", "device name, mixed case"],
    ["cOm1.txt", "COM port with an extension"],
    ["d/LpT³.log", "LPT with a superscript digit"],
    ["coNOUt$", "console output device"],
    ["aux .c", "device name before a space and an extension"],
    ["nul.tar.gz", "device name with two extensions"],
    ["..", "dot dot"],
    ["a/./../b", "dot dot after a dot"],
    ["\u200B..", "a zero-width space then '..' (still ends in a dot)"],
    [".. /x", "'.. ' (dot dot space), which Win32 reads as '..'"],
  ])("the grammar refuses %s (%s)", (hostile) => {
    expect(() => normalizeWorkspacePath(hostile)).toThrow(expect.objectContaining({ code: "INVALID_RELATIVE_PATH" }));
  });

  const LITERAL_NAMES: Array<[string, string]> = [
    ["\uFF0E\uFF0E\uFF0Fx", "fullwidth dots and solidus ('．．／x'), which NFKC would turn into '../x'"],
    ["\uFF0E\uFF0E", "fullwidth dot dot alone"],
    ["..\u2215x", "'..' and a division slash"],
    ["\u2024\u2024", "one-dot leaders"],
    ["..\u200B", "'..' and a zero-width space"],
    ["CON\u200B", "a device name and a zero-width space (not a device on Windows)"],
    ["\u202Etxt.exe", "a right-to-left override"],
    ["\uFEFFbom", "a byte order mark"],
  ];
  for (const host of TEST_HOSTS) {
    test.each(LITERAL_NAMES)(
      `[${host.name}] write_file '%s' (%s) creates exactly that one name at the root`,
      async (name) => {
        await withHost(host.open, [], async (ws, registry) => {
          const { body } = await call(registry, "write_file", { path: name, content: "odd" });
          expect(body).toEqual({ path: name, bytes: 3 });
          expect(await ws.listAll()).toEqual([name]);
          expect((await call(registry, "read_file", { path: name })).body.content).toBe("odd");
        });
      },
    );

    test(`[${host.name}] NFC and NFD spellings are two different files (no normalization on the way)`, async () => {
      await withHost(host.open, [], async (ws, registry) => {
        const nfc = "caf\u00E9.txt";
        const nfd = "cafe\u0301.txt";
        expect((await call(registry, "write_file", { path: nfc, content: "nfc" })).body.error).toBeUndefined();
        expect((await call(registry, "write_file", { path: nfd, content: "nfd" })).body.error).toBeUndefined();
        expect((await call(registry, "read_file", { path: nfc })).body.content).toBe("nfc");
        expect((await call(registry, "read_file", { path: nfd })).body.content).toBe("nfd");
        expect(await ws.listAll()).toEqual([nfd, nfc].sort());
      });
    });
  }
});

// ---------------------------------------------------------------------------
// Exact length limits.
describe("paths at exact length limits", () => {
  const pathOfBytes = (bytes: number): string => {
    // Segments of 'abcd' and separators, padded with 'e's in the last segment.
    const full = Math.floor((bytes - 1) / 5);
    const rest = bytes - full * 5;
    return [...Array(full).fill("abcd"), "e".repeat(rest)].join("/");
  };

  test(`a path of exactly ${MAX_PATH_BYTES} bytes is accepted and one of ${MAX_PATH_BYTES + 1} is PATH_TOO_LONG`, () => {
    expect(new TextEncoder().encode(pathOfBytes(MAX_PATH_BYTES)).length).toBe(MAX_PATH_BYTES);
    expect(normalizeWorkspacePath(pathOfBytes(MAX_PATH_BYTES)).length).toBeGreaterThan(800);
    expect(() => normalizeWorkspacePath(pathOfBytes(MAX_PATH_BYTES + 1))).toThrow(
      expect.objectContaining({ code: "PATH_TOO_LONG" }),
    );
  });

  test(`segments are counted in UTF-8 bytes: ${MAX_SEGMENT_BYTES} bytes of 'é' and 'a' pass, one byte more fails`, () => {
    const exact = "\u00E9".repeat(127) + "a"; // 254 + 1 = 255 bytes, 128 UTF-16 units
    expect(normalizeWorkspacePath(exact)).toEqual([exact]);
    expect(() => normalizeWorkspacePath(exact + "a")).toThrow(expect.objectContaining({ code: "PATH_TOO_LONG" }));
    // Four-byte characters: 63 × 4 = 252 bytes pass; 64 × 4 = 256 fail (only 128 UTF-16 units).
    expect(normalizeWorkspacePath("\u{1F600}".repeat(63))).toHaveLength(1);
    expect(() => normalizeWorkspacePath("\u{1F600}".repeat(64))).toThrow(
      expect.objectContaining({ code: "PATH_TOO_LONG" }),
    );
  });

  for (const host of TEST_HOSTS) {
    test(`[${host.name}] write_file and read_file work with a ${MAX_SEGMENT_BYTES}-byte multi-byte name`, async () => {
      await withHost(host.open, [], async (_ws, registry) => {
        const name = "\u00E9".repeat(127) + "a";
        expect((await call(registry, "write_file", { path: `d/${name}`, content: "long name" })).body.error)
          .toBeUndefined();
        expect((await call(registry, "read_file", { path: `d/${name}` })).body.content).toBe("long name");
      });
    });
  }

  test(`[${runtime}] a path the grammar accepts but deeper than MAX_WALK_DEPTH fails with PATH_TOO_DEEP before anything is created`, async () => {
    const fixture = await diskFixture([]);
    try {
      const registry = new ToolRegistry([createWriteTool(fixture.workspace)]);
      const { body } = await call(registry, "write_file", { path: pathOfBytes(MAX_PATH_BYTES), content: "x" });
      expect(body.error.code).toBe("PATH_TOO_DEEP");
      expect(listAll(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });
});

// ---------------------------------------------------------------------------
// write_file and read_file onto things that are not plain files.
describe("odd objects in the way", () => {
  for (const host of TEST_HOSTS) {
    test(`[${host.name}] write_file under a file is NOT_A_DIRECTORY and under a dangling folder link is DANGLING_SYMLINK`, async () => {
      await withHost(host.open, ["f=file", "dl => missing-dir", "dl2 => missing-dir/"], async (ws, registry) => {
        const before = await ws.listAll();
        expect((await call(registry, "write_file", { path: "f/x", content: "x" })).body.error.code).toBe(
          "NOT_A_DIRECTORY",
        );
        expect((await call(registry, "write_file", { path: "f/x/y", content: "x" })).body.error.code).toBe(
          "NOT_A_DIRECTORY",
        );
        expect((await call(registry, "write_file", { path: "dl/x", content: "x" })).body.error.code).toBe(
          "DANGLING_SYMLINK",
        );
        expect((await call(registry, "write_file", { path: "dl2/a/b", content: "x" })).body.error.code).toBe(
          "DANGLING_SYMLINK",
        );
        expect((await call(registry, "write_file", { path: "dl", content: "x" })).body.error.code).toBe(
          "DANGLING_SYMLINK",
        );
        expect(await ws.listAll()).toEqual(before);
        expect(await ws.readRaw("f")).toBe("file");
      });
    });
  }

  test.skipIf(!hasProgram("mkfifo"))(
    `[${runtime}] write_file and read_file refuse a FIFO at once, without blocking (skipped without mkfifo)`,
    async () => {
      const fixture = await diskFixture([]);
      try {
        fs.mkdirSync(fixture.abs("d"));
        execFileSyncQuiet("mkfifo", [fixture.abs("d/fifo")]);
        const registry = new ToolRegistry([createReadTool(fixture.workspace), createWriteTool(fixture.workspace)]);
        expect((await call(registry, "read_file", { path: "d/fifo" })).body.error.code).toBe("NOT_A_FILE");
        expect((await call(registry, "write_file", { path: "d/fifo", content: "x" })).body.error.code).toBe(
          "NOT_A_FILE",
        );
        expect(fs.lstatSync(fixture.abs("d/fifo")).isFIFO()).toBe(true);
        expect(leftovers(fixture.root)).toEqual([]);
      } finally {
        fixture.cleanup();
      }
    },
  );

  test(`[${runtime}] write_file and read_file refuse a Unix socket`, async () => {
    const fixture = await diskFixture(["d/"]);
    const server = net.createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(fixture.abs("d/sock"), resolve);
      });
      const registry = new ToolRegistry([createReadTool(fixture.workspace), createWriteTool(fixture.workspace)]);
      expect((await call(registry, "read_file", { path: "d/sock" })).body.error.code).toBe("NOT_A_FILE");
      expect((await call(registry, "write_file", { path: "d/sock", content: "x" })).body.error.code).toBe("NOT_A_FILE");
      expect(fs.lstatSync(fixture.abs("d/sock")).isSocket()).toBe(true);
      expect(leftovers(fixture.root)).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fixture.cleanup();
    }
  });

  test.skipIf(!hasProgram("mkfifo"))(
    `[${runtime}] read_file does not block when a FIFO is swapped in between the walk and the open (skipped without mkfifo)`,
    async () => {
      const fixture = await diskFixture(["d/f.txt=inside"]);
      try {
        const base = fixture.host;
        let swapped = false;
        const host: Host = {
          ...base,
          open: async (at, options) => {
            if (!swapped) {
              swapped = true;
              fs.unlinkSync(fixture.abs("d/f.txt"));
              execFileSyncQuiet("mkfifo", [fixture.abs("d/f.txt")]);
            }
            return await base.open(at, options);
          },
        };
        const workspace = await openWorkspace(fixture.root, { host });
        const outcome = await Promise.race([
          createReadTool(workspace).execute({ path: "d/f.txt" }).catch((e) => e),
          new Promise((resolve) => setTimeout(() => resolve("blocked"), 3_000)),
        ]);
        if (outcome === "blocked") {
          // Unblock the stuck open so the runtime can exit, then fail.
          fs.writeFileSync(fixture.abs("d/f.txt"), "");
        }
        expect(outcome).not.toBe("blocked");
        expect(["PATH_CHANGED", "NOT_A_FILE"]).toContain((outcome as { code?: string }).code);
      } finally {
        fixture.cleanup();
      }
    },
  );
});

function execFileSyncQuiet(program: string, args: string[]): void {
  childProcess.execFileSync(program, args, { stdio: "ignore" });
}

// ---------------------------------------------------------------------------
// Concurrent writes to one file under different spellings: the lock is keyed
// by the canonical target, so they run one after the other and every one
// succeeds; the file ends whole (one writer's bytes, not a mix).
for (const host of TEST_HOSTS) {
  test(`[${host.name}] concurrent write_file calls via 'a/b', 'a\\\\b', a folder link and a file link all succeed and leave one whole file`, async () => {
    await withHost(host.open, ["a/b=start", "l => a", "lf => a/b"], async (ws, registry) => {
      const spellings = ["a/b", "a\\b", "./a//b", "l/b", "l\\b", "lf"];
      const contents = spellings.flatMap((spelling, i) =>
        [0, 1, 2].map((j) => ({ spelling, content: String.fromCharCode(65 + i * 3 + j).repeat(8_192) }))
      );
      const results = await Promise.all(
        contents.map(({ spelling, content }) => call(registry, "write_file", { path: spelling, content })),
      );
      for (const result of results) expect(result.body.error).toBeUndefined();
      const final = await ws.readRaw("a/b");
      expect(contents.map(({ content }) => content)).toContain(final);
      expect(await ws.listAll()).toEqual(["a/", "a/b", "l", "lf"]);
    });
  });

  test(`[${host.name}] concurrent write_file calls that all create the same missing folders succeed`, async () => {
    await withHost(host.open, [], async (ws, registry) => {
      const results = await Promise.all(
        Array.from(
          { length: 12 },
          (_, i) =>
            call(registry, "write_file", { path: i % 2 ? "n/m/o/x.txt" : "n\\m\\o\\x.txt", content: `writer ${i}` }),
        ),
      );
      for (const result of results) expect(result.body.error).toBeUndefined();
      expect(await ws.readRaw("n/m/o/x.txt")).toMatch(/^writer \d+$/);
      expect(await ws.listAll()).toEqual(["n/", "n/m/", "n/m/o/", "n/m/o/x.txt"]);
    });
  });
}

// ---------------------------------------------------------------------------
// read_file of a file another process rewrites in place during the read.
describe("read_file of a file that changes while it is read", () => {
  for (const kind of RACE_HOSTS) {
    const readWhile = async (change: (fixture: RaceFixture) => void, maxBytes?: number) => {
      const fixture = await raceFixture(kind, ["f.txt=0123456789"]);
      try {
        let changed = false;
        const host: Host = {
          ...fixture.base,
          open: async (at, options) => {
            const file = await fixture.base.open(at, options);
            return {
              ...file,
              read: (buffer: Uint8Array, position: number) => {
                if (!changed) {
                  changed = true;
                  change(fixture);
                }
                return file.read(buffer, position);
              },
            } satisfies HostFile;
          },
        };
        const workspace = await openWorkspace(fixture.root, { host });
        return await createReadTool(workspace, { maxBytes }).execute({ path: "f.txt" }).catch((e) => e);
      } finally {
        fixture.cleanup();
      }
    };

    test(`[${kind}] a file that grows after the open is read as it was at the open (its fstat size)`, async () => {
      const result = await readWhile((fixture) => fixture.rewriteInPlace("f.txt", "0123456789 and more"));
      expect(result).toEqual({ path: "f.txt", content: "0123456789", bytes: 10 });
    });

    test(`[${kind}] a file that grows past the limit after the open is still read as it was at the open`, async () => {
      const result = await readWhile((fixture) => fixture.rewriteInPlace("f.txt", "0123456789" + "x".repeat(90)), 16);
      expect(result).toEqual({ path: "f.txt", content: "0123456789", bytes: 10 });
    });

    test(`[${kind}] a file that shrinks after the open is read up to its new end`, async () => {
      const result = await readWhile((fixture) => fixture.rewriteInPlace("f.txt", "0123"));
      expect(result).toEqual({ path: "f.txt", content: "0123", bytes: 4 });
    });
  }
});

// ---------------------------------------------------------------------------
// node_process: arguments that look like runtime flags, and sources that try
// to leave the runtime's permission model. Bun has no permission model, so a
// confined run is refused there (tested at the end).
const confinable = !onBun;

describe("node_process against its confinement", () => {
  test(`[${runtime}] arguments that look like runtime flags reach the script as plain arguments`, async () => {
    const fixture = await diskFixture([]);
    try {
      const tool = createNodeProcessTool(fixture.workspace, {
        timeoutMs: 10_000,
        permissions: confinable ? "workspace" : "inherit",
      });
      const args = [
        "--inspect",
        "--inspect-brk=0.0.0.0:9229",
        "--allow-all",
        "-A",
        "-e",
        "process.exit(3)",
        "--eval=require('fs').writeFileSync('pwned','x')",
        "--",
        "--permission",
        "--allow-fs-read=/",
        "--require=/etc/passwd",
        "-",
        "",
      ];
      const result = await tool.execute({
        source: "console.log(JSON.stringify(process.argv.slice(1)))",
        arguments: args,
      });
      expect(result).toMatchObject({ exitCode: 0, stderr: "", timedOut: false });
      expect(JSON.parse(result.stdout)).toEqual(args);
      expect(listAll(fixture.root)).toEqual([]);
      expect(leftovers(fixture.root)).toEqual([]);
    } finally {
      fixture.cleanup();
    }
  });

  // One script runs every probe and prints what happened; 'blocked' means the
  // runtime refused (threw) or the API is a stub.
  const PROBES = String.raw`
const fs = require("fs");
const outside = process.argv[1];
const results = {};
function probe(name, attempt) {
  try {
    const value = attempt();
    results[name] = "ESCAPED: " + String(value).slice(0, 60);
  } catch {
    results[name] = "blocked";
  }
}
probe("read a file outside", () => fs.readFileSync(outside, "utf8"));
probe("process.binding('fs')", () => {
  const binding = process.binding("fs");
  if (typeof binding.open !== "function") throw new Error("stub");
  return binding.open(outside, 0, 0);
});
probe("child_process.spawnSync", () => {
  const run = require("child_process").spawnSync("cat", [outside]);
  if (run.error) throw run.error;
  return run.stdout;
});
probe("child_process.fork", () => require("child_process").fork(__filename).pid);
probe("/proc/self/environ", () => fs.readFileSync("/proc/self/environ", "utf8"));
probe("/proc/self/root", () => fs.readFileSync("/proc/self/root" + outside, "utf8"));
probe("/proc/self/cwd/..", () => fs.readdirSync("/proc/self/cwd/.."));
probe("create a symlink out and read it", () => {
  fs.symlinkSync(outside, "link-out");
  return fs.readFileSync("link-out", "utf8");
});
probe("create a hard link to a file outside", () => {
  fs.linkSync(outside, "hard-out");
  return fs.readFileSync("hard-out", "utf8");
});
probe("write a file outside", () => {
  fs.writeFileSync(outside, "pwned");
  return "written";
});
probe("chmod a file outside", () => {
  fs.chmodSync(outside, 0o666);
  return "changed";
});
probe("WASI preopen of /", () => {
  const { WASI } = require("wasi");
  new WASI({ version: "preview1", preopens: { "/x": "/" } });
  return "preopened";
});
probe("native addon (dlopen)", () => {
  process.dlopen({ exports: {} }, "/usr/lib/x86_64-linux-gnu/libc.so.6");
  return "loaded";
});
probe("inspector", () => {
  require("inspector").open(0);
  return require("inspector").url();
});
if (globalThis.Deno) {
  probe("Deno.Command", () => new Deno.Command("cat", { args: [outside] }).outputSync().code);
  probe("Deno.env", () => Object.keys(Deno.env.toObject()).join(","));
  probe("Deno.readTextFileSync outside", () => Deno.readTextFileSync(outside));
  probe("Deno.dlopen", () => Deno.dlopen("/usr/lib/x86_64-linux-gnu/libc.so.6", {}));
}
let environment;
try {
  environment = Object.keys(process.env).sort();
} catch {
  environment = "blocked";
}
new Promise((resolve) => {
  try {
    const { Worker } = require("worker_threads");
    const code = "require('worker_threads').parentPort.postMessage(require('fs').readFileSync(" + JSON.stringify(outside) + ", 'utf8'))";
    const worker = new Worker(code, { eval: true });
    worker.on("message", (message) => resolve("ESCAPED: " + message));
    worker.on("error", () => resolve("blocked"));
    worker.on("exit", () => resolve("blocked"));
  } catch {
    resolve("blocked");
  }
}).then((worker) => {
  results["a worker reading outside"] = worker;
  console.log(JSON.stringify({ results, environment }));
});
`;

  test.skipIf(!confinable)(
    `[${runtime}] sources that try to leave the permission model are refused by the runtime (skipped on Bun: no permission model)`,
    async () => {
      const fixture = await diskFixture([]);
      try {
        const tool = createNodeProcessTool(fixture.workspace, { timeoutMs: 15_000 });
        const secret = path.join(fixture.outside, "secret.txt");
        const result = await tool.execute({ source: PROBES, arguments: [secret] });
        expect(result).toMatchObject({ exitCode: 0, timedOut: false });
        const { results, environment } = JSON.parse(result.stdout.trim().split("\n").at(-1) as string);
        for (const [attempt, outcome] of Object.entries(results)) {
          expect(`${attempt}: ${outcome}`).toBe(`${attempt}: blocked`);
        }
        expect(Object.keys(results).length).toBeGreaterThanOrEqual(15);
        if (onDeno) expect(environment).toBe("blocked"); // Deno: no env permission
        else for (const name of environment) expect(MINIMAL_ENVIRONMENT_NAMES).toContain(name); // Node: readable, but minimal
        expect(fs.readFileSync(secret, "utf8")).toBe(OUTSIDE_SECRET);
        expect(fs.statSync(secret).mode & 0o777).not.toBe(0o666);
        expect(listAll(fixture.outside)).toEqual(["secret.txt"]);
        expect(leftovers(fixture.root)).toEqual([]);
      } finally {
        fixture.cleanup();
      }
    },
  );

  test.skipIf(confinable)(
    `[${runtime}] node_process refuses a confined run on Bun (no permission model) instead of running unconfined`,
    async () => {
      const fixture = await diskFixture([]);
      try {
        await expect(
          createNodeProcessTool(fixture.workspace).execute({
            source: "require('fs').writeFileSync('../outside/x', 'x')",
          }),
        )
          .rejects.toMatchObject({ code: "NODE_PROCESS_PERMISSIONS_UNAVAILABLE" });
        expect(listAll(fixture.outside)).toEqual(["secret.txt"]);
        expect(leftovers(fixture.root)).toEqual([]);
      } finally {
        fixture.cleanup();
      }
    },
  );
});

// ---------------------------------------------------------------------------
// executeToolCall with hostile call shapes: it must answer every one with a
// result (never throw), touch nothing, and leave Object.prototype alone.
describe("executeToolCall against hostile calls", () => {
  const withRegistry = async (body: (registry: ToolRegistry, ws: MemoryWorkspace) => Promise<void>) => {
    const ws = new MemoryWorkspace({ files: { "keep.txt": "kept" } });
    await body(new ToolRegistry([createReadTool(ws), createWriteTool(ws)]), ws);
    expect(ws.snapshot()).toEqual({ "keep.txt": "kept" });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  };

  test("a 16 MB content string in JSON text is CONTENT_TOO_LARGE before anything is written", async () => {
    await withRegistry(async (registry) => {
      const json = JSON.stringify({ path: "big.txt", content: "x".repeat(16 * 1024 * 1024) });
      const result = await executeToolCall(registry, { id: "1", name: "write_file", arguments: json });
      expect(JSON.parse(result.content)).toEqual({
        error: {
          code: "TOOL_ARGUMENTS_INVALID",
          message: "CONTENT_TOO_LARGE",
          hint: expect.stringContaining("at most 65,536 bytes"),
        },
      });
    });
  });

  test("100,000 levels of nesting, as JSON text or as an object, are refused as invalid arguments", async () => {
    await withRegistry(async (registry) => {
      const depth = 100_000;
      const text = `{"path":${"[".repeat(depth)}${"]".repeat(depth)},"content":"x"}`;
      const fromText = JSON.parse(
        (await executeToolCall(registry, { id: "1", name: "write_file", arguments: text })).content,
      );
      expect(fromText.error.code).toBe("TOOL_ARGUMENTS_INVALID");
      expect(["INVALID_ARGUMENTS", "INVALID_JSON"]).toContain(fromText.error.message);
      let deep: unknown = "leaf";
      for (let i = 0; i < depth; i++) deep = { next: deep };
      for (const args of [{ path: deep, content: "x" }, { path: "a.txt", content: "x", extra: deep }]) {
        const result = JSON.parse(
          (await executeToolCall(registry, { id: "2", name: "write_file", arguments: args })).content,
        );
        expect(result.error).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_ARGUMENTS" });
      }
    });
  });

  test("'__proto__', 'constructor' and 'toString' keys are unknown properties, not prototypes", async () => {
    await withRegistry(async (registry) => {
      for (
        const text of [
          `{"path":"p.txt","content":"x","__proto__":{"polluted":true}}`,
          `{"__proto__":{"path":"p.txt","content":"x"}}`,
          `{"path":"p.txt","content":"x","constructor":{"prototype":{"polluted":true}}}`,
          `{"path":"p.txt","content":"x","toString":"boom"}`,
        ]
      ) {
        const body = JSON.parse(
          (await executeToolCall(registry, { id: "1", name: "write_file", arguments: text })).content,
        );
        expect(body.error, text).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_ARGUMENTS" });
      }
      const proto = JSON.parse(`{"path":"p.txt","content":"x","__proto__":{"polluted":true}}`);
      const body = JSON.parse(
        (await executeToolCall(registry, { id: "1", name: "write_file", arguments: proto })).content,
      );
      expect(body.error.hint).toBe("unknown property '__proto__'");
    });
  });

  test("tool names that are Object.prototype members are TOOL_NOT_FOUND", async () => {
    await withRegistry(async (registry) => {
      for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"]) {
        const result = await executeToolCall(registry, { id: "1", name, arguments: {} });
        expect(JSON.parse(result.content).error.code, name).toBe("TOOL_NOT_FOUND");
      }
    });
  });

  test("arguments of the wrong JSON kind, values with toString, and broken call objects come back as results", async () => {
    await withRegistry(async (registry) => {
      const codeOf = async (call: unknown) =>
        JSON.parse((await executeToolCall(registry, call as Parameters<typeof executeToolCall>[1])).content).error;
      for (const text of ["null", "[]", '"keep.txt"', "1e999", "true"]) {
        expect(await codeOf({ id: "1", name: "read_file", arguments: text }), text).toMatchObject({
          message: "INVALID_ARGUMENTS",
        });
      }
      expect(await codeOf({ id: "1", name: "read_file", arguments: "{" })).toMatchObject({ message: "INVALID_JSON" });
      expect(
        await codeOf({
          id: "1",
          name: "write_file",
          arguments: { path: { toString: () => "keep.txt" }, content: "x" },
        }),
      )
        .toMatchObject({ message: "INVALID_ARGUMENTS" });
      expect(await codeOf({ id: "1", name: "write_file", arguments: { path: ["keep.txt"], content: "x" } }))
        .toMatchObject({ message: "INVALID_ARGUMENTS" });
      expect(await codeOf({ id: 7, name: 8, arguments: 9 })).toMatchObject({ code: "TOOL_NOT_FOUND" });
      expect(await codeOf({})).toMatchObject({ code: "TOOL_NOT_FOUND" });
    });
  });

  test("an error result never holds the host path of the workspace", async () => {
    const fixture = await diskFixture(["d/", "f=x", "out => @outside/secret.txt", "loop => loop"]);
    try {
      const registry = new ToolRegistry([createReadTool(fixture.workspace), createWriteTool(fixture.workspace)]);
      for (
        const [name, args] of [
          ["read_file", { path: "missing/x" }],
          ["read_file", { path: "d" }],
          ["read_file", { path: "out" }],
          ["write_file", { path: "loop", content: "x" }],
          ["write_file", { path: "f/x", content: "x" }],
        ] as const
      ) {
        const result = await executeToolCall(registry, { id: "1", name, arguments: args });
        expect(result.isError).toBe(true);
        expect(result.content).not.toContain(fixture.parent);
        expect(result.content).not.toContain("SECRET");
      }
    } finally {
      fixture.cleanup();
    }
  });
});

test.skipIf(onBun)(
  `[${runtime}] a workspace whose path holds '*' does not widen node_process's permissions to its siblings (Node reads '*' as a wildcard; skipped on Bun: no permission model)`,
  async () => {
    const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-star-")));
    try {
      const root = path.join(parent, "ws*");
      fs.mkdirSync(root);
      fs.mkdirSync(path.join(parent, "ws-sibling"));
      fs.writeFileSync(path.join(parent, "ws-sibling", "secret.txt"), OUTSIDE_SECRET);
      const workspace = await openWorkspace(root);
      const source =
        `try { console.log(require("fs").readFileSync(process.argv[1], "utf8")) } catch { console.log("blocked") }`;
      const outcome = await createNodeProcessTool(workspace, { timeoutMs: 10_000 })
        .execute({ source, arguments: [path.join(parent, "ws-sibling", "secret.txt")] })
        .then((result) => result.stdout.trim(), (error) => error.code);
      expect(["blocked", "NODE_PROCESS_PERMISSIONS_UNAVAILABLE"]).toContain(outcome);
    } finally {
      fs.rmSync(parent, { recursive: true, force: true });
    }
  },
);

test(`[${runtime}] with the root opened through a link, absolute link targets through that link stay inside, and retargeting it is WORKSPACE_ROOT_CHANGED`, async () => {
  const fixture = await diskFixture(["d/f.txt=inside"]);
  try {
    const entry = path.join(fixture.parent, "root-entry");
    fs.symlinkSync(fixture.root, entry);
    fs.symlinkSync(path.join(entry, "d", "f.txt"), fixture.abs("via-entry"));
    fs.symlinkSync(path.join(entry, "..", "outside", "secret.txt"), fixture.abs("via-entry-out"));
    fs.symlinkSync(path.join(fixture.parent, "other-entry", "d", "f.txt"), fixture.abs("via-other-entry"));
    fs.symlinkSync(fixture.root, path.join(fixture.parent, "other-entry"));
    const workspace = await openWorkspace(entry);
    const registry = new ToolRegistry([createReadTool(workspace), createWriteTool(workspace)]);
    expect((await call(registry, "read_file", { path: "via-entry" })).body.content).toBe("inside");
    expect((await call(registry, "read_file", { path: "via-entry-out" })).body.error.code).toBe(
      "PATH_ESCAPES_WORKSPACE",
    );
    // Another link to the root is not the root as given: refused, never followed.
    expect((await call(registry, "read_file", { path: "via-other-entry" })).body.error.code).toBe(
      "PATH_ESCAPES_WORKSPACE",
    );
    // The entry now leads outside: every call refuses.
    fs.unlinkSync(entry);
    fs.symlinkSync(fixture.outside, entry);
    expect((await call(registry, "read_file", { path: "secret.txt" })).body.error.code).toBe("WORKSPACE_ROOT_CHANGED");
    expect((await call(registry, "write_file", { path: "secret.txt", content: "pwned" })).body.error.code).toBe(
      "WORKSPACE_ROOT_CHANGED",
    );
    expect(listAll(fixture.outside)).toEqual(["secret.txt"]);
    expect(fs.readFileSync(path.join(fixture.outside, "secret.txt"), "utf8")).toBe(OUTSIDE_SECRET);
  } finally {
    fixture.cleanup();
  }
});

for (const host of TEST_HOSTS) {
  test(`[${host.name}] the walk's cost is bounded: ${MAX_SYMLINK_HOPS} links, each with a ~4 KB target of 'd/..' pairs, resolve in one bounded call`, async () => {
    const tree = ["d/f.txt=inside"];
    for (let i = 0; i < MAX_SYMLINK_HOPS; i++) {
      tree.push(`l${i} => ${"d/../".repeat(800)}${i + 1 < MAX_SYMLINK_HOPS ? `l${i + 1}` : "d/f.txt"}`);
    }
    await withHost(host.open, tree, async (_ws, registry) => {
      expect((await call(registry, "read_file", { path: "l0" })).body.content).toBe("inside");
      expect((await call(registry, "read_file", { path: "l0/x" })).body.error.code).toBe("NOT_A_DIRECTORY");
    });
  });
}

for (const host of TEST_HOSTS) {
  test(`[${host.name}] write_file over a setuid/setgid file keeps its permission bits but not the setuid and setgid bits (a kernel write drops them too)`, async () => {
    await withHost(host.open, ["tool.sh=#!/bin/sh\necho old\n", "sticky.txt=x"], async (ws, registry) => {
      const { host: raw } = ws.workspace;
      await raw.chmod(ws.workspace.hostPath(["tool.sh"]), 0o6755);
      await raw.chmod(ws.workspace.hostPath(["sticky.txt"]), 0o1640);
      expect((await call(registry, "write_file", { path: "tool.sh", content: "#!/bin/sh\necho pwned\n" })).body.error)
        .toBeUndefined();
      expect((await call(registry, "write_file", { path: "sticky.txt", content: "y" })).body.error).toBeUndefined();
      expect((await raw.lstat(ws.workspace.hostPath(["tool.sh"]))).mode).toBe(0o755);
      expect((await raw.lstat(ws.workspace.hostPath(["sticky.txt"]))).mode).toBe(0o1640);
    });
  });
}
