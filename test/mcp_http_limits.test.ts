// serveHttp's bounds, in-process on loopback (the same code `paddock mcp --http` runs): sessions at once (503),
// requests open in one session (429), an idle session ended; where it may listen; the CLI's flags.
import * as fs from "node:fs";
import * as path from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { serveHttp, type ServeHttpOptions } from "../src/mcp/mod.ts";
import { httpAuthOf, parseHttpAddress } from "../src/cli/mcp_http_flags.ts";
import { checkOrigin, originAllowList } from "../src/mcp/http_origin_guard.ts";
import { UsageError } from "../src/cli/usage_error.ts";
import type { DiskFixture } from "./helpers/fixture.ts";
import { httpClient, raw } from "./helpers/http_server.ts";
import { bearerHeaders, INITIALIZE, openRawSession, writeFileCall } from "./helpers/mcp_raw.ts";
import { perSessionOptions, withServedFolder } from "./helpers/served_folder.ts";

const TOKEN = "t".repeat(8) + randomUUID().replaceAll("-", "");
const JSON_HEADERS = bearerHeaders(TOKEN);

describe("serveHttp's bounds", () => {
  test("one initialize past maxSessions is answered 503 and opens no folder; a DELETE frees a place", async () => {
    await withServedFolder((dir) => perSessionOptions(dir, TOKEN, { maxSessions: 2 }), async (server, dir) => {
      const a = await httpClient(server.url, TOKEN);
      const b = await httpClient(server.url, TOKEN);
      const third = await raw(server.url, { headers: JSON_HEADERS, body: INITIALIZE });
      expect(third.status).toBe(503);
      expect(third.headers["mcp-session-id"]).toBeUndefined();
      expect(fs.readdirSync(dir.root)).toHaveLength(2);
      await a.transport.terminateSession();
      const c = await httpClient(server.url, TOKEN);
      expect(server.sessions).toBe(2);
      await b.transport.terminateSession();
      await c.transport.terminateSession();
    });
  });

  test("a request past maxOpenRequests of one session is answered 429 and runs nothing; the session goes on", async () => {
    const options = (dir: DiskFixture): ServeHttpOptions => ({
      roots: [dir.root],
      server: {},
      auth: { kind: "token", token: TOKEN },
      limits: { maxOpenRequests: 1 },
    });
    await withServedFolder(options, async (server, dir) => {
      // Raw requests only (the SDK's client opens a GET stream of its own): initialize, then the GET stream.
      const { headers: session, initialized } = await openRawSession(server.url, JSON_HEADERS);
      expect(initialized).toBe(202);
      // The session's SSE stream (GET) stays open: it is the one request the bound allows.
      const stream = new AbortController();
      const opened = await fetch(server.url, {
        headers: { ...session, accept: "text/event-stream" },
        signal: stream.signal,
      });
      expect(opened.status).toBe(200);
      const call = (file: string) => writeFileCall(9, file, "x");
      const refused = await raw(server.url, { headers: session, body: call("over.txt") });
      expect(refused.status).toBe(429);
      expect(fs.existsSync(path.join(dir.root, "over.txt"))).toBe(false);
      stream.abort();
      await opened.body?.cancel().catch(() => {});
      // Once the stream has closed, the session takes calls again (the count is of open requests).
      let status = 0;
      for (let attempt = 0; attempt < 100 && status !== 200; attempt++) {
        status = (await raw(server.url, { headers: session, body: call("after.txt") })).status;
      }
      expect(status).toBe(200);
      expect(fs.readFileSync(path.join(dir.root, "after.txt"), "utf8")).toBe("x");
      expect((await raw(server.url, { method: "DELETE", headers: session })).status).toBe(200);
    });
  });

  test("a session with no request for idleSessionMs is ended: its folder removed, its id answered 404", async () => {
    await withServedFolder((dir) => perSessionOptions(dir, TOKEN, { idleSessionMs: 50 }), async (server, dir) => {
      // A raw initialize: the SDK's client would open its GET stream (an open request: never idle) or, under
      // load, find its session ended between the initialize and its initialized notification.
      const id = String((await raw(server.url, { headers: JSON_HEADERS, body: INITIALIZE })).headers["mcp-session-id"]);
      expect(fs.readdirSync(dir.root)).toEqual([id]);
      // Polled, not timed: the bound is the server's, the test only waits for its effect.
      for (let attempt = 0; attempt < 400 && server.sessions > 0; attempt++) {
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(server.sessions).toBe(0);
      expect(fs.readdirSync(dir.root)).toEqual([]);
      const late = await raw(server.url, {
        headers: { ...JSON_HEADERS, "mcp-session-id": id },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      });
      expect(late.status).toBe(404);
    });
  });

  test("it refuses to listen off loopback without allowRemote, and without a token off loopback at all", async () => {
    const base = { roots: ["."], server: {} };
    await expect(serveHttp({ ...base, host: "0.0.0.0", auth: { kind: "token", token: TOKEN } })).rejects.toThrow(
      /not a loopback address/,
    );
    await expect(serveHttp({ ...base, host: "0.0.0.0", allowRemote: true, auth: { kind: "none" } })).rejects.toThrow(
      /without a token/,
    );
    await expect(serveHttp({ ...base, auth: { kind: "token", token: "short" } })).rejects.toThrow(/32 at least/);
  });

  test("it refuses to start with no folder to serve (every initialize would fail)", async () => {
    await expect(serveHttp({ roots: [], server: {}, auth: { kind: "token", token: TOKEN } })).rejects.toThrow(
      /serve no folder/,
    );
  });
});

describe("paddock mcp --http's flags", () => {
  test("--http takes PORT, HOST:PORT or [IPV6]:PORT, the host 127.0.0.1 by default", () => {
    expect(parseHttpAddress("8080")).toEqual({ host: "127.0.0.1", port: 8080 });
    expect(parseHttpAddress("0.0.0.0:80")).toEqual({ host: "0.0.0.0", port: 80 });
    expect(parseHttpAddress("[::1]:9")).toEqual({ host: "::1", port: 9 });
    for (const bad of ["", "host", "1.2.3.4:", ":80", "70000", "a b:1", "http://x:1"]) {
      expect(() => parseHttpAddress(bad), bad).toThrow(UsageError);
    }
  });

  test("a token is required: from --token-file or PADDOCK_MCP_TOKEN, 32 characters of the bearer alphabet", () => {
    const flags = (entries: Record<string, string[]>) => new Map(Object.entries(entries));
    expect(() => httpAuthOf(flags({}), {})).toThrow(/needs a bearer token/);
    expect(httpAuthOf(flags({}), { PADDOCK_MCP_TOKEN: `${TOKEN}\n` })).toEqual({ kind: "token", token: TOKEN });
    for (const bad of ["x".repeat(31), `${"x".repeat(32)} y`, `${"x".repeat(32)}"`]) {
      expect(() => httpAuthOf(flags({}), { PADDOCK_MCP_TOKEN: bad }), bad).toThrow(/at least 32/);
    }
    expect(() => httpAuthOf(flags({ "token-file": ["/nonexistent/paddock-token"] }), {})).toThrow(/cannot be read/);
    expect(() => httpAuthOf(flags({ "oauth-issuer": ["https://a.example"] }), {})).toThrow(/go together/);
    expect(() => httpAuthOf(flags({ "insecure-no-auth": ["true"], "token-file": ["t"] }), {})).toThrow(/choose one/);
    expect(
      httpAuthOf(flags({ "oauth-issuer": ["https://a.example"], "oauth-audience": ["https://p.example/mcp"] }), {}),
    )
      .toEqual({ kind: "oauth", issuer: "https://a.example", audience: "https://p.example/mcp" });
  });

  test("the Host and Origin allow list: the address listened on, loopback names at its port, and what is added", () => {
    const list = originAllowList("127.0.0.1", 8080, ["mcp.example.com"], ["https://app.example.com"]);
    for (
      const host of [
        "127.0.0.1:8080",
        "localhost:8080",
        "LOCALHOST:8080",
        "[::1]:8080",
        "mcp.example.com",
        "mcp.example.com:8080",
      ]
    ) {
      expect(checkOrigin(list, host, undefined), host).toBeUndefined();
    }
    for (const host of [undefined, "127.0.0.1", "127.0.0.1:8081", "evil.example:8080", "localhost.evil.example:8080"]) {
      expect(checkOrigin(list, host, undefined), String(host)).toBe("this Host is not served here");
    }
    expect(checkOrigin(list, "localhost:8080", "http://localhost:8080")).toBeUndefined();
    expect(checkOrigin(list, "localhost:8080", "https://app.example.com")).toBeUndefined();
    for (
      const origin of ["null", "http://localhost:8081", "https://localhost:8080", "http://evil.example", "file://"]
    ) {
      expect(checkOrigin(list, "localhost:8080", origin), origin).toBe("this Origin is not allowed");
    }
    // A LAN address listened on is not this machine's loopback: localhost is not added.
    expect(checkOrigin(originAllowList("10.1.2.3", 80), "localhost:80", undefined)).toBe(
      "this Host is not served here",
    );
  });
});
