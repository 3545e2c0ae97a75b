import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import * as fs from "node:fs";
import { afterEach, describe, expect, test } from "vitest";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { APPROVAL_SUMMARY_CHARS } from "../src/core/limits.ts";
import { approvalSummary } from "../src/mcp/approval_summary.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

// The approval message for one shell command; the person declines, so nothing runs.
async function promptFor(command: string): Promise<string> {
  fixture = await diskFixture();
  const { server } = await createPaddockMcpServer({ root: fixture.workspace, shell: { mode: "ask" } });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "accept", content: { approve: false } };
  });
  await client.connect(clientSide);
  try {
    await client.callTool({ name: "shell", arguments: { command } });
  } finally {
    await client.close();
  }
  expect(asked).toHaveLength(1);
  expect(fs.readdirSync(fixture.root)).toEqual([]);
  return asked[0];
}

describe("the paddock mcp --shell ask approval prompt", () => {
  test("shows a short command whole", async () => {
    expect(await promptFor("git status")).toBe('Allow shell {"command":"git status"}?');
  });

  test("shows the end of a long command, after the count of characters left out", async () => {
    const command = "echo harmless" + " ".repeat(1_100) + "; touch pwned";
    const message = await promptFor(command);
    expect(message).toContain("echo harmless");
    expect(message).toContain("; touch pwned");
    const omitted = JSON.stringify({ command }).length - APPROVAL_SUMMARY_CHARS;
    expect(message).toContain(`[…${omitted} characters left out…]`);
  });

  test("escapes control characters and terminal escapes", async () => {
    const message = await promptFor("echo ok\u001b[2K\u001b[1A\r\u009b2K\u202erm -rf ~\u200b\u0007");
    // deno-lint-ignore no-control-regex
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200b\u202e]/);
    for (const escaped of ["\\u001b[2K", "\\r", "\\u009b", "\\u202e", "\\u200b", "\\u0007"]) {
      expect(message).toContain(escaped);
    }
  });

  test("approvalSummary never splits a character made of two UTF-16 units", () => {
    const summary = approvalSummary({ command: "🎉".repeat(600) }, 101);
    expect(summary).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
  });
});
