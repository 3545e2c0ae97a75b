import { type ChildProcess, spawn } from "node:child_process";
import * as fs from "node:fs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { createNodeProcessTool, createShellTool, type NodeProcessToolOptions } from "../mod.ts";
import { BubblewrapSandbox } from "../sandbox.ts";
import { nodeProcessReach } from "../src/tools/process_reach.ts";
import { type DiskFixture, diskFixture, leftovers } from "./helpers/fixture.ts";
import { isAlive, killQuietly, sleep } from "./helpers/process.ts";
import { onBun, onDeno, runtime, skipNote } from "./helpers/runtime.ts";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

const ROOMY = { timeoutMs: 15_000 };
// Bun has no permission model: node_process runs there only with permissions: "inherit".
const PERMISSIONS: NodeProcessToolOptions = onBun ? { permissions: "inherit" } : {};

let fixture: DiskFixture | undefined;
const victims: ChildProcess[] = [];
afterEach(() => {
  for (const victim of victims.splice(0)) if (victim.pid !== undefined) killQuietly(victim.pid);
  if (fixture) {
    expect(leftovers(fixture.root)).toEqual([]);
    fixture.cleanup();
    fixture = undefined;
  }
});

// Another process of the same user, as the agent (or its editor) would be.
function startVictim(): number {
  const victim = spawn("sleep", ["30"], { stdio: "ignore", detached: true });
  victims.push(victim);
  return victim.pid as number;
}

const KILL_SOURCE =
  `try { process.kill(Number(process.argv[1]), "SIGKILL"); console.log("SENT"); } catch (e) { console.log("REFUSED", e.code || e.name); }`;

describe("node_process descriptions state what the script can reach", () => {
  test("on Node: links that point out, the open network, and signals to the agent", () => {
    const reach = nodeProcessReach("node", "workspace", undefined);
    expect(reach.text).toMatch(/link already in the workspace that points outside is followed/);
    expect(reach.text).toMatch(/network is open/);
    expect(reach.text).toMatch(/signal any process of the same user.*including the agent/);
    expect(reach.openWorld).toBe(true);
  });

  test("on Deno: links that point out (so an open world); no network, child processes or signals", () => {
    const reach = nodeProcessReach("deno", "workspace", undefined);
    expect(reach.text).toMatch(/link already in the workspace that points outside is followed/);
    expect(reach.text).toMatch(/no network, environment, child processes or signals/);
    expect(reach.openWorld).toBe(true);
  });

  test("on Bun: that it refuses to run without a permission model", () => {
    expect(nodeProcessReach("bun", "workspace", undefined).text).toMatch(/NODE_PROCESS_PERMISSIONS_UNAVAILABLE/);
  });

  test("with permissions: inherit: the agent user's full rights", () => {
    const reach = nodeProcessReach("deno", "inherit", undefined);
    expect(reach.text).toMatch(/full rights of the agent's user/);
    expect(reach.openWorld).toBe(true);
  });

  test("in the sandbox: links lead nowhere, no other process, the sandbox's network", () => {
    const closed = nodeProcessReach("node", "workspace", new BubblewrapSandbox());
    expect(closed.text).toMatch(/link pointing out of the workspace leads nowhere/);
    expect(closed.text).toMatch(/sees no other process and cannot signal one/);
    expect(closed.text).toMatch(/no network/);
    expect(closed.openWorld).toBe(false);
    const allowlisted = nodeProcessReach(
      "node",
      "workspace",
      new BubblewrapSandbox({ network: { allow: ["example.com"] } }),
    );
    expect(allowlisted.text).toMatch(/network only to the hosts the sandbox allows/);
    expect(allowlisted.openWorld).toBe(true);
  });

  test("the tool's own description and openWorld follow the runtime it runs on", async () => {
    fixture = await diskFixture();
    const tool = createNodeProcessTool(fixture.workspace);
    expect(tool.description).toContain(nodeProcessReach(runtime, "workspace", undefined).text);
    expect(tool.description).not.toContain("can read and write only the workspace.");
    expect(tool.openWorld).toBe(true); // only a network-less OS sandbox makes a closed world
  });

  test("the shell's description says commands are not confined", async () => {
    fixture = await diskFixture();
    const shell = createShellTool(fixture.workspace, { allow: ["git status"] });
    expect(shell.description).toMatch(/not confined: they run with the full rights of the agent's user/);
    expect(shell.openWorld).toBe(true);
  });
});

describe("node_process output", () => {
  test("holds no temp-file path and no stack frame of the launcher (the script's own paths stay as printed)", async () => {
    fixture = await diskFixture(["lib/deep.cjs=module.exports = function () { throw new TypeError('deep failure') }"]);
    const tool = createNodeProcessTool(fixture.workspace, { ...ROOMY, ...PERMISSIONS });
    const thrown = await tool.execute({
      source: "console.log(process.cwd(), __filename, require.resolve('./lib/deep.cjs'));\nrequire('./lib/deep.cjs')()",
    });
    const text = thrown.stdout + thrown.stderr;
    const root = fixture.workspace.root;
    expect(thrown.stdout).toBe(`${root} <script> ${root}/lib/deep.cjs\n`);
    expect(thrown.stderr).toContain("TypeError: deep failure");
    expect(thrown.stderr).toMatch(/lib\/deep\.cjs:1/);
    expect(thrown.stderr).toMatch(/<script>:2/);
    expect(text).not.toMatch(/\.paddock-node-|\[eval\]|node:internal|boot\.cjs|compileCommonJs/);
    const syntax = await tool.execute({ source: "this is not javascript" });
    expect(syntax.stderr).toMatch(onBun ? /error: / : /SyntaxError/); // Bun: "error: Unexpected is"
    expect(syntax.stderr).not.toMatch(/\.paddock-node-|\[eval\]|node:internal|boot\.cjs|compileCommonJs/);
  });
});

describe("node_process and other processes", () => {
  test.runIf(runtime === "node")(
    `on Node a script can signal another process of the same user (stated in the description)${
      skipNote(runtime !== "node", "about Node only")
    }`,
    async () => {
      fixture = await diskFixture();
      const victim = startVictim();
      const tool = createNodeProcessTool(fixture.workspace, ROOMY);
      expect(tool.description).toMatch(/including the agent running it/);
      const result = await tool.execute({ source: KILL_SOURCE, arguments: [String(victim)] });
      expect(result.stdout).toBe("SENT\n");
      for (let i = 0; i < 50 && isAlive(victim); i++) await sleep(20);
      expect(isAlive(victim)).toBe(false);
    },
  );

  test.runIf(onDeno)(
    `on Deno a script cannot signal another process${skipNote(!onDeno, "about Deno's permissions only")}`,
    async () => {
      fixture = await diskFixture();
      const victim = startVictim();
      const result = await createNodeProcessTool(fixture.workspace, ROOMY).execute({
        source: KILL_SOURCE,
        arguments: [String(victim)],
      });
      expect(result.stdout).toMatch(/^REFUSED/);
      await sleep(100);
      expect(isAlive(victim)).toBe(true);
    },
  );
});

describe.skipIf(sandboxSkipReason !== undefined)(
  `node_process in the OS sandbox and other processes${sandboxSkipNote}`,
  () => {
    const sandbox = new BubblewrapSandbox();
    afterAll(async () => await sandbox.close?.());
    const options: NodeProcessToolOptions = { ...ROOMY, sandbox, ...PERMISSIONS };

    test("a script cannot signal a process outside the sandbox", async () => {
      fixture = await diskFixture();
      const victim = startVictim();
      const result = await createNodeProcessTool(fixture.workspace, options).execute({
        source: KILL_SOURCE,
        arguments: [String(victim)],
      });
      expect(result.stdout).toMatch(/^REFUSED/);
      await sleep(100);
      expect(isAlive(victim)).toBe(true);
    });

    test("process.kill(process.ppid, 'SIGKILL') does not reach the agent", async () => {
      fixture = await diskFixture();
      const result = await createNodeProcessTool(fixture.workspace, options).execute({
        source:
          `console.log(process.ppid); try { process.kill(process.ppid, "SIGKILL"); console.log("SENT"); } catch (e) { console.log("REFUSED", e.code || e.name); }`,
      });
      const [ppid] = result.stdout.split("\n");
      expect(Number(ppid)).not.toBe(process.pid);
      expect(fs.existsSync(`/proc/${process.pid}`)).toBe(true); // the agent (this test) is still here
    });
  },
);
