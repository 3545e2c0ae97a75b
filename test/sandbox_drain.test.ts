// A sandbox whose processes end a moment after the spawned one (bubblewrap:
// `--new-session` puts the command out of its group's reach, and it dies with
// bwrap's PID namespace) says so with `drainGraceMs`; every runner waits that
// long for the output pipes, so a call or kill answers once they are closed.
// Seen failing before the fix: an HTTP server stopped under load left the
// sandboxed script and its bwrap running after every session had ended.
import * as fs from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { createNodeProcessTool } from "../mod.ts";
import { BubblewrapSandbox, SandboxShell } from "../sandbox.ts";
import type { Sandbox, SandboxWrapRequest } from "../src/core/process/command_sandbox.ts";
import { BackgroundProcesses } from "../src/core/process/background_processes.ts";
import { PIPE_DRAIN_GRACE_MS, SANDBOX_DRAIN_GRACE_MS } from "../src/core/limits.ts";
import { startShellInBackground } from "../src/tools/start_in_background.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { pidsRunning, sleep } from "./helpers/process.ts";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

// Past the default grace, well inside the sandbox's: a late line proves the runner waited.
const LATE_MS = PIPE_DRAIN_GRACE_MS + 1_000;
const GRACE_MS = LATE_MS + 2_000;

/** A sandbox that runs the command as given and declares a drain grace, as bubblewrap does. */
class DrainingSandbox implements Sandbox {
  readonly kind = "test-draining";
  check(): Promise<void> {
    return Promise.resolve();
  }
  wrap(request: SandboxWrapRequest) {
    return Promise.resolve({ argv: request.argv, env: request.env, drainGraceMs: GRACE_MS });
  }
}

// Prints "early", leaves a process outside the group holding stdout that prints "late" after LATE_MS.
// The shell waits (on a fifo) until that process is in its own session: a shell that exited first
// would have its group killed with the writer still in it, and "late" would never come.
const LATE_WRITER = `mkfifo .in-session; setsid sh -c 'echo > .in-session; sleep ${LATE_MS / 1000}; echo late' & ` +
  `read _ < .in-session; echo early`;

describe("a sandbox's drain grace", () => {
  let fx: DiskFixture | undefined;
  afterEach(() => {
    fx?.cleanup();
    fx = undefined;
  });

  test("SandboxShell.exec waits for output written after the shell exited, up to the sandbox's grace", async () => {
    fx = await diskFixture([]);
    const shell = new SandboxShell(new DrainingSandbox(), { cwd: fx.root });
    const result = await shell.exec({ command: LATE_WRITER, timeoutMs: 15_000 });
    expect(result).toMatchObject({ exitCode: 0, stdout: "early\nlate\n" });
  });

  test("a background shell command ends only once the pipes held past its exit are closed", async () => {
    fx = await diskFixture([]);
    const table = new BackgroundProcesses();
    const shell = new SandboxShell(new DrainingSandbox(), { cwd: fx.root });
    const started = await startShellInBackground(table, shell, { command: LATE_WRITER, maxOutputBytes: 65_536 });
    const proc = table.get(started.process_id);
    await proc.ended;
    const output = await proc.read(0);
    expect(output.stdout).toBe("early\nlate\n");
    await table.killAll();
  });

  test("node_process waits for the sandbox's grace too", async () => {
    fx = await diskFixture([]);
    const tool = createNodeProcessTool(fx.workspace, {
      sandbox: new DrainingSandbox(),
      permissions: "inherit",
      timeoutMs: 15_000,
    });
    const result = await tool.execute({
      source: `require("child_process").spawn("sh", ["-c", ${JSON.stringify(`sleep ${LATE_MS / 1000}; echo late`)}], ` +
        `{ detached: true, stdio: ["ignore", "inherit", "inherit"] }).unref(); console.log("early");`,
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: "early\nlate\n" });
  });

  test.skipIf(sandboxSkipReason !== undefined)(
    `bubblewrap declares SANDBOX_DRAIN_GRACE_MS, and a killed background command's whole tree is gone when the kill answers${sandboxSkipNote}`,
    async () => {
      fx = await diskFixture([]);
      const sandbox = new BubblewrapSandbox();
      try {
        const root = fs.realpathSync(fx.root);
        const wrapped = await sandbox.wrap({ argv: ["/bin/true"], cwd: root, env: {}, writable: [root] });
        expect(wrapped.drainGraceMs).toBe(SANDBOX_DRAIN_GRACE_MS);
        const marker = `paddock-drain-marker-${process.pid}-${Date.now()}`;
        const table = new BackgroundProcesses();
        const shell = new SandboxShell(sandbox, { cwd: fx.root });
        const sleeper = ["sh", "-c", "sleep 600; :", marker];
        const started = await startShellInBackground(table, shell, {
          command: `${sleeper.slice(0, 2).join(" ")} '${sleeper[2]}' ${marker} & ${sleeper.slice(0, 2).join(" ")} '${
            sleeper[2]
          }' ${marker}`,
          maxOutputBytes: 65_536,
        });
        // Both shells running (a third, for a moment, is one of them forked before it execs sleep).
        for (let waited = 0; pidsRunning(sleeper).length < 2 && waited < 10_000; waited += 25) await sleep(25);
        expect(pidsRunning(sleeper).length).toBeGreaterThanOrEqual(2);
        await table.get(started.process_id).kill();
        expect(pidsRunning(sleeper)).toEqual([]);
      } finally {
        await sandbox.close();
      }
    },
  );
});
