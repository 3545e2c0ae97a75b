import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { HELP } from "../src/cli/help.ts";
import { chooseProcessTools, type ProcessToolsRequest } from "../src/cli/process_tools_choice.ts";
import { UsageError } from "../src/cli/usage_error.ts";
import { type DiskFixture, diskFixture, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { paddockCommand, REPO } from "./helpers/paddock_command.ts";
import { runtime } from "./helpers/runtime.ts";
import { sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

const BASE: ProcessToolsRequest = {
  readOnly: false,
  nodeProcess: true,
  shell: { mode: "off" },
  unsandboxed: false,
  sandboxUnavailable: undefined,
};
const NO_SANDBOX = "bwrap is not installed";

describe("paddock mcp: which process tools are offered, and where they run", () => {
  test("with a working OS sandbox, node_process and shell run in it", () => {
    expect(chooseProcessTools({ ...BASE, shell: { mode: "ask" } })).toEqual({
      nodeProcess: true,
      shell: { mode: "ask" },
      sandboxed: true,
      notes: [],
    });
  });

  test("without one, node_process is left out by default, with a note naming --unsandboxed", () => {
    const choice = chooseProcessTools({ ...BASE, sandboxUnavailable: NO_SANDBOX });
    expect(choice).toMatchObject({ nodeProcess: false, sandboxed: false });
    expect(choice.notes.join("\n")).toMatch(
      /node_process is not offered: no OS sandbox here \(bwrap is not installed\).*--unsandboxed/,
    );
  });

  test("without one, --shell is refused unless --unsandboxed", () => {
    expect(() =>
      chooseProcessTools({ ...BASE, shell: { mode: "allow", patterns: ["npm test"] }, sandboxUnavailable: NO_SANDBOX })
    )
      .toThrow(UsageError);
    expect(() => chooseProcessTools({ ...BASE, shell: { mode: "ask" }, sandboxUnavailable: NO_SANDBOX })).toThrow(
      /--unsandboxed/,
    );
  });

  test("--unsandboxed turns both on where no sandbox works, and says what that means", () => {
    const choice = chooseProcessTools({
      ...BASE,
      shell: { mode: "ask" },
      unsandboxed: true,
      sandboxUnavailable: NO_SANDBOX,
    });
    expect(choice).toMatchObject({ nodeProcess: true, shell: { mode: "ask" }, sandboxed: false });
    expect(choice.notes.join("\n")).toMatch(/runtime's permissions only.*shell commands run unconfined/);
  });

  test("--read-only and --node-process off need no sandbox at all", () => {
    expect(chooseProcessTools({ ...BASE, readOnly: true, shell: { mode: "ask" }, sandboxUnavailable: NO_SANDBOX }))
      .toMatchObject({ nodeProcess: false, shell: { mode: "off" }, notes: [] });
    expect(chooseProcessTools({ ...BASE, nodeProcess: false, sandboxUnavailable: NO_SANDBOX }))
      .toMatchObject({ nodeProcess: false, notes: [] });
  });

  test("the help explains the sandbox default and --unsandboxed", () => {
    expect(HELP.mcp).toMatch(/--unsandboxed/);
    expect(HELP.mcp).toMatch(/node_process is left out there and --shell is refused/);
    expect(HELP.mcp).toMatch(/run in the OS sandbox/);
  });
});

describe.skipIf(sandboxSkipReason !== undefined)(
  `paddock mcp runs node_process and shell in the OS sandbox by default${sandboxSkipNote}`,
  () => {
    let fixture: DiskFixture;
    let client: Client;
    beforeAll(async () => {
      fixture = await diskFixture(["a.txt=a", "escape => @outside/secret.txt"]);
      const { command, args } = paddockCommand(runtime, [
        "mcp",
        "--root",
        fixture.root,
        "--shell",
        "allow:cat",
        "--node-process-timeout",
        "10000",
      ]);
      client = new Client({ name: "paddock-test", version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command, args, cwd: REPO, stderr: "pipe" }));
    });
    afterAll(async () => {
      await client?.close();
      fixture?.cleanup();
    });

    const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
      const result = await client.callTool({ name, arguments: args });
      return (result.content as { text: string }[])[0].text;
    };

    test("the tools say so: sandbox, no network, links lead nowhere; openWorldHint false for node_process", async () => {
      const { tools } = await client.listTools();
      const node = tools.find((tool) => tool.name === "node_process");
      expect(node?.description).toMatch(
        /OS sandbox \(bubblewrap\).*link pointing out of the workspace leads nowhere.*no network/,
      );
      expect(node?.annotations?.openWorldHint).toBe(false);
      expect(tools.find((tool) => tool.name === "shell")).toBeDefined();
    });

    test("a script cannot read through a link that points out of the workspace", async () => {
      const text = await call("node_process", {
        source:
          "try { console.log(require('fs').readFileSync('escape', 'utf8')) } catch (e) { console.log('DENIED', e.code) }",
      });
      expect(text).not.toContain(OUTSIDE_SECRET);
      expect(JSON.parse(text).stdout).toMatch(/^DENIED/);
    });

    test("an allowed shell command cannot read through that link either", async () => {
      const text = await call("shell", { command: "cat escape" });
      expect(text).not.toContain(OUTSIDE_SECRET);
      expect(JSON.parse(text).exitCode).not.toBe(0);
      expect(JSON.parse(await call("shell", { command: "cat a.txt" })).stdout).toBe("a");
    });
  },
);
