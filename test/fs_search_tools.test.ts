import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  type AnyTool,
  createCodingTools,
  createFindFilesTool,
  createGrepTool,
  createListDirectoryTool,
  createReadOnlyTools,
  createReadTool,
  createWriteTool,
  executeToolCall,
  type FindFilesOutput,
  type GrepContentOutput,
  type GrepCountOutput,
  type GrepFilesOutput,
  type ListDirectoryOutput,
  openWorkspace,
  ToolRegistry,
  type Workspace,
  WorkspaceError,
} from "../mod.ts";
import type { Host } from "../host.ts";
import { HOSTILE_PATHS } from "./cases/hostile_paths.ts";
import { SYMLINK_CASES, SYMLINK_TREE } from "./cases/symlink_fixtures.ts";
import { SEARCH_TOOLS as SEARCH_TOOL_ROWS } from "./cases/tool_replay.ts";
import { OUTSIDE_SECRET, type Tree } from "./helpers/fixture.ts";
import { TEST_HOSTS, type TestHost, type TestWorkspace } from "./helpers/hosts.ts";

// The three tools, each with arguments that read through `path`.
interface SearchTool {
  name: string;
  make(workspace: Workspace): AnyTool;
  args(path: string): Record<string, unknown>;
}

const SEARCH_TOOLS: readonly SearchTool[] = SEARCH_TOOL_ROWS.map((row) => ({
  ...row,
  make: (ws: Workspace) => {
    const tool = createCodingTools(ws).find((candidate) => candidate.name === row.name);
    if (tool === undefined) throw new Error(`createCodingTools has no ${row.name}`);
    return tool;
  },
}));

/** The code `fn` throws (synchronously), or `null`. */
function thrownCode(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof WorkspaceError ? error.code : `not a WorkspaceError: ${String(error)}`;
  }
}

/** The code `promise` rejects with, or `null` when it resolves. */
async function rejectionCode(promise: Promise<unknown>): Promise<string | null> {
  try {
    await promise;
    return null;
  } catch (error) {
    return error instanceof WorkspaceError ? error.code : `not a WorkspaceError: ${String(error)}`;
  }
}

/** The value a promise resolves to, or the code it rejects with. */
async function settle(promise: Promise<unknown>): Promise<{ value: unknown; code: string | null }> {
  try {
    return { value: await promise, code: null };
  } catch (error) {
    return {
      value: null,
      code: error instanceof WorkspaceError ? error.code : `not a WorkspaceError: ${String(error)}`,
    };
  }
}

// A file whose one line makes backtracking engines run for ages on `(a+)+$`.
const LONG_LINE = "a".repeat(100_000) + "b";

/** The search fixture: ignore files (nested, negated), links out, loops, a binary file, a big file, long lines. */
const SEARCH_TREE: Tree = [
  ".gitignore=*.log\nbuild/\n!keep.log\n",
  "src/a.ts=const needle = 1;\nother line\nneedle again\n",
  "src/b.js=no match here\n",
  "src/x.gen.ts=needle in a generated file outside the nested rule\n",
  "src/nested/.gitignore=*.gen.ts\n",
  "src/nested/c.ts=// Needle, capitalised\n",
  "src/nested/y.gen.ts=needle ignored by the nested rule\n",
  "build/out.ts=needle in build\n",
  "debug.log=needle in an ignored log\n",
  "keep.log=needle kept by a negated rule\n",
  ".git/config=needle in git\n",
  ".git/hooks/x.ts=needle in git\n",
  ".github/workflows/ci.yml=needle in a dot folder\n",
  "bin.dat=needle\0binary",
  "big.txt=" + "needle\n".repeat(25_000),
  "crlf.txt=one\r\ntwo needle\r\nthree\r\n",
  "literal.txt=a.b\naxb\n",
  "long.txt=" + LONG_LINE,
  "wide.txt=" + "x".repeat(2_000) + "needle" + "y".repeat(2_000) + "\n",
  "li/.gitignore => @outside/secret.txt",
  `li/${OUTSIDE_SECRET}=not ignored: the linked .gitignore is not read\n`,
  "link-out => @outside",
  "file-link-out => @outside/secret.txt",
  "abs-out => /etc",
  "in-link.ts => src/a.ts",
  "dir-loop => .",
  "loop1 => loop2",
  "loop2 => loop1",
];

// A size bound between the long-line files (about 100 KB) and big.txt (175 KB).
const SMALL_FILES = { maxFileBytes: 150_000 };

for (const host of TEST_HOSTS) {
  describe(`list_directory, find_files and grep on the ${host.name} host`, () => {
    hostilePathRows(host);
    symlinkRows(host);
    listDirectoryTests(host);
    findFilesTests(host);
    grepTests(host);
  });
}

function hostilePathRows(host: TestHost): void {
  describe("hostile paths", () => {
    let tw: TestWorkspace;
    beforeAll(async () => {
      tw = await host.open(["d/", "d/f", "f"]);
    });
    afterAll(() => tw.cleanup());
    for (const tool of SEARCH_TOOLS) {
      for (const row of HOSTILE_PATHS) {
        test(`${tool.name}() refuses ${row.name} with ${row.code} before any I/O`, async () => {
          expect(thrownCode(() => tool.make(tw.workspace).validate(tool.args(row.path)))).toBe(row.code);
          expect(await rejectionCode(tool.make(tw.workspace).execute(tool.args(row.path)))).toBe(row.code);
          expect(await tw.outsideIntact()).toBe(true);
        });
      }
    }
  });
}

function symlinkRows(host: TestHost): void {
  describe("symlink fixtures as the path argument", () => {
    let tw: TestWorkspace;
    beforeAll(async () => {
      tw = await host.open(SYMLINK_TREE);
    });
    afterAll(() => tw.cleanup());
    for (const tool of SEARCH_TOOLS) {
      for (const row of SYMLINK_CASES) {
        const expected = row.read === null ? "is allowed" : `is refused with ${row.read}`;
        test(`${tool.name}() through ${row.name} (${row.path}) ${expected}`, async () => {
          const outcome = await settle(tool.make(tw.workspace).execute(tool.args(row.path)));
          if (row.read !== null) {
            expect(outcome.code).toBe(row.read);
          } else {
            // Differential: what read_file sees through the same path decides the expectation.
            const read = await settle(createReadTool(tw.workspace).execute({ path: row.path }));
            if (read.code !== null) {
              expect(read.code).toBe("NOT_A_FILE"); // a folder: every tool lists or searches it
              expect(outcome.code).toBe(null);
            } else if (tool.name === "grep") {
              const lines = (read.value as { content: string }).content.split("\n").filter((line) => line !== "");
              const result = outcome.value as GrepContentOutput;
              expect(result.matches.map((match) => match.text)).toEqual(lines);
              expect(result.matches.every((match) => match.path === row.path)).toBe(true);
            } else {
              expect(outcome.code).toBe("NOT_A_DIRECTORY");
            }
          }
          expect(await tw.outsideIntact()).toBe(true);
          expect(await tw.leftovers()).toEqual([]);
        });
      }
    }
  });
}

function listDirectoryTests(host: TestHost): void {
  describe("list_directory()", () => {
    test("lists entries sorted by name with kinds and file sizes", async () => {
      const tw = await host.open(["b.txt=hello", "B.txt=hi", "a/", "a/inner.txt", "A.md=", "z/"]);
      try {
        const result = await createListDirectoryTool(tw.workspace).execute({}) as ListDirectoryOutput;
        expect(result).toEqual({
          path: ".",
          entries: [
            { name: "A.md", kind: "file", size: 0 },
            { name: "B.txt", kind: "file", size: 2 },
            { name: "a", kind: "directory" },
            { name: "b.txt", kind: "file", size: 5 },
            { name: "z", kind: "directory" },
          ],
          total: 5,
          truncated: false,
        });
      } finally {
        await tw.cleanup();
      }
    });

    test("reports links as symlink without following or revealing them", async () => {
      const tw = await host.open(SYMLINK_TREE);
      try {
        const result = await createListDirectoryTool(tw.workspace).execute({ path: "." }) as ListDirectoryOutput;
        const names = result.entries.map((entry) => entry.name);
        expect(names).toEqual([...names].sort());
        expect(result.entries.find((entry) => entry.name === "d")).toEqual({ name: "d", kind: "directory" });
        for (const link of ["file-out", "dir-out", "abs-out", "loop1", "self", "dangling", "in-dir", "abs-in"]) {
          expect(result.entries.find((entry) => entry.name === link)).toEqual({ name: link, kind: "symlink" });
        }
        const json = JSON.stringify(result);
        expect(json).not.toContain("outside");
        expect(json).not.toContain("/etc");
        expect(json).not.toContain(OUTSIDE_SECRET);
      } finally {
        await tw.cleanup();
      }
    });

    test("lists a folder reached through a link inside, and refuses one leading out", async () => {
      const tw = await host.open(SYMLINK_TREE);
      try {
        const inside = await createListDirectoryTool(tw.workspace).execute({ path: "in-dir" }) as ListDirectoryOutput;
        expect(inside.path).toBe("in-dir");
        expect(inside.entries).toEqual([{ name: "f.txt", kind: "file", size: 6 }, { name: "up", kind: "symlink" }]);
        expect(await rejectionCode(createListDirectoryTool(tw.workspace).execute({ path: "dir-out" })))
          .toBe("PATH_ESCAPES_WORKSPACE");
        expect(await rejectionCode(createListDirectoryTool(tw.workspace).execute({ path: "abs-out" })))
          .toBe("PATH_ESCAPES_WORKSPACE");
        expect(await tw.outsideIntact()).toBe(true);
      } finally {
        await tw.cleanup();
      }
    });

    test("returns the first entries and truncated when the limit is smaller than the folder", async () => {
      const tw = await host.open(["e", "d", "c", "b", "a"]);
      try {
        const list = createListDirectoryTool(tw.workspace);
        expect(await list.execute({ limit: 2 })).toEqual({
          path: ".",
          entries: [{ name: "a", kind: "file", size: 1 }, { name: "b", kind: "file", size: 1 }],
          total: 5,
          truncated: true,
        });
        const capped = createListDirectoryTool(tw.workspace, { maxEntries: 3 });
        const result = await capped.execute({ limit: 100 }) as ListDirectoryOutput;
        expect(result.entries.map((entry) => entry.name)).toEqual(["a", "b", "c"]);
        expect(result.truncated).toBe(true);
        expect(thrownCode(() => list.validate({ limit: 0 }))).toBe("INVALID_ARGUMENTS");
      } finally {
        await tw.cleanup();
      }
    });

    test("refuses a file and a missing folder", async () => {
      const tw = await host.open(["f.txt"]);
      try {
        const list = createListDirectoryTool(tw.workspace);
        expect(await rejectionCode(list.execute({ path: "f.txt" }))).toBe("NOT_A_DIRECTORY");
        expect(await rejectionCode(list.execute({ path: "missing" }))).toBe("NOT_FOUND");
      } finally {
        await tw.cleanup();
      }
    });
  });
}

function findFilesTests(host: TestHost): void {
  describe("find_files()", () => {
    let tw: TestWorkspace;
    let find: AnyTool;
    const paths = async (args: Record<string, unknown>, tool = find) =>
      ((await tool.execute(args)) as FindFilesOutput).paths;
    beforeAll(async () => {
      tw = await host.open(SEARCH_TREE);
      find = createFindFilesTool(tw.workspace);
    });
    afterAll(() => tw.cleanup());

    test("finds files by glob, honouring root and nested .gitignore files and skipping .git", async () => {
      expect(await find.execute({ pattern: "**/*.ts" })).toEqual({
        paths: ["in-link.ts", "src/a.ts", "src/nested/c.ts", "src/x.gen.ts"],
        truncated: false,
      });
      expect(await paths({ pattern: "*.log" })).toEqual(["keep.log"]);
    });

    test("finds ignored files with include_ignored, but never what is inside .git", async () => {
      expect(await paths({ pattern: "**/*.ts", include_ignored: true })).toEqual([
        "build/out.ts",
        "in-link.ts",
        "src/a.ts",
        "src/nested/c.ts",
        "src/nested/y.gen.ts",
        "src/x.gen.ts",
      ]);
      expect(await paths({ pattern: "**/*.log", include_ignored: true })).toEqual(["debug.log", "keep.log"]);
      expect(await paths({ pattern: "**/config", include_ignored: true })).toEqual([]);
    });

    test("matches dot folders and reports links by their own path without entering them", async () => {
      expect(await paths({ pattern: ".github/**" })).toEqual([".github/workflows/ci.yml"]);
      const all = await paths({ pattern: "**", include_ignored: true });
      const onDisk = new Set(await tw.listAll());
      for (const path of all) expect(onDisk.has(path)).toBe(true);
      for (const link of ["link-out", "file-link-out", "abs-out", "in-link.ts", "dir-loop", "loop1", "loop2"]) {
        expect(all).toContain(link);
      }
      expect(all.filter((path) => /^(link-out|abs-out|dir-loop|loop1|loop2)\//.test(path))).toEqual([]);
      expect(JSON.stringify(all)).not.toContain("secret.txt");
      expect(await paths({ pattern: "link-out/*" })).toEqual([]);
      expect(await paths({ pattern: "dir-loop/**" })).toEqual([]);
    });

    test("does not read a .gitignore that is a link out of the workspace", async () => {
      expect(await paths({ pattern: "li/*" })).toEqual([`li/${OUTSIDE_SECRET}`, "li/.gitignore"].sort());
    });

    test("searches below path, applying the .gitignore files above it", async () => {
      expect(await paths({ pattern: "**/*.ts", path: "src" })).toEqual([
        "src/a.ts",
        "src/nested/c.ts",
        "src/x.gen.ts",
      ]);
      expect(await paths({ pattern: "*.ts", path: "src/nested" })).toEqual(["src/nested/c.ts"]);
      expect(await paths({ pattern: "src/**/*.ts" })).toEqual(["src/a.ts", "src/nested/c.ts", "src/x.gen.ts"]);
    });

    test("anchors rules to their own .gitignore's folder and lets a deeper file re-include", async () => {
      const anchored = await host.open([
        ".gitignore=/top.txt\n*.tmp\n",
        "top.txt",
        "sub/top.txt",
        "sub/a.tmp",
        "sub/b.tmp",
        "sub/.gitignore=!a.tmp\n/local.txt\n",
        "sub/local.txt",
        "sub/deeper/local.txt",
      ]);
      try {
        expect(await paths({ pattern: "**" }, createFindFilesTool(anchored.workspace))).toEqual([
          ".gitignore",
          "sub/.gitignore",
          "sub/a.tmp",
          "sub/deeper/local.txt",
          "sub/top.txt",
        ]);
      } finally {
        await anchored.cleanup();
      }
    });

    test("applies one .gitignore text by each file's own folder, in every workspace, and a changed file at the next walk", async () => {
      // The same text (its parsed rules are kept by content) anchored at two folders, in two workspaces.
      const text = "/here.txt\n*.tmp\n!keep.tmp\n";
      const files = [`a/.gitignore=${text}`, `b/c/.gitignore=${text}`, "a/here.txt", "a/x/here.txt", "a/y.tmp"];
      const more = ["a/keep.tmp", "b/c/here.txt", "b/c/d/here.txt", "b/here.txt", "b/c/z.tmp", "b/c/keep.tmp"];
      const first = await host.open([...files, ...more]);
      const second = await host.open([...files, ...more]);
      try {
        const expected = [
          "a/.gitignore",
          "a/keep.tmp",
          "a/x/here.txt",
          "b/c/.gitignore",
          "b/c/d/here.txt",
          "b/c/keep.tmp",
          "b/here.txt",
        ];
        for (const { workspace } of [first, second, first]) {
          expect(await paths({ pattern: "**" }, createFindFilesTool(workspace))).toEqual(expected);
        }
        const written = await createWriteTool(first.workspace).execute({
          path: "b/c/.gitignore",
          content: "here.txt\n",
        });
        expect(written).not.toHaveProperty("isError");
        expect(await paths({ pattern: "**" }, createFindFilesTool(first.workspace))).toEqual([
          "a/.gitignore",
          "a/keep.tmp",
          "a/x/here.txt",
          "b/c/.gitignore",
          "b/c/keep.tmp",
          "b/c/z.tmp",
          "b/here.txt",
        ]);
        expect(await paths({ pattern: "**" }, createFindFilesTool(second.workspace))).toEqual(expected);
      } finally {
        await first.cleanup();
        await second.cleanup();
      }
    });
    test("reports paths below a folder reached through a link inside as given", async () => {
      const linked = await host.open(SYMLINK_TREE);
      try {
        expect(await paths({ pattern: "**", path: "in-dir" }, createFindFilesTool(linked.workspace))).toEqual([
          "in-dir/f.txt",
          "in-dir/up",
        ]);
        const grep = createGrepTool(linked.workspace);
        expect(await grep.execute({ pattern: "inside", path: "in-dir" })).toMatchObject({
          matches: [{ path: "in-dir/f.txt", line: 1, column: 1, text: "inside" }],
        });
      } finally {
        await linked.cleanup();
      }
    });

    test("walks a folder asked for by name even when .gitignore excludes it", async () => {
      expect(await paths({ pattern: "**", path: "build" })).toEqual(["build/out.ts"]);
      expect(await paths({ pattern: "build/**" })).toEqual([]);
    });

    test("returns the first paths in order and truncated at the limit", async () => {
      expect(await find.execute({ pattern: "**/*.ts", limit: 2 })).toEqual({
        paths: ["in-link.ts", "src/a.ts"],
        truncated: true,
      });
      const capped = createFindFilesTool(tw.workspace, { maxResults: 1 });
      expect(await paths({ pattern: "**/*.ts", limit: 50 }, capped)).toEqual(["in-link.ts"]);
    });

    test("stops a walk at its bound of visited entries and says so", async () => {
      const bounded = createFindFilesTool(tw.workspace, { maxWalkEntries: 5 });
      const result = await bounded.execute({ pattern: "**", include_ignored: true }) as FindFilesOutput;
      expect(result.truncated).toBe(true);
      expect(result.walkLimitReached).toBe(true);
      expect(result.paths.length).toBeLessThanOrEqual(5);
    });

    // Linear time itself is proved by counting work in test/linear_matching.test.ts.
    test("matches a glob with many stars against a long name (RE2: linear time)", async () => {
      const long = await host.open(["a".repeat(250), "d/" + "a".repeat(200) + "c"]);
      try {
        const result = await createFindFilesTool(long.workspace).execute({ pattern: "**/*a*a*a*a*a*a*a*a*a*b" });
        expect(result).toEqual({ paths: [], truncated: false });
      } finally {
        await long.cleanup();
      }
    });

    test("refuses invalid patterns before any I/O", () => {
      expect(thrownCode(() => find.validate({ pattern: "" }))).toBe("INVALID_PATTERN");
      expect(thrownCode(() => find.validate({ pattern: "!(x).ts" }))).toBe("INVALID_PATTERN");
      expect(thrownCode(() => find.validate({ pattern: "*".repeat(5_000) }))).toBe("INVALID_PATTERN");
      expect(thrownCode(() => find.validate({ pattern: "*.ts", extra: 1 }))).toBe("INVALID_ARGUMENTS");
    });

    test("refuses a file as path, and rejects with an AbortError when aborted", async () => {
      expect(await rejectionCode(find.execute({ pattern: "*", path: "src/a.ts" }))).toBe("NOT_A_DIRECTORY");
      const controller = new AbortController();
      controller.abort();
      await expect(find.execute({ pattern: "**" }, { signal: controller.signal })).rejects.toMatchObject({
        name: "AbortError",
      });
    });
  });
}

function grepTests(host: TestHost): void {
  describe("grep()", () => {
    let tw: TestWorkspace;
    let grep: AnyTool;
    beforeAll(async () => {
      tw = await host.open(SEARCH_TREE);
      grep = createGrepTool(tw.workspace, SMALL_FILES);
    });
    afterAll(() => tw.cleanup());
    const content = async (args: Record<string, unknown>, tool = grep) =>
      (await tool.execute(args)) as GrepContentOutput;

    test("returns matching lines in path order, honouring .gitignore and skipping .git, binary and big files", async () => {
      const result = await content({
        pattern: "needle",
        output_mode: "files_with_matches",
      }) as unknown as GrepFilesOutput;
      expect(result).toEqual({
        files: [".github/workflows/ci.yml", "crlf.txt", "keep.log", "src/a.ts", "src/x.gen.ts", "wide.txt"],
        truncated: false,
        skipped: { binary: 1, tooLarge: 1, unreadable: 0 },
      });
      const lines = await content({ pattern: "needle", path: "src" });
      expect(lines.matches).toEqual([
        { path: "src/a.ts", line: 1, column: 7, text: "const needle = 1;" },
        { path: "src/a.ts", line: 3, column: 1, text: "needle again" },
        { path: "src/x.gen.ts", line: 1, column: 1, text: "needle in a generated file outside the nested rule" },
      ]);
    });

    test("calls a file binary by a NUL byte within its first 8 KiB only, in small and large files alike", async () => {
      const sniffed = await host.open([
        "early.txt=needle\0",
        `late-small.txt=${"x".repeat(8_000)}\0needle`,
        `late-large.txt=${"x".repeat(8_191)}\0needle\n${"y".repeat(1_000)}`,
        `past.txt=${"x".repeat(8_192)}\0needle\n`,
        "after-bad.txt=\u00e9needle\0",
      ]);
      try {
        const result = await createGrepTool(sniffed.workspace).execute({
          pattern: "needle",
          output_mode: "files_with_matches",
        }) as GrepFilesOutput;
        expect(result).toEqual({
          files: ["past.txt"],
          truncated: false,
          skipped: { binary: 4, tooLarge: 0, unreadable: 0 },
        });
      } finally {
        await sniffed.cleanup();
      }
    });

    test("searches ignored files with include_ignored, never .git", async () => {
      const result = await grep.execute({
        pattern: "needle",
        output_mode: "files_with_matches",
        include_ignored: true,
      });
      expect((result as GrepFilesOutput).files).toEqual([
        ".github/workflows/ci.yml",
        "build/out.ts",
        "crlf.txt",
        "debug.log",
        "keep.log",
        "src/a.ts",
        "src/nested/y.gen.ts",
        "src/x.gen.ts",
        "wide.txt",
      ]);
    });

    test("never follows a link: nothing outside the workspace is searched", async () => {
      for (const pattern of ["SECRET", "root:"]) {
        const result = await content({ pattern, include_ignored: true });
        expect(result.matches.filter((match) => !match.path.startsWith("li/"))).toEqual([]);
      }
      const secret = await content({ pattern: "SECRET-outside" });
      expect(secret.matches).toEqual([]);
      expect(await tw.outsideIntact()).toBe(true);
    });

    test("matches case-insensitively, literally, with context", async () => {
      const insensitive = await content({ pattern: "NEEDLE,", ignore_case: true });
      expect(insensitive.matches).toEqual([
        { path: "src/nested/c.ts", line: 1, column: 4, text: "// Needle, capitalised" },
      ]);
      expect((await content({ pattern: "a.b", path: "literal.txt" })).matches.map((m) => m.text)).toEqual([
        "a.b",
        "axb",
      ]);
      expect((await content({ pattern: "a.b", path: "literal.txt", literal: true })).matches.map((m) => m.text))
        .toEqual(["a.b"]);
      expect((await content({ pattern: "A.B", path: "literal.txt", literal: true, ignore_case: true })).matches.length)
        .toBe(1);
      const withContext = await content({ pattern: "other", path: "src", context: 1 });
      expect(withContext.matches).toEqual([
        {
          path: "src/a.ts",
          line: 2,
          column: 1,
          text: "other line",
          before: ["const needle = 1;"],
          after: ["needle again"],
        },
      ]);
    });

    test("treats CRLF as a line ending", async () => {
      const result = await content({ pattern: "needle$", path: "crlf.txt" });
      expect(result.matches).toEqual([{ path: "crlf.txt", line: 2, column: 5, text: "two needle" }]);
    });

    test("counts matching lines per file", async () => {
      const result = await grep.execute({ pattern: "needle", path: "src", output_mode: "count" }) as GrepCountOutput;
      expect(result).toEqual({
        counts: [{ path: "src/a.ts", count: 2 }, { path: "src/x.gen.ts", count: 1 }],
        total: 3,
        truncated: false,
        skipped: { binary: 0, tooLarge: 0, unreadable: 0 },
      });
    });

    test("stops at the limit and says truncated, in every mode", async () => {
      const one = await content({ pattern: "needle", path: "src", limit: 2 });
      expect(one.matches.map((m) => [m.path, m.line])).toEqual([["src/a.ts", 1], ["src/a.ts", 3]]);
      expect(one.truncated).toBe(true);
      const exact = await content({ pattern: "needle", path: "src", limit: 3 });
      expect(exact.truncated).toBe(false);
      const files = await grep.execute({ pattern: "needle", output_mode: "files_with_matches", limit: 2 });
      expect(files).toMatchObject({ files: [".github/workflows/ci.yml", "crlf.txt"], truncated: true });
      const counts = await grep.execute({ pattern: "needle", path: "src", output_mode: "count", limit: 1 });
      expect(counts).toMatchObject({ counts: [{ path: "src/a.ts", count: 2 }], total: 2, truncated: true });
    });

    test("filters files by a glob on the name or on the path", async () => {
      const byName = await grep.execute({ pattern: "needle", glob: "*.ts", output_mode: "files_with_matches" });
      expect((byName as GrepFilesOutput).files).toEqual(["src/a.ts", "src/x.gen.ts"]);
      const byPath = await grep.execute({ pattern: "needle", glob: "src/*.ts", output_mode: "files_with_matches" });
      expect((byPath as GrepFilesOutput).files).toEqual(["src/a.ts", "src/x.gen.ts"]);
      const none = await grep.execute({ pattern: "needle", glob: "nested/*.ts", output_mode: "files_with_matches" });
      expect((none as GrepFilesOutput).files).toEqual([]);
    });

    test("searches one file named as path, and refuses a missing one", async () => {
      const result = await content({ pattern: "again", path: "src/a.ts" });
      expect(result.matches).toEqual([{ path: "src/a.ts", line: 3, column: 8, text: "needle again" }]);
      expect(await rejectionCode(grep.execute({ pattern: "x", path: "missing.txt" }))).toBe("NOT_FOUND");
    });

    test("refuses a file named as path that is replaced between its check and its open", async () => {
      const swapped = await host.open(["f.txt=needle\n"]);
      try {
        const real = swapped.workspace.host;
        let swaps = 0;
        const racing: Host = {
          ...real,
          open: async (path, options) => {
            if (path.endsWith("f.txt") && !options.write && swaps++ === 0) {
              // Another process replaces the file with a new one (new identity) just before the open.
              const temp = path.replace(/f\.txt$/, "g.txt");
              const file = await real.open(temp, { write: true, createExclusive: true });
              await file.write(new TextEncoder().encode("needle too\n"), 0);
              await file.close();
              await real.rename(temp, path);
            }
            return real.open(path, options);
          },
        };
        const workspace = await openWorkspace(swapped.workspace.root, { host: racing });
        expect(await rejectionCode(createGrepTool(workspace).execute({ pattern: "needle", path: "f.txt" })))
          .toBe("PATH_CHANGED");
        expect(swaps).toBe(1);
      } finally {
        await swapped.cleanup();
      }
    });

    test("counts a big file as skipped under the size bound and searches it above", async () => {
      const small = await content({ pattern: "needle", path: "big.txt" });
      expect(small).toMatchObject({ matches: [], skipped: { tooLarge: 1 } });
      const roomy = await content({ pattern: "needle", path: "big.txt", limit: 500 }, createGrepTool(tw.workspace));
      expect(roomy.matches.length).toBe(100); // the default ceiling of results
      expect(roomy.truncated).toBe(true);
    });

    test("cuts a long line to a window around the match", async () => {
      const result = await content({ pattern: "needle", path: "wide.txt" });
      expect(result.matches.length).toBe(1);
      const [match] = result.matches;
      expect(match.column).toBe(2_001);
      expect(match.cut).toBe(true);
      expect(match.text.length).toBeLessThanOrEqual(500);
      expect(match.text).toContain("needle");
    });

    test("never splits a surrogate pair when it cuts a line, and keeps the window full at the line's end", async () => {
      const emoji = await host.open([
        `e.txt=${"😀".repeat(400)}x${"😀".repeat(400)}needle\n`,
        `f.txt=${"y".repeat(600)}z\n`,
      ]);
      try {
        const tool = createGrepTool(emoji.workspace);
        for (const pattern of ["x", "needle", "^", "😀x"]) {
          const [match] = ((await tool.execute({ pattern, path: "e.txt" })) as GrepContentOutput).matches;
          expect(match.cut).toBe(true);
          expect(match.text.length).toBeLessThanOrEqual(500);
          expect(match.text.length).toBeGreaterThanOrEqual(499);
          expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(match.text)).toBe(false);
        }
        const [end] = ((await tool.execute({ pattern: "z", path: "f.txt" })) as GrepContentOutput).matches;
        expect(end).toMatchObject({ column: 601, cut: true, text: "y".repeat(499) + "z" });
      } finally {
        await emoji.cleanup();
      }
    });

    // Linear time itself is proved by counting work in test/linear_matching.test.ts.
    test("runs a catastrophic-backtracking pattern against a long line (RE2: linear time)", async () => {
      const result = await content({ pattern: "(a+)+$", path: "long.txt" });
      expect(result.matches).toEqual([]);
      const matching = await content({ pattern: "(a+)+b$", path: "long.txt" });
      expect(matching.matches.length).toBe(1);
      expect(matching.matches[0].cut).toBe(true);
      const everywhere = await content({ pattern: "(x+x+)+needle", include_ignored: true });
      expect(everywhere.matches.map((m) => m.path)).toEqual(["wide.txt"]);
    });

    test("refuses an invalid pattern before any I/O, as an argument error", async () => {
      for (const pattern of ["(a", "(?=a)", "\\1", "", "x".repeat(5_000)]) {
        expect(thrownCode(() => grep.validate({ pattern }))).toBe("INVALID_PATTERN");
      }
      expect(thrownCode(() => grep.validate({ pattern: "x", glob: "!(a)" }))).toBe("INVALID_PATTERN");
      expect(thrownCode(() => grep.validate({ pattern: "x", context: 11 }))).toBe("INVALID_ARGUMENTS");
      expect(thrownCode(() => grep.validate({ pattern: "x", output_mode: "lines" }))).toBe("INVALID_ARGUMENTS");
      const registry = new ToolRegistry([grep]);
      const result = await executeToolCall(registry, { id: "1", name: "grep", arguments: { pattern: "(a" } });
      expect(result.isError).toBe(true);
      expect(JSON.parse(result.content)).toEqual({
        error: { code: "TOOL_ARGUMENTS_INVALID", message: "INVALID_PATTERN", hint: expect.any(String) },
      });
    });

    test("rejects with an AbortError when aborted, before or while files are read", async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(grep.execute({ pattern: "needle" }, { signal: controller.signal })).rejects.toMatchObject({
        name: "AbortError",
      });
      // Abort from inside the host once a few files are open: many reads are in flight then.
      const during = new AbortController();
      let opens = 0;
      const base = tw.workspace.host;
      const host: Host = {
        ...base,
        open: (path, options) => {
          if (++opens === 3) during.abort();
          return base.open(path, options);
        },
        // A host that reads files synchronously opens them there.
        readSync: base.readSync && ((path, into) => {
          if (++opens === 3) during.abort();
          return (base.readSync as NonNullable<Host["readSync"]>)(path, into);
        }),
      };
      const workspace = await openWorkspace(tw.workspace.root, { host });
      await expect(createGrepTool(workspace).execute({ pattern: "needle" }, { signal: during.signal })).rejects
        .toMatchObject({ name: "AbortError" });
      await workspace.close();
      expect(opens).toBeGreaterThanOrEqual(3);
    });
  });

  describe("createCodingTools()", () => {
    test("includes the three search tools, read-only, unless left out", async () => {
      const tw = await host.open([]);
      try {
        const names = (tools: AnyTool[]) => tools.map((tool) => tool.name);
        expect(names(createCodingTools(tw.workspace))).toEqual(
          expect.arrayContaining(["list_directory", "find_files", "grep"]),
        );
        expect(names(createReadOnlyTools(tw.workspace))).toEqual(
          expect.arrayContaining(["read_file", "list_directory", "find_files", "grep"]),
        );
        const without = names(createCodingTools(tw.workspace, { listDirectory: false, findFiles: false, grep: false }));
        expect(without).not.toContain("list_directory");
        expect(without).not.toContain("find_files");
        expect(without).not.toContain("grep");
        const renamed = createCodingTools(tw.workspace, { grep: { name: "search" } });
        expect(names(renamed)).toContain("search");
      } finally {
        await tw.cleanup();
      }
    });
  });
}
