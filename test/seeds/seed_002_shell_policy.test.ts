// Seed 002, "الأدوات": the shell tool with an approval function, a deny list and a longer
// default timeout. As the seed writes it; nothing is external.
import { createShellTool, NodeWorkspace } from "@paddock/tools";
import { expect, test } from "vitest";

test("seed 002: read-only commands run without asking, the rest need approval, rm -rf and sudo are denied", async () => {
  // --- the example ---
  const shell = createShellTool(new NodeWorkspace({ root: "." }), {
    needsApproval: (command) => !/^(ls|cat|git (status|diff|log))\b/.test(command), // read-only commands run without asking
    deny: ["rm -rf", /\bsudo\b/],
    defaultTimeoutMs: 60_000,
  });
  // --- end of the example ---

  const needsApproval = shell.needsApproval as (input: unknown) => boolean | Promise<boolean>;
  expect(await needsApproval(shell.validate({ command: "git status" }))).toBe(false);
  expect(await needsApproval(shell.validate({ command: "npm install" }))).toBe(true);
  expect(() => shell.validate({ command: "rm -rf /" })).toThrow(
    expect.objectContaining({ code: "SHELL_COMMAND_DENIED" }),
  );
  expect(() => shell.validate({ command: "echo x | sudo tee /etc/x" })).toThrow(
    expect.objectContaining({ code: "SHELL_COMMAND_DENIED" }),
  );
  expect(shell.validate({ command: "ls" })).toEqual({ command: "ls", timeoutMs: 60_000 });
  expect((await shell.execute({ command: "ls package.json" })).stdout).toBe("package.json\n");
});
