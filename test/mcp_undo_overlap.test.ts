// Two MCP tool calls that overlap in time (a client's parallel calls) keep their own undo groups: undo_last_change
// takes back the newest call's changes, then the other's, not both at once.
import * as fs from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, expect, test } from "vitest";
import { openWorkspace } from "../mod.ts";
import type { Host } from "../host.ts";
import { createPaddockMcpServer } from "../src/mcp/mod.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { holdingHost } from "./helpers/holding_host.ts";

let fixture: DiskFixture | undefined;
afterEach(() => fixture?.cleanup());

// The host, with its first rename held until `open` is called.
function firstRenameHeld(host: Host): { host: Host; renames: () => number; open: () => void } {
  let renames = 0;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => open = resolve);
  const held = holdingHost(host, "rename", (call) => {
    renames = call;
    return call === 1 ? gate : undefined;
  });
  return { host: held, renames: () => renames, open };
}

test("MCP calls that overlap in time are undone one call at a time", async () => {
  fixture = await diskFixture();
  const held = firstRenameHeld(fixture.host);
  const workspace = await openWorkspace(fixture.root, { host: held.host });
  const { server } = await createPaddockMcpServer({ root: workspace, nodeProcess: false, warmUp: false });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(clientSide);
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })).structuredContent as Record<string, unknown>;
  try {
    // The first write is journaled, then waits at its rename while the second runs from start to end.
    const first = call("write_file", { path: "a.txt", content: "a\n" });
    for (let waited = 0; held.renames() === 0 && waited < 5_000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(held.renames()).toBe(1);
    expect(await call("write_file", { path: "b.txt", content: "b\n" })).toEqual({ path: "b.txt", bytes: 2 });
    held.open();
    expect(await first).toEqual({ path: "a.txt", bytes: 2 });

    // The second call's change is the newest: it goes back alone, then the first.
    expect(await call("undo_last_change", {})).toEqual({
      complete: true,
      changes: [{ path: "b.txt", change: "write", status: "restored" }],
    });
    expect(fs.readdirSync(fixture.root)).toEqual(["a.txt"]);
    expect(await call("undo_last_change", {})).toEqual({
      complete: true,
      changes: [{ path: "a.txt", change: "write", status: "restored" }],
    });
    expect(fs.readdirSync(fixture.root)).toEqual([]);
  } finally {
    await client.close();
  }
});
