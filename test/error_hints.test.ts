// #43: every error a model can meet tells it what to do next. The code list is read from
// src/core/errors.ts (the union) and from docs/tools.md (the error table); both must equal the hint
// table's keys, and every hint must be specific to its code. Then the four cases the issue names:
// CONTENT_TOO_LARGE, INVALID_JSON, NOT_FOUND (the nearest names, through the confined walk) and a
// binary file.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import {
  createCodingTools,
  executeToolCall,
  LIMITS,
  openWorkspace,
  toErrorBody,
  ToolRegistry,
  WorkspaceError,
} from "../mod.ts";
import { ARGUMENT_ERROR_CODES } from "../src/extend.ts";
import { ERROR_HINTS } from "../src/core/error_hints.ts";
import type { ErrorCode } from "../src/core/errors.ts";
import { nearestNamesHint } from "../src/core/fs/nearest_names.ts";
import { jsonProblem } from "../src/registry/json_problem.ts";
import { type DiskFixture, diskFixture, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { runtime } from "./helpers/runtime.ts";

const repo = path.resolve(import.meta.dirname ?? new URL(".", import.meta.url).pathname, "..");

/** The codes of the ErrorCode union, as written in errors.ts. */
function unionCodes(): string[] {
  // Comments dropped first (they may hold a ';'), then the union up to its ';'.
  const source = fs.readFileSync(path.join(repo, "src/core/errors.ts"), "utf8").replace(/\/\/.*$/gm, "");
  const start = source.indexOf("export type ErrorCode =");
  const union = source.slice(start, source.indexOf(";", start));
  return [...union.matchAll(/\|\s*"([A-Z0-9_]+)"/g)].map((match) => match[1]).sort();
}

/** The codes of docs/tools.md's error table (the rows after `| code | meaning |`, `↳` rows included). */
function documentedCodes(): string[] {
  const lines = fs.readFileSync(path.join(repo, "docs/tools.md"), "utf8").split("\n");
  const start = lines.findIndex((line) => line.trim() === "| code | meaning |");
  const codes: string[] = [];
  for (const line of lines.slice(start + 2)) {
    const match = /^\| (?:↳ )?`([A-Z0-9_]+)`[^|]*\|/.exec(line);
    if (match === null) break;
    codes.push(match[1]);
  }
  return codes.sort();
}

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

async function call(registry: ToolRegistry, name: string, args: unknown) {
  const result = await executeToolCall(registry, { id: "1", name, arguments: args });
  return JSON.parse(result.content) as { error: { code: string; message: string; hint?: string } };
}

describe("every error code has a hint a model can act on", () => {
  const codes = unionCodes();

  test("the code list of errors.ts, the error table of docs/tools.md and the hint table are the same", () => {
    expect(codes.length).toBeGreaterThan(60);
    expect(documentedCodes()).toEqual(codes);
    expect(Object.keys(ERROR_HINTS).sort()).toEqual(codes);
  });

  test.each(codes)("%s: a specific hint, in every error body", (code) => {
    const hint = ERROR_HINTS[code as ErrorCode];
    // Specific: a sentence of its own (no other code has it), long enough to say what to do, not the code again.
    expect(hint.length).toBeGreaterThanOrEqual(30);
    expect(Object.entries(ERROR_HINTS).filter(([, other]) => other === hint).map(([name]) => name)).toEqual([code]);
    expect(hint).not.toContain(code);
    expect(hint).not.toMatch(/[\r\n]|\.$/);
    // An error thrown without a hint gets its code's; one with its own keeps it.
    const body = toErrorBody(new WorkspaceError(code as ErrorCode, "Something failed"));
    expect(body.error.hint).toBe(hint);
    expect(body.error.code).toBe(ARGUMENT_ERROR_CODES.has(code as ErrorCode) ? "TOOL_ARGUMENTS_INVALID" : code);
    expect(toErrorBody(new WorkspaceError(code as ErrorCode, "x", { hint: "own" })).error.hint).toBe("own");
  });

  test("an unexpected failure (not a WorkspaceError) is INTERNAL_ERROR with its hint and nothing else", () => {
    expect(toErrorBody(new Error("ENOENT /home/me/secret"))).toEqual({
      error: { code: "INTERNAL_ERROR", message: "The tool failed unexpectedly", hint: ERROR_HINTS.INTERNAL_ERROR },
    });
  });
});

describe(`[${runtime}] the errors #43 names`, () => {
  test("CONTENT_TOO_LARGE: the hint says the limit and how to write in parts; nothing is written", async () => {
    fixture = await diskFixture([]);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace));
    const body = await call(registry, "write_file", { path: "big.txt", content: "x".repeat(70_000) });
    expect(body.error).toEqual({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "CONTENT_TOO_LARGE",
      hint: "write_file takes at most 65,536 bytes of UTF-8 per call: write the file in parts, the first with " +
        "write_file, then each next part with edit_file (old_string: the file's last lines, new_string: those " +
        "lines followed by the part)",
    });
    expect(LIMITS.WRITE_FILE_MAX_BYTES).toBe(65_536);
    expect(fs.existsSync(fixture.abs("big.txt"))).toBe(false);
  });

  test("INVALID_JSON: empty text is no arguments; text that does not parse says what is wrong", async () => {
    fixture = await diskFixture(["a.txt=hi"]);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace));
    // A tool that takes no arguments accepts "" (and whitespace) as {}.
    for (const empty of ["", "  \n"]) {
      const result = await executeToolCall(registry, { id: "1", name: "process_list", arguments: empty });
      expect(result.isError).toBe(false);
    }
    // A tool that needs arguments then says which one is missing.
    expect((await call(registry, "read_file", "")).error).toMatchObject({
      code: "TOOL_ARGUMENTS_INVALID",
      message: "INVALID_ARGUMENTS",
      hint: expect.stringContaining("path"),
    });
    const cases: [string, string][] = [
      ["path=a.txt", "the arguments must be a JSON object, but the text starts with 'path=a.txt'"],
      ['{"path": "a.txt"', "the text ends before every string and object in it is closed (was it cut off?)"],
      ['{"path": "a.txt', "the text ends before every string and object in it is closed (was it cut off?)"],
      ["{'path': 'a.txt'}", "a string is in single quotes: JSON takes double quotes"],
      ['{"path": "a.txt",}', "a comma comes right before a closing bracket: JSON has no trailing comma"],
      [
        '{"path": "a\nb"}',
        "a string holds a raw control character (a newline or a tab): write it escaped, as \\n or \\t",
      ],
      [
        "{path: a}",
        "the text is not valid JSON: check the quotes, commas and escapes, and that nothing follows the object",
      ],
      [
        '{"path": "a.txt"} x',
        "the text is not valid JSON: check the quotes, commas and escapes, and that nothing follows the object",
      ],
    ];
    for (const [text, problem] of cases) {
      expect(jsonProblem(text), text).toBe(problem);
      expect((await call(registry, "read_file", text)).error, text).toEqual({
        code: "TOOL_ARGUMENTS_INVALID",
        message: "INVALID_JSON",
        hint: `${problem}; send one JSON object, e.g. {"path": "a.txt"}`,
      });
    }
  });

  test("NOT_FOUND: the hint offers the nearest names of the parent folder", async () => {
    fixture = await diskFixture(["src/", "src/utils.ts=u", "src/index.ts=i", "src/components/", "README.md=r"]);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace));
    expect((await call(registry, "read_file", { path: "src/utls.ts" })).error).toEqual({
      code: "NOT_FOUND",
      message: "Cannot read 'src/utls.ts': no such file or folder",
      hint: "names in 'src' close to 'utls.ts': 'utils.ts'",
    });
    // Another case, another extension, a folder (with its '/').
    expect((await call(registry, "read_file", { path: "readme.md" })).error.hint).toBe(
      "names in the workspace root close to 'readme.md': 'README.md'",
    );
    expect((await call(registry, "read_file", { path: "src/index.js" })).error.hint).toBe(
      "names in 'src' close to 'index.js': 'index.ts'",
    );
    expect((await call(registry, "list_directory", { path: "src/component" })).error.hint).toBe(
      "names in 'src' close to 'component': 'components/'",
    );
    // A parent that is missing too: the first folder that exists, and which name is missing.
    expect((await call(registry, "read_file", { path: "src/compnents/Button.tsx" })).error.hint).toBe(
      "'src/compnents' does not exist; names in 'src' close to 'compnents': 'components/'",
    );
    // Nothing close: where to look instead.
    expect((await call(registry, "delete_path", { path: "src/zzzzzzzz" })).error.hint).toBe(
      "'src' holds no name close to 'zzzzzzzz': list_directory shows its entries, find_files finds a file by name",
    );
  });

  test("NOT_FOUND: the listing never leaves the workspace (a link out is not listed) and is bounded", async () => {
    fixture = await diskFixture(["out => @outside", "docs/"]);
    fs.writeFileSync(path.join(fixture.outside, "secret-name.txt"), OUTSIDE_SECRET);
    const registry = new ToolRegistry(createCodingTools(fixture.workspace));
    // The folder on the path is a link out: refused, not listed.
    const through = await call(registry, "read_file", { path: "out/secret-nam.txt" });
    expect(through.error.code).toBe("PATH_ESCAPES_WORKSPACE");
    // A missing name beside the link: its hint names the link, never what is behind it.
    const beside = await call(registry, "read_file", { path: "ou" });
    expect(beside.error.hint).toBe("names in the workspace root close to 'ou': 'out'");
    expect(JSON.stringify([through, beside])).not.toMatch(/secret-name|SECRET/);
    // Direct: a missing name below the link gives no listing (the walk refuses the link).
    const workspace = await openWorkspace(fixture.root);
    expect(await nearestNamesHint(workspace, "out/x/y")).toBeUndefined();
    // Bounded: a folder of more entries than NOT_FOUND_HINT_MAX_ENTRIES still answers with at most NOT_FOUND_HINT_NAMES.
    const big = fixture.abs("big");
    fs.mkdirSync(big);
    for (let i = 0; i < LIMITS.NOT_FOUND_HINT_MAX_ENTRIES + 200; i++) fs.writeFileSync(path.join(big, `f${i}`), "");
    const hint = await nearestNamesHint(workspace, "big/f1x");
    expect(hint?.match(/'f\d+'/g)?.length).toBe(LIMITS.NOT_FOUND_HINT_NAMES);
    await workspace.close();
  });

  test("a binary file: the message names it and the hint points to read_media_file", async () => {
    fixture = await diskFixture([]);
    fs.writeFileSync(
      fixture.abs("logo.png"),
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]),
    );
    const registry = new ToolRegistry(createCodingTools(fixture.workspace));
    const { error } = await call(registry, "read_file", { path: "logo.png" });
    expect(error.code).toBe("BINARY_FILE");
    expect(error.message).toMatch(/^Cannot read 'logo\.png': it is a binary file/);
    expect(error.hint).toMatch(/^'logo\.png' is not text; use read_media_file/);
  });
});
