// Deno's own permission refusals (`NotCapable`) reach the model as
// PERMISSION_DENIED naming the missing flag, and a scoped --allow-env is
// enough. Each case runs a small script under a real `deno run` with a chosen
// set of flags (from any runtime: the child is always Deno).
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { REPO } from "./helpers/paddock_command.ts";
import { PATHS_ROUTE_NOTE } from "../src/tools/route_note.ts";

const DENO = path.join(REPO, "node_modules", ".bin", "deno");
let scratch = "";
let workspace = "";
let probe = "";
let openProbe = "";

beforeAll(() => {
  scratch = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-deno-perm-")));
  workspace = path.join(scratch, "ws");
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, "a.txt"), "hi\n");
  probe = path.join(scratch, "probe.ts");
  fs.writeFileSync(
    probe,
    `import { createCodingTools, executeToolCall, openWorkspace, ToolRegistry } from ${
      JSON.stringify(pathToFileURL(path.join(REPO, "mod.ts")).href)
    };
// A roomy timeout: a Deno child starts slowly on a loaded machine.
const workspace = await openWorkspace(Deno.args[0]);
const tools = createCodingTools(workspace, { nodeProcess: { timeoutMs: 20000 } });
const registry = new ToolRegistry(tools);
const calls = [
  ["write_file", { path: "b.txt", content: "x" }],
  ["read_file", { path: "a.txt" }],
  ["grep", { pattern: "hi" }],
  ["node_process", { source: "console.log('ran')" }],
];
const out = { route: workspace.route, descriptions: Object.fromEntries(tools.map((tool) => [tool.name, tool.description])) };
for (const [name, args] of calls) out[name] = JSON.parse((await executeToolCall(registry, { id: name, name, arguments: args })).content);
console.log(JSON.stringify(out));
`,
  );
});
beforeAll(() => {
  openProbe = path.join(scratch, "open_probe.ts");
  fs.writeFileSync(
    openProbe,
    `import { openWorkspace } from ${JSON.stringify(pathToFileURL(path.join(REPO, "mod.ts")).href)};
try {
  await openWorkspace(Deno.args[0]);
  console.log(JSON.stringify({ opened: true }));
} catch (error) {
  console.log(JSON.stringify({ code: error.code, message: error.message, hint: error.hint }));
}
`,
  );
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The probe's results under `deno run FLAGS`. */
function runProbe(
  flags: string[],
): Record<string, { error?: { code: string; message: string; hint?: string } } & Record<string, unknown>> & {
  route: string;
  descriptions: Record<string, string>;
} {
  const result = spawnSync(DENO, [
    "run",
    "--no-prompt",
    "--config",
    path.join(REPO, "deno.json"),
    ...flags,
    probe,
    workspace,
  ], {
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 60_000,
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

describe("Deno permissions", () => {
  test("without --allow-write, writes are PERMISSION_DENIED naming --allow-write, and reads still work", () => {
    const out = runProbe(["--allow-read"]);
    expect(out.write_file.error).toEqual({
      code: "PERMISSION_DENIED",
      message: "Cannot write 'b.txt': Deno was not given --allow-write",
      hint: "start Deno with --allow-write, or --allow-write=<the workspace folder>",
    });
    expect(out.read_file).toMatchObject({ content: "hi\n" });
    expect(out.node_process.error?.code).toBe("PERMISSION_DENIED");
    // No host path leaks from Deno's own message.
    expect(JSON.stringify(out)).not.toContain(scratch);
  });

  test("without --allow-run, node_process is PERMISSION_DENIED naming --allow-run", () => {
    const out = runProbe([`--allow-read`, `--allow-write=${workspace}`, "--allow-env=PATH,HOME"]);
    expect(out.write_file).toEqual({ path: "b.txt", bytes: 1 });
    expect(out.node_process.error).toMatchObject({
      code: "PERMISSION_DENIED",
      message: "Cannot run the script: Deno was not given --allow-run",
    });
  });

  test("without --allow-env, node_process is PERMISSION_DENIED naming --allow-env", () => {
    const out = runProbe(["--allow-read", `--allow-write=${workspace}`, "--allow-run"]);
    expect(out.node_process.error).toEqual({
      code: "PERMISSION_DENIED",
      message: "Cannot read the environment for a child process: Deno was not given --allow-env",
      hint: "start Deno with --allow-env, or --allow-env=PATH,HOME,… for just the variables child processes get",
    });
  });

  test("with --allow-read and --allow-write scoped to the workspace, every tool works on the paths route and says so", () => {
    // The grep worker's module lies outside the scoped read: Deno refuses to start it (NotCapable), and grep
    // searches in the calling thread instead of throwing out of createCodingTools.
    fs.rmSync(path.join(workspace, "b.txt"), { force: true }); // an earlier case may have written it
    const out = runProbe([
      `--allow-read=${workspace}`,
      `--allow-write=${workspace}`,
      "--allow-run",
      "--allow-env=PATH,HOME,LANG",
    ]);
    expect(out.route).toBe("paths");
    expect(out.grep).toEqual({
      matches: [{ path: "a.txt", line: 1, column: 1, text: "hi" }],
      truncated: false,
      skipped: { binary: 0, tooLarge: 0, unreadable: 0 },
    });
    expect(out.write_file).toEqual({ path: "b.txt", bytes: 1 });
    expect(out.read_file).toMatchObject({ content: "hi\n" });
    expect(out.node_process).toMatchObject({ exitCode: 0, stdout: "ran\n" });
    expect(out.descriptions.read_file).toContain(PATHS_ROUTE_NOTE);
    expect(out.descriptions.grep).toContain(PATHS_ROUTE_NOTE);
    expect(out.descriptions.node_process).not.toContain(PATHS_ROUTE_NOTE);
  });

  test("with --allow-read scoped to the workspace and no --allow-write, a write is PERMISSION_DENIED naming the flag", () => {
    fs.rmSync(path.join(workspace, "b.txt"), { force: true });
    const out = runProbe([`--allow-read=${workspace}`]);
    expect(out.write_file.error).toEqual({
      code: "PERMISSION_DENIED",
      message: "Cannot write 'b.txt': Deno was not given --allow-write",
      hint: "start Deno with --allow-write, or --allow-write=<the workspace folder>",
    });
    expect(out.grep).toMatchObject({ matches: [{ path: "a.txt", text: "hi" }] });
    expect(out.node_process.error?.code).toBe("PERMISSION_DENIED");
    expect(JSON.stringify(out)).not.toContain(scratch);
  });

  test("with --allow-read scoped to another folder, opening the workspace is PERMISSION_DENIED naming --allow-read", () => {
    const other = path.join(scratch, "other");
    fs.mkdirSync(other, { recursive: true });
    const result = spawnSync(DENO, [
      "run",
      "--no-prompt",
      "--config",
      path.join(REPO, "deno.json"),
      `--allow-read=${other}`,
      openProbe,
      workspace,
    ], { encoding: "utf8", env: { ...process.env, NO_COLOR: "1" }, timeout: 60_000 });
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      code: "PERMISSION_DENIED",
      message: `Cannot open workspace '${workspace}': Deno was not given --allow-read`,
      hint: "start Deno with --allow-read, or --allow-read=<the workspace folder>",
    });
  });

  test("with -A the workspace takes the race-free handles route, and the descriptions carry no note", () => {
    fs.rmSync(path.join(workspace, "b.txt"), { force: true });
    const out = runProbe(["-A"]);
    expect(out.route).toBe("handles");
    expect(out.grep).toMatchObject({ matches: [{ path: "a.txt", text: "hi" }] });
    expect(Object.values(out.descriptions).some((text) => text.includes(PATHS_ROUTE_NOTE))).toBe(false);
  });

  test("a scoped --allow-env is enough to run a script", () => {
    const out = runProbe(["--allow-read", `--allow-write=${workspace}`, "--allow-run", "--allow-env=PATH,HOME,LANG"]);
    expect(out.node_process).toMatchObject({ exitCode: 0, stdout: "ran\n" });
  });
});
