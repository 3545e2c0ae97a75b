// Seed 002, "الاتصال الصادر بقائمة سماح", last example: a sandbox with no network and a
// SandboxShell with its own env and inheritEnv. As the seed writes it (SubprocessSandbox is
// the seed's image is not built here: commands are refused with SANDBOX_UNAVAILABLE).
import { createShellTool, SandboxShell, SubprocessSandbox } from "@paddock/tools";
import * as fs from "node:fs";
import * as os from "node:os";
import { expect, test } from "vitest";

test("seed 002: SubprocessSandbox({ network: 'none' }) with a SandboxShell carrying env and inheritEnv", async () => {
  // --- the example ---
  const sandbox = new SubprocessSandbox({ image: "node:20-alpine", network: "none" });
  const shell = new SandboxShell(sandbox, {
    cwd: "/abs/path/to/project",
    env: { NODE_ENV: "test" }, // set for every command
    inheritEnv: ["CI"], // copied from the host environment
  });
  const tool = createShellTool(shell, { needsApproval: false });
  // --- end of the example ---

  expect(tool.name).toBe("shell");
  expect(sandbox.options.network).toBe("none");
  await expect(sandbox.check()).rejects.toMatchObject({ code: "SANDBOX_UNAVAILABLE" });
  // With a folder that exists, the sandbox itself is what refuses, and the default options apply.
  const dir = fs.realpathSync(os.tmpdir());
  await expect(new SandboxShell(sandbox, { cwd: dir }).exec("true")).rejects.toMatchObject({
    code: "SANDBOX_UNAVAILABLE",
  });
});
