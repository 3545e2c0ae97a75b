// node_process and signals: unsandboxed on Node a script can signal the agent and any process of the user
// (the description says so); with `sandbox: new BubblewrapSandbox()` it reaches none of them (ESRCH), and
// the description says that instead.
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach, describe, expect, test } from "vitest";
import { createCodingTools, createNodeProcessTool } from "../mod.ts";
import { BubblewrapSandbox } from "../sandbox.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { isAlive, killQuietly, sleep } from "./helpers/process.ts";
import { runtime } from "./helpers/runtime.ts";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

// Tries signal 0 and SIGCONT (harmless if they land) on the agent, SIGKILL on another process of the user,
// and prints what each did.
const SIGNALLER = `
const [agent, victim] = process.argv.slice(1).map(Number);
const out = [];
for (const [name, pid, signal] of [["agent-0", agent, 0], ["agent-cont", agent, "SIGCONT"], ["victim-kill", victim, "SIGKILL"]]) {
  try { process.kill(pid, signal); out.push(name + ":reached"); } catch (error) { out.push(name + ":" + error.code); }
}
out.push("parent-is-agent:" + (process.ppid === agent));
console.log(out.join(" "));
`;

let fixture: DiskFixture | undefined;
const victims: ChildProcess[] = [];
afterEach(() => {
  for (const victim of victims.splice(0)) if (victim.pid !== undefined) killQuietly(victim.pid);
  fixture?.cleanup();
  fixture = undefined;
});

function victim(): number {
  const child = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
  victims.push(child);
  return child.pid as number;
}

describe.skipIf(sandboxSkipReason !== undefined)(
  `node_process with sandbox: new BubblewrapSandbox()${sandboxSkipNote}`,
  () => {
    test(
      "a script cannot signal the agent or another process of the user (ESRCH), and the description says so",
      async () => {
        fixture = await diskFixture();
        const sandbox = new BubblewrapSandbox();
        try {
          // "inherit": the runtime's own permissions play no part; the sandbox alone refuses.
          const tool = createNodeProcessTool(fixture.workspace, { sandbox, permissions: "inherit", timeoutMs: 20_000 });
          expect(tool.description).toContain("It runs in an OS sandbox (bubblewrap)");
          expect(tool.description).toContain("it sees no other process and cannot signal one");
          expect(tool.description).not.toContain("including the agent running it");
          const pid = victim();
          const result = await tool.execute({ source: SIGNALLER, arguments: [String(process.pid), String(pid)] });
          expect(result.stderr).toBe("");
          expect(result.stdout).toBe("agent-0:ESRCH agent-cont:ESRCH victim-kill:ESRCH parent-is-agent:false\n");
          await sleep(100);
          expect(isAlive(pid)).toBe(true);
        } finally {
          await sandbox.close();
        }
      },
      60_000,
    );

    test("createCodingTools(ws, { nodeProcess: { sandbox } }) is the one option: its node_process says it is sandboxed", async () => {
      fixture = await diskFixture();
      const sandbox = new BubblewrapSandbox();
      const tools = createCodingTools(fixture.workspace, { nodeProcess: { sandbox } });
      const node = tools.find((tool) => tool.name === "node_process");
      expect(node?.description).toContain("cannot signal one");
      const plain = createCodingTools(fixture.workspace).find((tool) => tool.name === "node_process");
      expect(plain?.description).not.toContain("OS sandbox");
    });
  },
);

const notNode = runtime === "node"
  ? undefined
  : `on ${runtime} the default permissions refuse process.kill (Deno) or the script (Bun): the unsandboxed gap is Node's`;
describe.skipIf(notNode !== undefined)(
  `node_process without a sandbox, on Node${notNode ? ` [skipped: ${notNode}]` : ""}`,
  () => {
    test("a script reaches the agent and kills another process of the user, as the description warns", async () => {
      fixture = await diskFixture();
      const tool = createNodeProcessTool(fixture.workspace, { timeoutMs: 20_000 });
      expect(tool.description).toContain(
        "it can signal any process of the same user (process.kill), including the agent running it",
      );
      const pid = victim();
      const result = await tool.execute({ source: SIGNALLER, arguments: [String(process.pid), String(pid)] });
      expect(result.stdout).toBe("agent-0:reached agent-cont:reached victim-kill:reached parent-is-agent:true\n");
      for (let i = 0; i < 50 && isAlive(pid); i++) await sleep(20);
      expect(isAlive(pid)).toBe(false);
    }, 60_000);
  },
);
