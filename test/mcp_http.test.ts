// `paddock mcp --http`: who gets in (token, Origin/Host, body bound), and one workspace per session
// (folders, undo groups, background processes), against the server run as a process under each runtime.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MCP_HTTP_MAX_BODY_BYTES, SANDBOX_DRAIN_GRACE_MS } from "../src/core/limits.ts";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { callJson, httpClient, type HttpServerProcess, raw, startHttpServer } from "./helpers/http_server.ts";
import { bearerHeaders, INITIALIZE, JSON_HEADERS, writeFileCall } from "./helpers/mcp_raw.ts";
import { SERVER_RUNTIMES } from "./helpers/paddock_command.ts";
import { runtime, skipNote } from "./helpers/runtime.ts";

// Under Deno's test runner a SIGTERM sent through node:child_process's kill() never reaches the server's handler
// (see SERVER_RUNTIMES_ALWAYS): the server is killed, so its orderly stop is checked by the Node and Bun runs.
const orderlyStop = runtime !== "deno";

const TOKEN = "a".repeat(20) + randomUUID().replaceAll("-", "");

const writeCall = (file: string): string => writeFileCall(2, file, "ran\n");

/** The pids whose command line holds `marker` (the processes a background call started). */
function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * The pids with `marker` still there after a kill: polled until none is left, for at most the sandbox's drain
 * grace (bubblewrap's PID namespace is torn down a moment after bwrap itself is killed). What is left is shown
 * with its state, so a failure says what it was.
 */
async function leftAfterKill(marker: string): Promise<string[]> {
  const deadline = Date.now() + SANDBOX_DRAIN_GRACE_MS;
  for (;;) {
    const pids = processesWith(marker);
    if (pids.length === 0 || Date.now() > deadline) {
      return pids.map((pid) => {
        try {
          return `${pid}: ${fs.readFileSync(`/proc/${pid}/stat`, "utf8").slice(0, 60)}`;
        } catch {
          return `${pid}: gone`;
        }
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The pids with `marker`, once there are some: a background start answers before its process has exec'd (polled, at most 400 times). */
async function runningWith(marker: string): Promise<number[]> {
  for (let attempt = 0; attempt < 400; attempt++) {
    const pids = processesWith(marker);
    if (pids.length > 0) return pids;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return [];
}

describe.each(SERVER_RUNTIMES)("paddock mcp --http under %s", (serverRuntime) => {
  let shared: DiskFixture;
  let perSession: DiskFixture;
  let tokenFile: string;
  let sharedServer: HttpServerProcess;
  let perSessionServer: HttpServerProcess;

  beforeAll(async () => {
    shared = await diskFixture([]);
    perSession = await diskFixture([]);
    tokenFile = path.join(perSession.root, "..", `token-${randomUUID()}`);
    fs.writeFileSync(tokenFile, `${TOKEN}\n`, { mode: 0o600 });
    const common = ["--token-file", tokenFile, "--stale-write-guard", "on"];
    [sharedServer, perSessionServer] = await Promise.all([
      startHttpServer(serverRuntime, ["--root", shared.root, ...common]),
      startHttpServer(serverRuntime, ["--root-per-session", perSession.root, ...common]),
    ]);
  });
  afterAll(async () => {
    const codes = [await sharedServer?.stop(), await perSessionServer?.stop()];
    if (orderlyStop) expect(codes).toEqual([0, 0]);
    // Every session ended with the server: no per-session folder is left.
    expect(fs.readdirSync(perSession.root)).toEqual([]);
    fs.rmSync(tokenFile, { force: true });
    await shared?.cleanup();
    await perSession?.cleanup();
  });

  test("a request with no token, a wrong one or another scheme is answered 401 with WWW-Authenticate, and runs nothing", async () => {
    // No session is opened without the token.
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, `Basic ${TOKEN}`]) {
      const headers: Record<string, string> = { ...JSON_HEADERS, ...(authorization ? { authorization } : {}) };
      const answer = await raw(perSessionServer.url, { headers, body: INITIALIZE });
      expect(answer.status).toBe(401);
      expect(answer.headers["www-authenticate"]).toMatch(/^Bearer realm="paddock"/);
      if (authorization !== undefined) expect(answer.headers["www-authenticate"]).toContain('error="invalid_token"');
      expect(answer.headers["mcp-session-id"]).toBeUndefined();
    }
    expect(fs.readdirSync(perSession.root)).toEqual([]);
    // In an open session, a call without the right token runs nothing either.
    const { client, transport } = await httpClient(sharedServer.url, TOKEN);
    try {
      for (const authorization of [undefined, `Bearer ${"b".repeat(TOKEN.length)}`]) {
        const answer = await raw(sharedServer.url, {
          headers: {
            ...JSON_HEADERS,
            "mcp-session-id": transport.sessionId!,
            ...(authorization ? { authorization } : {}),
          },
          body: writeCall("unauthorized.txt"),
        });
        expect(answer.status).toBe(401);
      }
      expect(fs.existsSync(path.join(shared.root, "unauthorized.txt"))).toBe(false);
      // The same call with the token runs (so the refusals above were the token's).
      const answer = await raw(sharedServer.url, {
        headers: { ...bearerHeaders(TOKEN), "mcp-session-id": transport.sessionId! },
        body: writeCall("authorized.txt"),
      });
      expect(answer.status).toBe(200);
      expect(fs.readFileSync(path.join(shared.root, "authorized.txt"), "utf8")).toBe("ran\n");
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  test("a foreign Origin or Host is answered 403, and runs nothing", async () => {
    const { client, transport } = await httpClient(sharedServer.url, TOKEN);
    const port = new URL(sharedServer.url).port;
    try {
      const headers = { ...bearerHeaders(TOKEN), "mcp-session-id": transport.sessionId! };
      const attempts: Record<string, string>[] = [
        { origin: "https://evil.example" },
        { origin: `http://evil.example:${port}` },
        { origin: "null" },
        { host: `evil.example:${port}` },
        { host: `127.0.0.1.evil.example:${port}` },
        { host: `localhost:${Number(port) + 1}` },
      ];
      for (const extra of attempts) {
        const answer = await raw(sharedServer.url, {
          headers: { ...headers, ...extra },
          body: writeCall("foreign.txt"),
        });
        expect(answer.status, JSON.stringify(extra)).toBe(403);
        const opened = await raw(sharedServer.url, {
          headers: { ...bearerHeaders(TOKEN), ...extra },
          body: INITIALIZE,
        });
        expect(opened.status).toBe(403);
      }
      expect(fs.existsSync(path.join(shared.root, "foreign.txt"))).toBe(false);
      // The server's own origin, as a browser on this machine sends it, passes.
      const own = await raw(sharedServer.url, {
        headers: { ...headers, origin: `http://localhost:${port}` },
        body: writeCall("own-origin.txt"),
      });
      expect(own.status).toBe(200);
      expect(fs.readFileSync(path.join(shared.root, "own-origin.txt"), "utf8")).toBe("ran\n");
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  test(`a body over MCP_HTTP_MAX_BODY_BYTES (${MCP_HTTP_MAX_BODY_BYTES}) is answered 413, and runs nothing`, async () => {
    const { client, transport } = await httpClient(sharedServer.url, TOKEN);
    try {
      const headers = { ...bearerHeaders(TOKEN), "mcp-session-id": transport.sessionId! };
      // A write_file call padded past the bound: a valid call, if it were read.
      const call = JSON.parse(writeCall("oversized.txt"));
      const padded = JSON.stringify({
        ...call,
        params: { ...call.params, _meta: { pad: "x".repeat(MCP_HTTP_MAX_BODY_BYTES) } },
      });
      // Declared by its Content-Length, then sent chunked (no length): both refused.
      const declared = await raw(sharedServer.url, { headers, body: padded });
      expect(declared.status).toBe(413);
      const chunked = await raw(sharedServer.url, {
        headers: { ...headers, "transfer-encoding": "chunked" },
        body: padded,
        chunked: true,
      }).catch((error: { code?: string }) => ({ status: error.code }));
      // The server answers 413 and closes; a client still sending may see the reset first.
      expect([413, "ECONNRESET", "EPIPE"]).toContain(chunked.status);
      expect(fs.existsSync(path.join(shared.root, "oversized.txt"))).toBe(false);
      // The session lives on.
      expect(await callJson(client, "write_file", { path: "after.txt", content: "ok" })).toMatchObject({
        path: "after.txt",
      });
    } finally {
      await transport.terminateSession();
      await client.close();
    }
  });

  test("two sessions at once with per-session folders cannot read each other's files; a DELETE removes its folder", async () => {
    const a = await httpClient(perSessionServer.url, TOKEN);
    const b = await httpClient(perSessionServer.url, TOKEN);
    const [aId, bId] = [a.transport.sessionId!, b.transport.sessionId!];
    try {
      expect(await callJson(a.client, "write_file", { path: "secret.txt", content: "A's\n" })).toMatchObject({
        path: "secret.txt",
      });
      const folders = fs.readdirSync(perSession.root).sort();
      expect(folders).toEqual([aId, bId].sort());
      expect(fs.readFileSync(path.join(perSession.root, aId, "secret.txt"), "utf8")).toBe("A's\n");
      // B sees its own empty folder only: not the file, not A's folder by name or by climbing.
      expect((await callJson(b.client, "read_file", { path: "secret.txt" })).error.code).toBe("NOT_FOUND");
      expect(await callJson(b.client, "list_directory", { path: "." })).toMatchObject({ entries: [] });
      for (const escape of [`../${aId}/secret.txt`, path.join(perSession.root, aId, "secret.txt")]) {
        const refused = await callJson(b.client, "read_file", { path: escape });
        expect(refused.error.code, escape).toBe("TOOL_ARGUMENTS_INVALID");
      }
      await a.transport.terminateSession();
      expect(fs.readdirSync(perSession.root)).toEqual([bId]);
      // The ended session is gone for good: its id is answered 404.
      const gone = await raw(perSessionServer.url, {
        headers: { ...bearerHeaders(TOKEN), "mcp-session-id": aId },
        body: writeCall("late.txt"),
      });
      expect(gone.status).toBe(404);
    } finally {
      await b.transport.terminateSession();
      await a.client.close();
      await b.client.close();
    }
    expect(fs.readdirSync(perSession.root)).toEqual([]);
  });

  test("two sessions over one folder: neither undoes the other's change, writes over its reads or kills its process; a DELETE kills its processes", async () => {
    const a = await httpClient(sharedServer.url, TOKEN);
    const b = await httpClient(sharedServer.url, TOKEN);
    const marker = `paddock-http-marker-${randomUUID()}`;
    try {
      // Undo: B has changed nothing, so it has nothing to undo; A's new file stays, byte for byte.
      await callJson(a.client, "write_file", { path: "a-change.txt", content: "A wrote this\n" });
      expect((await callJson(b.client, "undo_last_change", {})).error.code).toBe("NOTHING_TO_UNDO");
      expect(fs.readFileSync(path.join(shared.root, "a-change.txt"), "utf8")).toBe("A wrote this\n");
      // Read stamps: A read the file, B did not; B may not write over it.
      expect(
        (await callJson(b.client, "edit_file", { path: "a-change.txt", old_string: "A", new_string: "B" })).error.code,
      )
        .toBe("FILE_NOT_READ");
      // Processes: A's background script is not B's to list or kill.
      const started = await callJson(a.client, "node_process", {
        source: "setInterval(() => {}, 1000);",
        arguments: [marker],
        background: true,
      });
      expect(started).toMatchObject({ process_id: expect.stringMatching(/^p\d+$/) });
      expect((await runningWith(marker)).length).toBeGreaterThan(0);
      expect((await callJson(b.client, "process_kill", { process_id: started.process_id })).error.code)
        .toBe("PROCESS_NOT_FOUND");
      expect((await callJson(b.client, "process_list", {})).processes).toEqual([]);
      expect(processesWith(marker).length).toBeGreaterThan(0);
      expect((await callJson(a.client, "process_list", {})).processes).toMatchObject([{
        process_id: started.process_id,
      }]);
      // A's DELETE is answered once A's processes are dead.
      await a.transport.terminateSession();
      expect(processesWith(marker)).toEqual([]);
      // B's session is untouched.
      expect(await callJson(b.client, "read_file", { path: "a-change.txt" })).toMatchObject({
        content: "A wrote this\n",
      });
    } finally {
      await a.client.close();
      await b.transport.terminateSession();
      await b.client.close();
    }
  });

  test.runIf(orderlyStop)(
    `SIGTERM ends every open session: its background processes are killed, its folder removed${
      skipNote(!orderlyStop, "Deno's child_process kill() does not reach the server's SIGTERM handler")
    }`,
    async () => {
      const dir = await diskFixture([]);
      const server = await startHttpServer(serverRuntime, ["--root-per-session", dir.root, "--token-file", tokenFile]);
      const marker = `paddock-http-marker-${randomUUID()}`;
      try {
        const { client } = await httpClient(server.url, TOKEN);
        const started = await callJson(client, "node_process", {
          source: "setInterval(() => {}, 1000);",
          arguments: [marker],
          background: true,
        });
        expect(started).toMatchObject({ process_id: "p1" });
        expect((await runningWith(marker)).length).toBeGreaterThan(0);
        expect(fs.readdirSync(dir.root)).toHaveLength(1);
        expect(await server.stop()).toBe(0);
        expect(await leftAfterKill(marker)).toEqual([]);
        expect(fs.readdirSync(dir.root)).toEqual([]);
      } finally {
        await server.stop();
        await dir.cleanup();
      }
    },
  );

  test("a GET or DELETE without a session, or with another principal's or an unknown id, opens and ends nothing", async () => {
    const headers = { accept: "text/event-stream", authorization: `Bearer ${TOKEN}` };
    expect((await raw(sharedServer.url, { method: "GET", headers })).status).toBe(400);
    expect((await raw(sharedServer.url, { method: "DELETE", headers })).status).toBe(400);
    const unknown = { ...headers, "mcp-session-id": randomUUID() };
    expect((await raw(sharedServer.url, { method: "DELETE", headers: unknown })).status).toBe(404);
    expect((await raw(sharedServer.url, { method: "PUT", headers })).status).toBe(405);
    // The readiness probe needs no token and tells nothing.
    expect(await raw(sharedServer.url.replace(/\/mcp$/, "/healthz"), { method: "GET" })).toMatchObject({
      status: 200,
      body: "ok\n",
    });
  });
});
