import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../src/cli/main.ts";
import { parseShellMode } from "../src/cli/mcp_command.ts";
import { colorEnabled } from "../src/cli/colors.ts";
import { UsageError } from "../src/cli/usage_error.ts";
import { SAMPLE_PROJECT_BUG, SAMPLE_PROJECT_FILES } from "../src/demo/sample_project.ts";
import { VERSION } from "../src/version.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { paddockCommand, REPO } from "./helpers/paddock_command.ts";
import { onBun, onDeno, runtime, skipNote } from "./helpers/runtime.ts";

/** Why the demo tests do not run under Bun. */
const BUN_NOTE = skipNote(onBun, "Bun has no permission model for node_process, so paddock demo refuses to run");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `paddock ARGS` as a process under the suite's runtime, in `cwd`. */
function paddock(args: string[], cwd: string = REPO, env: Record<string, string> = {}): Promise<Run> {
  const { command, args: argv } = paddockCommand(runtime, args);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Uint8Array) => (stdout += new TextDecoder().decode(chunk)));
    child.stderr.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the command in-process with captured output. */
async function runInProcess(
  args: string[],
  options: { tty?: boolean; env?: Record<string, string> } = {},
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    stdoutIsTTY: options.tty ?? false,
    env: options.env ?? {},
  });
  return { code, stdout, stderr };
}

describe("paddock call, as a process", () => {
  let fixture: DiskFixture;
  beforeAll(async () => {
    fixture = await diskFixture(["notes.txt=hello\n"]);
  });
  afterAll(() => fixture?.cleanup());

  test("prints the result JSON and exits 0 for a result", async () => {
    const run = await paddock(["call", "read_file", '{"path":"notes.txt"}', "--root", fixture.root]);
    expect(run).toEqual({ code: 0, stdout: '{"path":"notes.txt","content":"hello\\n","bytes":6}\n', stderr: "" });
  });

  test("takes the current folder as the root by default", async () => {
    const run = await paddock(["call", "read_file", '{"path":"notes.txt"}'], fixture.root);
    expect(run).toEqual({ code: 0, stdout: '{"path":"notes.txt","content":"hello\\n","bytes":6}\n', stderr: "" });
  });

  test("prints the error JSON and exits 1 for an error result", async () => {
    const run = await paddock(["call", "read_file", '{"path":"../outside/secret.txt"}', "--root", fixture.root]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "INVALID_RELATIVE_PATH",
        hint: expect.stringContaining("would leave the workspace"),
      },
    });
  });

  test("exits 2 with one line on stderr for a usage error", async () => {
    const run = await paddock(["call", "read_file", "{not json", "--root", fixture.root]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("not valid JSON");
  });

  test("--version prints the package version", async () => {
    expect(await paddock(["--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
  });
});

describe("paddock, in-process", () => {
  let fixture: DiskFixture;
  beforeAll(async () => {
    fixture = await diskFixture(["a.txt=a"]);
  });
  afterAll(() => fixture?.cleanup());

  test("call writes through write_file and reports TOOL_NOT_FOUND for an unknown tool", async () => {
    const write = await runInProcess(["call", "write_file", '{"path":"b.txt","content":"b"}', "--root", fixture.root]);
    expect(write).toEqual({ code: 0, stdout: '{"path":"b.txt","bytes":1}\n', stderr: "" });
    expect(fs.readFileSync(fixture.abs("b.txt"), "utf8")).toBe("b");
    const unknown = await runInProcess(["call", "nope", "{}", "--root", fixture.root]);
    expect(unknown.code).toBe(1);
    expect(JSON.parse(unknown.stdout).error.code).toBe("TOOL_NOT_FOUND");
  });

  test("call --read-only refuses write_file", async () => {
    const run = await runInProcess([
      "call",
      "write_file",
      '{"path":"c.txt","content":"c"}',
      "--root",
      fixture.root,
      "--read-only",
    ]);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).error.code).toBe("TOOL_NOT_FOUND");
    expect(fs.existsSync(fixture.abs("c.txt"))).toBe(false);
  });

  test.each([
    ["no command", []],
    ["an unknown command", ["frobnicate"]],
    ["an unknown top-level flag", ["--bogus"]],
    ["a short flag that does not exist", ["call", "-x"]],
    ["an unknown mcp flag", ["mcp", "--bogus"]],
    ["an unknown call flag", ["call", "read_file", "{}", "--bogus"]],
    ["an unknown demo flag", ["demo", "--fast"]],
    ["a bad --node-process value", ["mcp", "--node-process", "maybe"]],
    ["a bad --stale-write-guard value", ["mcp", "--stale-write-guard", "yes"]],
    ["a bad --warm-up value", ["mcp", "--warm-up", "later"]],
    ["a --node-process-timeout that is not whole milliseconds", ["mcp", "--node-process-timeout", "1.5"]],
    ["a --node-process-timeout of 0", ["mcp", "--node-process-timeout", "0"]],
    ["a bad --shell value", ["mcp", "--shell", "sometimes"]],
    ["an empty allow pattern", ["mcp", "--shell", "allow:"]],
    ["--shell off mixed with allow", ["mcp", "--shell", "off", "--shell", "allow:ls"]],
    ["a missing --root value", ["mcp", "--root"]],
    ["--root given twice", ["mcp", "--root", ".", "--root", "."]],
    ["a value for a boolean flag", ["mcp", "--read-only=yes"]],
    ["an extra mcp argument", ["mcp", "extra"]],
    ["call without JSON", ["call", "read_file"]],
    ["call with JSON that is not an object", ["call", "read_file", "[1]"]],
    ["call with an extra argument", ["call", "read_file", "{}", "more"]],
    ["a --root that does not exist", ["call", "read_file", "{}", "--root", "/nonexistent/paddock-test"]],
    ["a --root that is a file", ["mcp", "--root", "package.json"]],
    ["mcp without --root", ["mcp"]],
    ["mcp serving the filesystem root without --allow-broad-root", ["mcp", "--root", "/"]],
    ["mcp serving the home folder without --allow-broad-root", ["mcp", "--root", os.homedir()]],
    ["an extra demo argument", ["demo", "now"]],
  ])("%s is a usage error: one line on stderr, exit 2", async (_name, args) => {
    const run = await runInProcess(args);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^paddock: [^\n]+\n$/);
  });

  test.each([[[]], [["mcp"]], [["call"]], [["demo"]], [["call", "read_file", "{}"]]])(
    "--help and --version work after %j",
    async (prefix) => {
      const help = await runInProcess([...prefix, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Usage/);
      expect(await runInProcess([...prefix, "--version"])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: "" });
      expect((await runInProcess([...prefix, "-h"])).stdout).toBe(help.stdout);
    },
  );

  test("--shell takes off, ask, or one or more allow:PATTERN", () => {
    expect(parseShellMode([])).toEqual({ mode: "off" });
    expect(parseShellMode(["ask"])).toEqual({ mode: "ask" });
    expect(parseShellMode(["allow:git status", "allow:npm test"])).toEqual({
      mode: "allow",
      patterns: ["git status", "npm test"],
    });
    expect(() => parseShellMode(["ask", "off"])).toThrow(UsageError);
  });

  test("colour is used only on a terminal without NO_COLOR", () => {
    expect(colorEnabled(true, {})).toBe(true);
    expect(colorEnabled(true, { NO_COLOR: "" })).toBe(true);
    expect(colorEnabled(true, { NO_COLOR: "1" })).toBe(false);
    expect(colorEnabled(false, {})).toBe(false);
    expect(colorEnabled(undefined, {})).toBe(false);
  });

  test("the version constant equals package.json and deno.json", () => {
    for (const file of ["package.json", "deno.json"]) {
      const manifest = JSON.parse(fs.readFileSync(path.join(REPO, file), "utf8")) as { version: string };
      expect({ file, version: manifest.version }).toEqual({ file, version: VERSION });
    }
  });

  test("the package ships the paddock bin, the ./cli and ./mcp exports, and a start script for the demo", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, "package.json"), "utf8"));
    const deno = JSON.parse(fs.readFileSync(path.join(REPO, "deno.json"), "utf8"));
    // A committed shim (npm checks the bin exists before prepack builds dist/), in the form npm keeps as is.
    expect(pkg.bin).toEqual({ paddock: "bin/paddock.js" });
    expect(pkg.files).toContain("bin/");
    const shim = fs.readFileSync(path.join(REPO, "bin/paddock.js"), "utf8");
    expect(shim.startsWith("#!/usr/bin/env node\n")).toBe(true);
    expect(shim).toContain('import "../dist/bin/cli.js";');
    expect(pkg.scripts.build).toContain("node scripts/build_bin.mjs dist");
    expect(fs.statSync(path.join(REPO, "bin/paddock.js")).mode & 0o111).not.toBe(0);
    expect(pkg.exports["./cli"]).toEqual({ types: "./dist/cli.d.ts", default: "./dist/cli.js" });
    expect(pkg.exports["./mcp"]).toEqual({ types: "./dist/src/mcp/mod.d.ts", default: "./dist/src/mcp/mod.js" });
    expect(deno.exports["./cli"]).toBe("./cli.ts");
    expect(deno.exports["./mcp"]).toBe("./src/mcp/mod.ts");
    expect(pkg.scripts.start).toMatch(/cli\.ts demo$/);
    expect(fs.readFileSync(path.join(REPO, "cli.ts"), "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });
});

describe("paddock demo", () => {
  test.runIf(onBun)(
    `refuses to run under Bun, which has no permission model for node_process${
      skipNote(!onBun, `the refusal is Bun's; this is ${runtime}`)
    }`,
    async () => {
      const run = await paddock(["demo"]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("Bun");
    },
  );

  test.skipIf(onBun)(
    `as a process: fixes the bug, refuses every escape, prints no colour when piped, exits 0, leaves nothing behind${BUN_NOTE}`,
    async () => {
      // A temp folder of its own, so demos run by other processes cannot interfere.
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-demo-test-")));
      const created: string[] = [];
      const watcher = fs.watch(tmp, (_event, name) => void (name !== null && created.push(String(name))));
      let run: Run;
      try {
        run = await paddock(["demo"], REPO, { TMPDIR: tmp, TMP: tmp, TEMP: tmp });
        // The demo worked in this folder (its copy appeared) and removed everything.
        await expect.poll(() => created.some((name) => name.startsWith("paddock-demo-"))).toBe(true);
        // (tsx, which runs the command under Node here, keeps its cache there too.)
        expect(fs.readdirSync(tmp).filter((name) => name.startsWith("paddock-"))).toEqual([]);
      } finally {
        watcher.close();
        fs.rmSync(tmp, { recursive: true, force: true });
      }
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      expect(run.stdout).not.toContain("\u001b[");
      expect(run.stdout).toContain("1 of 4 tests failed");
      expect(run.stdout).toContain("all 4 tests passed");
      expect(run.stdout).toContain("Task: The tests of tiny-stats fail.");
      expect(run.stdout).toContain("Agent: Fixed: median()");
      expect(run.stdout).toMatch(/INVALID_RELATIVE_PATH/);
      expect(run.stdout).toMatch(/PATH_ESCAPES_WORKSPACE/);
      expect(run.stdout).toMatch(
        /Summary: \d+ tool calls, \d+ results, 5 escapes refused; the bug is fixed and the temp folder removed/,
      );
      expect(run.stdout).not.toContain(tmp);
    },
  );

  test.skipIf(onBun)(
    `a reader that stops early (paddock demo | head) ends it quietly, and it still cleans up${BUN_NOTE}`,
    async () => {
      const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-demo-test-")));
      try {
        const { command, args } = paddockCommand(runtime, ["demo"]);
        const child = spawn(command, args, {
          cwd: REPO,
          env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
          stdio: ["ignore", "pipe", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
        const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
        // Read the first chunk, then close the pipe as `head` does.
        await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
        child.stdout.destroy();
        expect(await exited).toBe(0);
        expect(stderr).toBe("");
        expect(fs.readdirSync(tmp).filter((name) => name.startsWith("paddock-"))).toEqual([]);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    },
  );

  test.skipIf(onBun)(`interrupted, it removes its temp folder before exiting${BUN_NOTE}`, async () => {
    const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-demo-test-")));
    try {
      const { command, args } = paddockCommand(runtime, ["demo"]);
      const child = spawn(command, args, {
        cwd: REPO,
        env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr.on("data", (chunk: Uint8Array) => (stderr += new TextDecoder().decode(chunk)));
      const exited = new Promise<string>((resolve) =>
        child.on("close", (code, signal) => resolve(code !== null ? `code ${code}` : `signal ${signal}`))
      );
      await new Promise<void>((resolve) => child.stdout.once("data", () => resolve()));
      expect(fs.readdirSync(tmp).filter((name) => name.startsWith("paddock-demo-"))).toHaveLength(1);
      child.kill("SIGTERM");
      // 143 = 128 + SIGTERM. (A Deno parent reports a child it killed by the signal, whatever its exit code.)
      // (With its stderr, so that another exit says why.)
      expect({ exit: await exited, stderr }).toEqual({ exit: onDeno ? "signal SIGTERM" : "code 143", stderr: "" });
      expect(fs.readdirSync(tmp).filter((name) => name.startsWith("paddock-"))).toEqual([]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  test.skipIf(onBun)(`in-process on a terminal: colours the transcript unless NO_COLOR is set${BUN_NOTE}`, async () => {
    const coloured = await runInProcess(["demo"], { tty: true });
    expect(coloured.code).toBe(0);
    expect(coloured.stdout).toContain("\u001b[32m");
    const plain = await runInProcess(["demo"], { tty: true, env: { NO_COLOR: "1" } });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toContain("\u001b[");
  });

  test("the sample project holds the bug the demo fixes", () => {
    expect(SAMPLE_PROJECT_FILES[SAMPLE_PROJECT_BUG.path]).toContain(SAMPLE_PROJECT_BUG.before);
    expect(Object.keys(SAMPLE_PROJECT_FILES)).toEqual(expect.arrayContaining(["README.md", "test.js"]));
  });
});

describe("the demo transcript's result summaries", () => {
  test("show an error's code, a script's exit and output, a listing's entries and an edit's diff", async () => {
    const { summarizeResult } = await import("../src/cli/summarize_result.ts");
    expect(summarizeResult("read_file", { error: { code: "NOT_FOUND", message: "Cannot read 'x': no such file" } }))
      .toEqual(["NOT_FOUND: Cannot read 'x': no such file"]);
    expect(summarizeResult("node_process", { exitCode: 1, stdout: "ok a\nFAIL b\n", stderr: "", timedOut: false }))
      .toEqual(["exit code 1", "│ ok a", "│ FAIL b"]);
    expect(summarizeResult("list_directory", {
      entries: [{ name: "src", kind: "directory" }, { name: "a.txt", kind: "file", size: 1 }, {
        name: "l",
        kind: "symlink",
      }],
    })).toEqual(["3 entries: src/, a.txt, l@"]);
    expect(summarizeResult("edit_file", {
      path: "a.js",
      replacements: 1,
      bytes: 10,
      diff: "--- a/a.js\n+++ b/a.js\n@@ -1 +1 @@\n-old\n+new\n",
    })).toEqual(["1 replacement, 10 bytes", "│ @@ -1 +1 @@", "│ -old", "│ +new"]);
    expect(summarizeResult("grep", {
      matches: [{ path: "src/a.js", line: 3, column: 1, text: "  x.sort();" }],
      truncated: false,
    })).toEqual(["1 match", "│ src/a.js:3: x.sort();"]);
    expect(summarizeResult("write_file", { path: "a", bytes: 3 })).toEqual(["wrote 3 bytes"]);
    expect(summarizeResult("read_file", { path: "a", content: "x\ny\n", bytes: 4 })).toEqual(["4 bytes, 2 lines"]);
  });
});
