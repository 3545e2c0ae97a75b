import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { createShellTool } from "../mod.ts";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../sandbox.ts";
import type { Sandbox } from "../src/core/process/command_sandbox.ts";
import { DEFAULT_DOCKER_SOCKET, socketFromDockerHost } from "../src/sandbox/docker_engine.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { isAlive, killQuietly, sleep } from "./helpers/process.ts";
import { sandboxSkipReason } from "./helpers/sandbox.ts";

// The container backend runs where `.ci/run` (or `bash ../shared/docker/setup-engine.sh up`) started an engine.
const SOCKET = socketFromDockerHost(process.env.DOCKER_HOST) ?? DEFAULT_DOCKER_SOCKET;
const IMAGE = process.env.PADDOCK_SANDBOX_IMAGE ?? "paddock/sandbox-node:local";
const engineSkipReason = process.platform !== "linux"
  ? `the container sandbox is tested on Linux only, not ${process.platform}`
  : !fs.existsSync(SOCKET)
  ? `no Docker Engine socket at ${SOCKET} (start one: bash ../shared/docker/setup-engine.sh up)`
  : undefined;

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
