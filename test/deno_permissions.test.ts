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

const DENO = path.join(REPO, "node_modules", ".bin", "deno");
let scratch = "";
let workspace = "";
let probe = "";

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
const registry = new ToolRegistry(createCodingTools(await openWorkspace(Deno.args[0]), { nodeProcess: { timeoutMs: 20000 } }));
const calls = [
  ["write_file", { path: "b.txt", content: "x" }],
  ["read_file", { path: "a.txt" }],
  ["node_process", { source: "console.log('ran')" }],
];
const out = {};
for (const [name, args] of calls) out[name] = JSON.parse((await executeToolCall(registry, { id: name, name, arguments: args })).content);
console.log(JSON.stringify(out));
`,
  );
});
afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

/** The probe's results under `deno run FLAGS`. */
function runProbe(
  flags: string[],
): Record<string, { error?: { code: string; message: string; hint?: string } } & Record<string, unknown>> {
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

  test("a scoped --allow-env is enough to run a script", () => {
    const out = runProbe(["--allow-read", `--allow-write=${workspace}`, "--allow-run", "--allow-env=PATH,HOME,LANG"]);
    expect(out.node_process).toMatchObject({ exitCode: 0, stdout: "ran\n" });
  });
});
