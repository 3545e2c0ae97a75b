// Orphans (issue 39, item 9): a program that ends by SIGTERM or SIGINT without closing its workspace
// takes its unsandboxed background (and foreground) commands with it. Children are spawned detached
// (their own session), so nothing else ends them: the host's exit reaper kills their groups.
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { describe, expect, test } from "vitest";
import { diskFixture } from "./helpers/fixture.ts";
import { REPO, scriptCommand } from "./helpers/paddock_command.ts";
import { isAlive, killQuietly, pidsRunning, waitFor } from "./helpers/process.ts";
import { runtime } from "./helpers/runtime.ts";

type Case = {
  name: string;
  signal: "SIGTERM" | "SIGINT" | "SIGKILL";
  background: boolean;
  ownHandler: boolean;
  sandboxed?: boolean;
  survives?: boolean;
};

const CASES: Case[] = [
  { name: "SIGTERM, a background command", signal: "SIGTERM", background: true, ownHandler: false },
  { name: "SIGINT, a background command", signal: "SIGINT", background: true, ownHandler: false },
  { name: "SIGTERM, a foreground command still running", signal: "SIGTERM", background: false, ownHandler: false },
  {
    name: "SIGTERM caught by the program, which calls process.exit",
    signal: "SIGTERM",
    background: true,
    ownHandler: true,
  },
  // What a SIGKILL leaves: nothing can run at it, so the unsandboxed command keeps running (stated in docs/tools.md)…
  {
    name: "SIGKILL: an unsandboxed background command survives it",
    signal: "SIGKILL",
    background: true,
    ownHandler: false,
    survives: true,
  },
  // …and bubblewrap's --die-with-parent ends a sandboxed one.
  {
    name: "SIGKILL: a background command in bubblewrap dies with it",
    signal: "SIGKILL",
    background: true,
    ownHandler: false,
    sandboxed: true,
  },
];

const HAS_BWRAP = fs.existsSync("/usr/bin/bwrap") || fs.existsSync("/bin/bwrap");

describe(`the ${runtime} host ends its commands' groups when its process ends without close()`, () => {
  test.each(CASES)("$name", async ({ signal, background, ownHandler, sandboxed, survives }) => {
    if (sandboxed === true && !HAS_BWRAP) return; // bubblewrap is not installed here: nothing to prove
    const fixture = await diskFixture([]);
    const seconds = String(6_000_000 + Math.floor(Math.random() * 1_000_000));
    const script = path.join(fixture.root, "..", `orphan-probe-${process.pid}-${seconds}.mts`);
    try {
      fs.writeFileSync(
        script,
        [
          `import { createShellTool, openWorkspace } from ${JSON.stringify(path.join(REPO, "mod.ts"))};`,
          `import { BubblewrapSandbox, SandboxShell } from ${JSON.stringify(path.join(REPO, "sandbox.ts"))};`,
          `const workspace = await openWorkspace(${JSON.stringify(fixture.root)});`,
          sandboxed === true
            ? `const shell = createShellTool(new SandboxShell(new BubblewrapSandbox({ network: "none" }), { cwd: ${
              JSON.stringify(fixture.root)
            } }), { needsApproval: false, maxTimeoutMs: 600_000 });`
            : `const shell = createShellTool(workspace, { needsApproval: false, maxTimeoutMs: 600_000 });`,
          ownHandler ? `process.on(${JSON.stringify(signal)}, () => process.exit(3));` : "",
          background
            ? `await shell.execute({ command: "sleep ${seconds} & echo $! > /dev/null; sleep ${seconds}", background: true });`
            : `void shell.execute({ command: "sleep ${seconds}", timeout_ms: 600_000 });`,
          `setInterval(() => {}, 1_000);`,
          `console.log("ready");`,
        ].join("\n"),
      );
      const { command, args } = scriptCommand(runtime, script);
      const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on("exit", (code, sig) => resolve({ code, signal: sig }))
      );
      try {
        await waitFor(() => out.includes("ready") && pidsRunning(["sleep", seconds]).length >= 1, 60_000).catch(
          (error) => {
            throw new Error(`the probe did not start: ${err}`, { cause: error });
          },
        );
        const sleepers = pidsRunning(["sleep", seconds]);
        process.kill(child.pid!, signal);
        const status = await exited;
        if (survives === true) {
          expect(status.signal).toBe("SIGKILL");
          // Given time to die, it does not: counted, not timed (a few polls of /proc).
          for (let poll = 0; poll < 5; poll++) {
            await new Promise((resolve) => setTimeout(resolve, 100));
            expect(sleepers.filter(isAlive)).toEqual(sleepers);
          }
          return;
        }
        // It ended as the signal (or its own handler) says.
        if (ownHandler) expect(status).toEqual({ code: 3, signal: null });
        else expect([signal, null]).toContain(status.signal);
        if (!ownHandler && status.signal === null && signal !== "SIGKILL") {
          expect(status.code).toBe(signal === "SIGTERM" ? 143 : 130);
        }
        // Its commands' groups went with it.
        await waitFor(() => sleepers.every((pid) => !isAlive(pid)), 20_000).catch((error) => {
          throw new Error(`still running: ${sleepers.filter(isAlive)}`, { cause: error });
        });
      } finally {
        child.kill("SIGKILL");
        for (const pid of pidsRunning(["sleep", seconds])) killQuietly(pid);
      }
    } finally {
      fs.rmSync(script, { force: true });
      fixture.cleanup();
    }
  }, 120_000);
});
