// Seed 002, "الاتصال الصادر بقائمة سماح": a credential broker, a container sandbox whose
// only way out is the broker, and a shell tool over it. As the seed writes it; "run the
// agent" is one tool call. SubprocessSandbox's seed image is not built here (see
// seed_002_sandbox_shell.test.ts), so the command is refused; the broker runs for real.
import { createCredentialBroker, createShellTool, SandboxShell, SubprocessSandbox } from "@paddock/tools";
import { expect, test } from "vitest";

test("seed 002: broker + SubprocessSandbox({ network: { allow }, broker }) construct, refuse to run unsandboxed, and close", async () => {
  // --- the example ---
  const token = "ghp_example"; // read from your secret store; it never enters the container
  const broker = await createCredentialBroker({
    rules: { "api.github.com": { authorization: () => `Bearer ${token}` } },
  });
  const sandbox = new SubprocessSandbox({
    image: "node:20-alpine",
    network: { allow: ["registry.npmjs.org"] },
    broker,
  });
  const tool = createShellTool(new SandboxShell(sandbox, { cwd: "/abs/path/to/project" }), { needsApproval: false });
  // ... run the agent with `tool` ...
  const ran = await tool.execute({ command: "npm ci" }).catch((error: { code?: string }) => error.code);
  await sandbox.close();
  await broker.close();
  // --- end of the example ---

  // The seed's placeholder folder does not exist here, so the shell stops even before the sandbox.
  expect(["WORKSPACE_ROOT_INVALID", "SANDBOX_UNAVAILABLE"]).toContain(ran);
  expect(broker.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(JSON.stringify(broker.env)).not.toContain(token);
});
