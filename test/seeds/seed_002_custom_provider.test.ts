// Seed 002, "كتابة مزوّدك الخاص": a seed-style FsProvider and ShellProvider over a remote
// sandbox SDK. As the seed writes it; the stand-in is `remote` (the seed `declare`s it): an
// in-memory box below /home/user/project that logs every call. The tests then run the fs
// tools and the shell tool on these providers.
import { type FsProvider, normalizeWorkspacePath, type ShellProvider, WorkspaceError } from "@paddock/tools";
import { createFsTools, createShellTool, executeToolCall, ToolRegistry } from "@paddock/tools";
import { beforeEach, describe, expect, test } from "vitest";
import { HOSTILE_PATHS } from "../cases/hostile_paths.ts";

// The stand-in for the remote SDK: files and folders by absolute path, and a `run` that
// understands the two commands the providers send (mkdir -p, rm [-r]) and echoes the rest.
const files = new Map<string, string>();
const folders = new Set<string>();
const calls: string[] = [];
const clean = (p: string) => p.replace(/\/\.$/, "");
const remote = {
  read(path: string): Promise<string | null> {
    calls.push(`read ${path}`);
    return Promise.resolve(files.get(clean(path)) ?? null);
  },
  write(path: string, data: string): Promise<void> {
    calls.push(`write ${path}`);
    files.set(clean(path), data);
    return Promise.resolve();
  },
  list(path: string): Promise<{ name: string; dir: boolean }[]> {
    calls.push(`list ${path}`);
    const dir = clean(path);
    const children = new Map<string, boolean>();
    for (
      const [entry, isDir] of [
        ...[...files.keys()].map((f) => [f, false] as const),
        ...[...folders].map((f) => [f, true] as const),
      ]
    ) {
      if (entry.startsWith(`${dir}/`)) {
        const rest = entry.slice(dir.length + 1).split("/");
        children.set(rest[0], rest.length > 1 || isDir);
      }
    }
    return Promise.resolve([...children].map(([name, isDir]) => ({ name, dir: isDir })));
  },
  run(cmd: string, opts: { cwd: string; timeoutMs?: number }): Promise<{ out: string; err: string; code: number }> {
    calls.push(`run ${cmd} @ ${opts.cwd}`);
    const mkdir = /^mkdir -p '(.*)'$/.exec(cmd);
    const rm = /^rm (-r )?'(.*)'$/.exec(cmd);
    if (mkdir) folders.add(clean(mkdir[1]));
    else if (rm) {
      for (const f of [...files.keys()]) if (f === rm[2] || f.startsWith(`${rm[2]}/`)) files.delete(f);
      for (const f of [...folders]) if (f === rm[2] || f.startsWith(`${rm[2]}/`)) folders.delete(f);
    } else return Promise.resolve({ out: `ran: ${cmd}\n`, err: "", code: cmd === "false" ? 1 : 0 });
    return Promise.resolve({ out: "", err: "", code: 0 });
  },
};

// --- the example ---
const base = "/home/user/project";
const abs = (path: string) => `${base}/${normalizeWorkspacePath(path, "posix")}`;

export const remoteFs: FsProvider = {
  async readFile(path) {
    const data = await remote.read(abs(path));
    if (data === null) throw new WorkspaceError(`File not found: ${path}`);
    return data;
  },
  writeFile: (path, content) => remote.write(abs(path), content),
  async stat(path) {
    const data = await remote.read(abs(path));
    return data === null ? undefined : { type: "file", size: data.length };
  },
  async readdir(path) {
    return (await remote.list(abs(path))).map((e) => ({ name: e.name, type: e.dir ? "directory" : "file" }));
  },
  async mkdir(path) {
    await remote.run(`mkdir -p '${abs(path)}'`, { cwd: base });
  },
  async rm(path, options) {
    await remote.run(`rm ${options?.recursive ? "-r " : ""}'${abs(path)}'`, { cwd: base });
  },
};

export const remoteShell: ShellProvider = {
  async exec(command, options = {}) {
    const r = await remote.run(command, { cwd: abs(options.cwd ?? "."), timeoutMs: options.timeoutMs });
    return { stdout: r.out, stderr: r.err, exitCode: r.code, timedOut: false };
  },
};
// --- end of the example ---

beforeEach(() => {
  files.clear();
  folders.clear();
  calls.length = 0;
});
const tool = (name: string) => {
  const found = createFsTools(remoteFs).find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no ${name}`);
  return found;
};

describe("seed 002: the fs tools on the seed's FsProvider", () => {
  test("normalizeWorkspacePath(path, 'posix') gives the joined string; with one argument, the segments", () => {
    expect(abs("src\\./lib/a.ts")).toBe("/home/user/project/src/lib/a.ts");
    expect(abs(".")).toBe("/home/user/project/.");
    expect(normalizeWorkspacePath("src/./a.ts")).toEqual(["src", "a.ts"]);
    expect(normalizeWorkspacePath("src/a.ts", "win32")).toBe("src\\a.ts");
    expect(() => abs("../etc/passwd")).toThrow(expect.objectContaining({ code: "INVALID_RELATIVE_PATH" }));
    const error = new WorkspaceError("File not found: a.txt");
    expect([error.code, error.message, error instanceof Error]).toEqual(["IO_ERROR", "File not found: a.txt", true]);
  });

  test("write (creating the folder), read, edit, list, delete run through the provider with normalized paths", async () => {
    expect(createFsTools(remoteFs).map((t) => t.name)).toEqual([
      "read_file",
      "write_file",
      "edit_file",
      "list_directory",
      "create_directory",
      "delete_path",
    ]);
    expect(await tool("write_file").execute({ path: "src\\math.ts", content: "export const add = (a, b) => a - b;\n" }))
      .toEqual({ path: "src/math.ts", bytes: 36 });
    expect(calls).toContain("run mkdir -p '/home/user/project/src' @ /home/user/project");
    expect(await tool("read_file").execute({ path: "./src/math.ts" })).toEqual({
      path: "src/math.ts",
      content: "export const add = (a, b) => a - b;\n",
      bytes: 36,
    });
    expect(await tool("edit_file").execute({ path: "src/math.ts", old_string: "a - b", new_string: "a + b" }))
      .toMatchObject({ path: "src/math.ts", replacements: 1, fuzzy: false });
    expect(files.get("/home/user/project/src/math.ts")).toBe("export const add = (a, b) => a + b;\n");
    expect(await tool("list_directory").execute({})).toEqual({
      path: ".",
      entries: [{ name: "src", kind: "directory" }],
      total: 1,
      truncated: false,
    });
    expect(await tool("delete_path").execute({ path: "src/math.ts" })).toEqual({
      path: "src/math.ts",
      kind: "file",
      removed: 1,
    });
    expect(files.size).toBe(0);
    // Every path the provider saw is below the base, normalized.
    expect(
      calls.every((line) =>
        /^\w+ (mkdir -p |rm )?'?\/home\/user\/project(\/[\w.]+)*'?( @ \/home\/user\/project)?$/.test(line)
      ),
    )
      .toBe(true);
  });

  test.each(HOSTILE_PATHS.map((row) => [row.name, row] as const))(
    "hostile path never reaches the provider: %s",
    async (_name, row) => {
      const registry = new ToolRegistry(createFsTools(remoteFs));
      for (
        const [name, args] of [
          ["read_file", { path: row.path }],
          ["write_file", { path: row.path, content: "x" }],
          ["edit_file", { path: row.path, old_string: "a", new_string: "b" }],
          ["list_directory", { path: row.path }],
          ["create_directory", { path: row.path }],
          ["delete_path", { path: row.path }],
        ] as const
      ) {
        const result = await executeToolCall(registry, { id: name, name, arguments: args });
        expect(JSON.parse(result.content).error).toMatchObject({ code: "TOOL_ARGUMENTS_INVALID", message: row.code });
      }
      expect(calls).toEqual([]);
    },
  );

  test("provider failures come back as stable codes, without the provider's own message", async () => {
    expect(await rejectionCode(tool("read_file").execute({ path: "missing.txt" }))).toEqual([
      "NOT_FOUND",
      "Cannot read 'missing.txt': no such file or folder",
    ]);
    const failing = (error: unknown): FsProvider => ({ ...remoteFs, stat: () => Promise.reject(error) });
    const read = (provider: FsProvider) => createFsTools(provider)[0].execute({ path: "a.txt" });
    expect(
      await rejectionCode(
        read(failing(Object.assign(new Error("EACCES: /home/user/project/a.txt"), { code: "EACCES" }))),
      ),
    )
      .toEqual(["PERMISSION_DENIED", "Cannot read 'a.txt': the provider reported EACCES"]);
    expect(await rejectionCode(read(failing(new Error("socket hang up at 10.0.0.7 /home/user/project")))))
      .toEqual(["IO_ERROR", "Cannot read 'a.txt': the provider failed"]);
    expect(await rejectionCode(read(failing(new WorkspaceError("File not found: a.txt"))))).toEqual([
      "IO_ERROR",
      "File not found: a.txt",
    ]);
    // A listing name that is not one segment is left out.
    const odd: FsProvider = {
      ...remoteFs,
      readdir: () => Promise.resolve([{ name: "../x", type: "file" }, { name: "ok", type: "file" }]),
    };
    expect((await createFsTools(odd).find((t) => t.name === "list_directory")!.execute({})).entries).toEqual([{
      name: "ok",
      kind: "file",
    }]);
  });

  test("readOnly and needsApproval switches", () => {
    expect(createFsTools(remoteFs, { readOnly: true }).map((t) => t.name)).toEqual(["read_file", "list_directory"]);
    expect(createFsTools(remoteFs, { needsApproval: true }).map((t) => [t.name, t.needsApproval === true])).toEqual([
      ["read_file", false],
      ["write_file", true],
      ["edit_file", true],
      ["list_directory", false],
      ["create_directory", true],
      ["delete_path", true],
    ]);
  });
});

describe("seed 002: the shell tool on the seed's ShellProvider", () => {
  test("the positional exec(command, options) form, with the tool's limits and the root as cwd", async () => {
    const shell = createShellTool(remoteShell, { needsApproval: false });
    expect(await shell.execute({ command: "npm test" })).toEqual({
      exitCode: 0,
      signal: null,
      stdout: "ran: npm test\n",
      stderr: "",
      stdoutTruncated: false,
      stderrTruncated: false,
      outputId: expect.stringMatching(/^p\d+$/),
    });
    expect(calls).toEqual(["run npm test @ /home/user/project/."]);
    expect((await shell.execute({ command: "false" })).exitCode).toBe(1);
  });

  test("output over the tool's limit is bounded, start and end kept", async () => {
    const chatty: ShellProvider = {
      exec: () => Promise.resolve({ stdout: "a".repeat(100) + "b".repeat(100), stderr: "", exitCode: 0 }),
    };
    const result = await createShellTool(chatty, { needsApproval: false, maxOutputBytes: 20 }).execute({
      command: "x",
    });
    expect(result).toMatchObject({
      stdout: `${"a".repeat(10)}\n[… 180 bytes omitted …]\n${"b".repeat(10)}`,
      stdoutTruncated: true,
    });
  });
});

async function rejectionCode(promise: Promise<unknown>): Promise<[string, string]> {
  try {
    await promise;
  } catch (error) {
    return [(error as WorkspaceError).code, (error as WorkspaceError).message];
  }
  throw new Error("expected a rejection");
}
