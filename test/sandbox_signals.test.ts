import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { createShellTool } from "../mod.ts";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../sandbox.ts";
import type { Sandbox } from "../src/core/process/command_sandbox.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { isAlive, killQuietly, sleep } from "./helpers/process.ts";
import { engineSkipReason, SANDBOX_IMAGE as IMAGE, sandboxSkipReason } from "./helpers/sandbox.ts";

// The container backend runs where `.ci/run` (or `bash ../shared/docker/setup-engine.sh up`) started an engine.

const BACKENDS: ReadonlyArray<{ name: string; skip: string | undefined; make: () => Sandbox }> = [
  { name: "bubblewrap", skip: sandboxSkipReason, make: () => new BubblewrapSandbox() },
  { name: "container", skip: engineSkipReason, make: () => new SubprocessSandbox({ image: IMAGE }) },
];

let fixture: DiskFixture | undefined;
const victims: ChildProcess[] = [];
afterEach(() => {
  for (const victim of victims.splice(0)) if (victim.pid !== undefined) killQuietly(victim.pid);
  fixture?.cleanup();
  fixture = undefined;
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(
    `a sandboxed shell (${backend.name}) cannot signal processes outside${
      backend.skip ? ` [skipped: ${backend.skip}]` : ""
    }`,
    () => {
      const sandbox = backend.make();
      afterAll(async () => await sandbox.close?.());

      test(
        "kill -KILL of the agent, of its parent chain and of another process of the user reaches none of them",
        async () => {
          fixture = await diskFixture();
          const victim = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
          victims.push(victim);
          const shell = createShellTool(new SandboxShell(sandbox, { cwd: fixture.root }), { needsApproval: false });
          const result = await shell.execute({
            command:
              `kill -KILL ${victim.pid} ${process.pid} ${process.ppid}; echo status=$?; kill -KILL $PPID; echo done`,
            timeout_ms: 30_000,
          });
          expect(result.stdout).toMatch(/status=[1-9]/);
          await sleep(100);
          expect(isAlive(victim.pid as number)).toBe(true);
          expect(isAlive(process.pid)).toBe(true);
        },
        60_000,
      );
    },
  );
}

describe("the same command on the host (no sandbox)", () => {
  test("does kill another process of the user: what the sandbox prevents", async () => {
    fixture = await diskFixture();
    const victim = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
    victims.push(victim);
    const shell = createShellTool(fixture.workspace, { needsApproval: false });
    const result = await shell.execute({ command: `kill -KILL ${victim.pid}; echo status=$?`, timeout_ms: 30_000 });
    expect(result.stdout).toBe("status=0\n");
    for (let i = 0; i < 50 && isAlive(victim.pid as number); i++) await sleep(20);
    expect(isAlive(victim.pid as number)).toBe(false);
  });
});
