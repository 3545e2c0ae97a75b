// Red-team tests: attacks on the path grammar, the confined walk, the atomic
// write, read_file, node_process and executeToolCall. Each test names the
// attack; where a race cannot be closed (no openat in JavaScript), the test
// asserts the documented behaviour and says so in its name.
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { describe, expect, test } from "vitest";
import {
  createNodeProcessTool,
  createReadTool,
  createWriteTool,
  executeToolCall,
  type Host,
  type HostFile,
  type HostStat,
  MAX_PATH_BYTES,
  MAX_SEGMENT_BYTES,
  MAX_SYMLINK_HOPS,
  normalizeWorkspacePath,
  openWorkspace,
  ToolRegistry,
  type Workspace,
} from "../mod.ts";
import { type MemoryHost, MemoryWorkspace } from "../testing.ts";
import { diskFixture, hasProgram, leftovers, listAll, OUTSIDE_SECRET, type Tree } from "./helpers/fixture.ts";
import { MEMORY_OUTSIDE, TEST_HOSTS, type TestWorkspace } from "./helpers/hosts.ts";
import { onBun, onDeno, runtime } from "./helpers/runtime.ts";

async function withHost(
  open: (tree: Tree) => Promise<TestWorkspace>,
  tree: Tree,
  body: (ws: TestWorkspace, registry: ToolRegistry) => Promise<void>,
): Promise<void> {
  const ws = await open(tree);
  try {
    const registry = new ToolRegistry([createReadTool(ws.workspace), createWriteTool(ws.workspace)]);
    await body(ws, registry);
    expect(await ws.leftovers()).toEqual([]);
    expect(await ws.outsideIntact()).toBe(true);
  } finally {
    await ws.cleanup();
  }
}

async function call(registry: ToolRegistry, name: string, args: unknown) {
  const result = await executeToolCall(registry, { id: "c1", name, arguments: args });
  return { isError: result.isError, body: JSON.parse(result.content) };
}

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
      cleanup: () => fixture.cleanup(),
    };
  }
  const memory = new MemoryWorkspace();
  const host: MemoryHost = memory.host;
  host.mkdirSync(MEMORY_OUTSIDE);
  host.writeFileSync(`${MEMORY_OUTSIDE}/secret.txt`, OUTSIDE_SECRET);
  for (const entry of tree) {
    const at = memory.hostPath(normalizeWorkspacePath(entry.split("=")[0]));
    if (entry.endsWith("/")) host.mkdirSync(at, { recursive: true });
    else {
      host.mkdirSync(at.slice(0, at.lastIndexOf("/")), { recursive: true });
      host.writeFileSync(at, entry.includes("=") ? entry.slice(entry.indexOf("=") + 1) : entry);
    }
  }
  const list = (dir: string, prefix = ""): string[] =>
    host.readdirSync(dir).flatMap((entry) =>
      entry.kind === "directory"
        ? [`${prefix}${entry.name}/`, ...list(`${dir}/${entry.name}`, `${prefix}${entry.name}/`)]
        : [`${prefix}${entry.name}`]
    ).sort();
  return {
    name: "memory",
    root: memory.root,
    base: host,
    swapForOutsideLink: async (relative) => {
      await host.rename(`${memory.root}/${relative}`, `${memory.root}/${relative}-moved`);
      await host.symlink(MEMORY_OUTSIDE, `${memory.root}/${relative}`);
    },
    outsideEntries: () => list(MEMORY_OUTSIDE),
    leftovers: () => list(memory.root).filter((entry) => /(^|\/)\.paddock-tmp-/.test(entry)),
    cleanup: () => {},
  };
}

describe("races: another process swaps a folder for a link to the outside", () => {
  for (const kind of RACE_HOSTS) {
    test(`[${kind}] write_file creates nothing outside when a folder is swapped between the walk and the creation of a missing subfolder`, async () => {
      // The walk checks 'a', then creates 'a/b'. If 'a' became a link to the
      // outside in between, mkdir would create 'outside/b', and the identity
      // later recorded for 'b' would be the outside folder's: every later
      // check would pass and the file would land outside.
      const fixture = await raceFixture(kind, ["a/"]);
      try {
        let swapped = false;
        const host: Host = {
          ...fixture.base,
          mkdir: async (at, mode) => {
            if (!swapped && at.endsWith("/a/b")) {
              swapped = true;
              await fixture.swapForOutsideLink("a");
            }
            return await fixture.base.mkdir(at, mode);
          },
        };
        const workspace = await openWorkspace(fixture.root, { host });
        await expect(createWriteTool(workspace).execute({ path: "a/b/f.txt", content: "pwned" })).rejects
          .toMatchObject({ code: "PATH_CHANGED" });
        expect(swapped).toBe(true);
        expect(fixture.outsideEntries()).toEqual(["secret.txt"]);
        expect(fixture.leftovers()).toEqual([]);
      } finally {
        fixture.cleanup();
      }
    });

    test(`[${kind}] write_file writes no byte outside when the parent folder is swapped just before the temp file is created`, async () => {
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
        const workspace = await openWorkspace(fixture.root, { host });
        await expect(createWriteTool(workspace).execute({ path: "d/f.txt", content: "pwned" })).rejects
          .toMatchObject({ code: "PATH_CHANGED" });
        expect(swapped).toBe(true);
        // No byte was written while our temp file sat in the outside folder.
        for (const entries of outsideAtWrite) expect(entries).toEqual(["secret.txt"]);
        expect(fixture.outsideEntries()).toEqual(["secret.txt"]);
        expect(fixture.leftovers()).toEqual([]);
      } finally {
        fixture.cleanup();
      }
    });

    test(`[${kind}] write_file fails without touching the outside when the parent is swapped right before the rename (the documented race: the temp file is not there)`, async () => {
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
        const workspace = await openWorkspace(fixture.root, { host });
        await expect(createWriteTool(workspace).execute({ path: "d/f.txt", content: "pwned" })).rejects
          .toMatchObject({ code: "NOT_FOUND" });
        expect(fixture.outsideEntries()).toEqual(["secret.txt"]);
      } finally {
        fixture.cleanup();
      }
    });

    test(`[${kind}] read_file returns nothing from outside when the parent is swapped between the walk and the open`, async () => {
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
        const workspace = await openWorkspace(fixture.root, { host });
        const error = await createReadTool(workspace).execute({ path: "d/secret.txt" }).catch((e) => e);
        expect(error).toMatchObject({ code: "PATH_CHANGED" });
        expect(JSON.stringify(error)).not.toContain(OUTSIDE_SECRET);
      } finally {
        fixture.cleanup();
      }
    });
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
    openDirectory: (at) => memory.openDirectory(toMemory(at)),
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
    ["C:\\workspace\\.. \\outside\\secret.txt", "an absolute target under the root holding '.. '", "PATH_ESCAPES_WORKSPACE"],
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
        expect(body).toEqual({ error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_RELATIVE_PATH" } });
        expect(await ws.readRaw("x\uFFFD")).toBe("replacement char");
      });
    });
  }
});
