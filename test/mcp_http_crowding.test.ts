// `paddock mcp --http` crowded by its clients (serveHttp in-process, the code the CLI runs, under each runtime):
// idle and slowloris sockets of clients without the token do not keep one with it out; request bodies being
// read hold at most the server's budget together; one OAuth principal cannot take every session.
import { randomUUID } from "node:crypto";
import * as net from "node:net";
import { SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { MCP_HTTP_MAX_CONNECTIONS } from "../src/core/limits.ts";
import type { ServeHttpOptions } from "../src/mcp/mod.ts";
import { callJson, httpClient, raw } from "./helpers/http_server.ts";
import { bearerHeaders, INITIALIZE, JSON_HEADERS, openRawSession } from "./helpers/mcp_raw.ts";
import { runtime } from "./helpers/runtime.ts";
import { type OAuthIssuer, startOAuthIssuer } from "./helpers/oauth_issuer.ts";
import { withServedFolder } from "./helpers/served_folder.ts";

const TOKEN = "c".repeat(8) + randomUUID().replaceAll("-", "");
const AUTHORIZED = bearerHeaders(TOKEN);
// Bun's node:http emits no "connection" event: a socket is seen only with its first request, so idle sockets
// are bounded by Bun's own idle timeout, not by the count (docs/mcp-server.md says so).
const countsConnections = runtime !== "bun";

const served = (limits: ServeHttpOptions["limits"] = {}) => (dir: { root: string }): ServeHttpOptions => ({
  roots: [dir.root],
  server: {},
  auth: { kind: "token", token: TOKEN },
  limits,
});

/** Resolves once `done()` holds, or after 10 s (the assertion after it then says what was seen). */
async function until(done: () => boolean): Promise<void> {
  for (const start = Date.now(); !done() && Date.now() - start < 10_000;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `count` sockets that each send the start of a request's headers and then nothing (slowloris). */
async function crowd(url: string, count: number): Promise<{ closed(): number; end(): void }> {
  const { host, port } = new URL(url);
  const sockets: net.Socket[] = [];
  let closed = 0;
  await Promise.all(Array.from({ length: count }, () =>
    new Promise<void>((resolve) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write(`POST /mcp HTTP/1.1\r\nhost: ${host}\r\n`, () => resolve());
      });
      socket.on("error", () => resolve());
      socket.on("close", () => closed++);
      sockets.push(socket);
    })));
  // The server's side of each connection is taken (and room made) as it arrives.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { closed: () => closed, end: () => sockets.forEach((socket) => socket.destroy()) };
}

/** A POST with a declared length whose body stops after `sent` bytes; resolves once they are written. */
function heldBody(url: string, declared: number, sent: number): Promise<net.Socket> {
  const { host, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), "127.0.0.1", () => {
      socket.write(
        `POST /mcp HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${TOKEN}\r\ncontent-type: application/json\r\n` +
          `accept: application/json, text/event-stream\r\ncontent-length: ${declared}\r\n\r\n${"x".repeat(sent)}`,
        () => setTimeout(() => resolve(socket), 300),
      );
    });
    socket.on("error", () => {});
  });
}

describe("serveHttp crowded by its clients", () => {
  test(
    `${
      MCP_HTTP_MAX_CONNECTIONS + 88
    } slowloris sockets without the token do not keep a client with it out, nor close its stream`,
    async () => {
      await withServedFolder(served(), async (server) => {
        const first = await crowd(server.url, MCP_HTTP_MAX_CONNECTIONS + 88);
        // Each socket past the bound closed the oldest one that carried no authenticated request.
        if (countsConnections) {
          await until(() => first.closed() >= 88);
          expect(first.closed()).toBe(88);
        }
        const { client, transport } = await httpClient(server.url, TOKEN);
        expect(await callJson(client, "write_file", { path: "in.txt", content: "in\n" })).toMatchObject({ bytes: 3 });
        // A second wave: the authenticated client's connections (its SSE stream among them) stay; its calls go on.
        const second = await crowd(server.url, MCP_HTTP_MAX_CONNECTIONS);
        if (countsConnections) {
          const wanted = 88 + MCP_HTTP_MAX_CONNECTIONS - 2;
          await until(() => first.closed() + second.closed() >= wanted);
          expect(first.closed() + second.closed()).toBeGreaterThanOrEqual(wanted);
        }
        expect(await callJson(client, "read_file", { path: "in.txt" })).toMatchObject({ content: "in\n" });
        first.end();
        second.end();
        await transport.terminateSession();
      });
    },
    60_000,
  );

  test("with every connection carrying an open request, the newcomer is the one closed", async () => {
    await withServedFolder(served({ maxConnections: 3 }), async (server) => {
      // Three sessions' SSE streams: three busy connections (the idle ones of their initializes make room).
      const aborts = [new AbortController(), new AbortController(), new AbortController()];
      const streams = [];
      for (const abort of aborts) {
        const { headers } = await openRawSession(server.url, AUTHORIZED);
        const stream = await fetch(server.url, {
          headers: { ...headers, accept: "text/event-stream" },
          signal: abort.signal,
        });
        expect(stream.status).toBe(200);
        streams.push(stream);
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      const late = await crowd(server.url, 1);
      if (countsConnections) {
        await until(() => late.closed() === 1);
        expect(late.closed()).toBe(1);
      }
      late.end();
      aborts.forEach((abort) => abort.abort());
      await Promise.all(streams.map((stream) => stream.body?.cancel().catch(() => {})));
    });
  }, 30_000);

  test(
    "request bodies being read hold at most the budget together: past it 503 with Retry-After, and room again once one is gone",
    async () => {
      const limits = { bodyBudgetBytes: 1_000_000, maxBodyBytes: 1_000_000 };
      await withServedFolder(served(limits), async (server) => {
        // One body held at 800,000 of its declared 900,000 bytes.
        const held = await heldBody(server.url, 900_000, 800_000);
        const declared = await raw(server.url, { headers: AUTHORIZED, body: "x".repeat(400_000) });
        expect(declared.status).toBe(503);
        expect(declared.headers["retry-after"]).toBe("1");
        const chunked = await raw(server.url, { headers: AUTHORIZED, body: "x".repeat(400_000), chunked: true });
        expect(chunked.status).toBe(503);
        // What fits the rest of the budget is taken.
        expect((await raw(server.url, { headers: AUTHORIZED, body: INITIALIZE })).status).toBe(200);
        // The held body's client goes: its bytes are given back.
        held.destroy();
        await new Promise((resolve) => setTimeout(resolve, 300));
        const after = await raw(server.url, { headers: AUTHORIZED, body: "x".repeat(400_000) });
        expect(after.status).toBe(400); // read whole, and not JSON
      });
    },
    30_000,
  );
});

describe("sessions per principal", () => {
  const AUDIENCE = "https://paddock.test/mcp";
  let authorization: OAuthIssuer;
  let issuer: string;
  beforeAll(async () => {
    authorization = await startOAuthIssuer();
    issuer = authorization.url;
  });
  afterAll(() => authorization.close());

  const headersOf = async (sub: string): Promise<Record<string, string>> => {
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({ iss: issuer, aud: AUDIENCE, sub, iat: now, exp: now + 3600 })
      .setProtectedHeader({ alg: "ES256", kid: "k1" }).sign(authorization.keys.privateKey);
    return { ...JSON_HEADERS, authorization: `Bearer ${jwt}` };
  };

  test(
    "an OAuth principal past its sessions is answered 429 and opens none; another principal still gets in",
    async () => {
      const options = (dir: { root: string }): ServeHttpOptions => ({
        roots: [dir.root],
        server: { readOnly: true },
        auth: { kind: "oauth", issuer, audience: AUDIENCE },
        limits: { maxSessionsPerPrincipal: 2 },
      });
      await withServedFolder(options, async (server) => {
        const alice = await headersOf("alice");
        const ids = [];
        for (let i = 0; i < 2; i++) {
          const opened = await raw(server.url, { headers: alice, body: INITIALIZE });
          expect(opened.status).toBe(200);
          ids.push(opened.headers["mcp-session-id"] as string);
        }
        const third = await raw(server.url, { headers: alice, body: INITIALIZE });
        expect(third.status).toBe(429);
        expect(third.headers["mcp-session-id"]).toBeUndefined();
        expect(JSON.parse(third.body).error.message).toBe(
          "Too many sessions open for this principal (2); end one with DELETE",
        );
        expect(server.sessions).toBe(2);
        expect((await raw(server.url, { headers: await headersOf("bob"), body: INITIALIZE })).status).toBe(200);
        // One of alice's ended: she gets a place again.
        const ended = await raw(server.url, { method: "DELETE", headers: { ...alice, "mcp-session-id": ids[0] } });
        expect(ended.status).toBe(200);
        expect((await raw(server.url, { headers: alice, body: INITIALIZE })).status).toBe(200);
        expect(server.sessions).toBe(3);
      });
    },
    30_000,
  );

  test("a shared bearer token is one principal, bounded by maxSessions alone", async () => {
    await withServedFolder(served({ maxSessionsPerPrincipal: 1, maxSessions: 3 }), async (server) => {
      for (let i = 0; i < 3; i++) {
        expect((await raw(server.url, { headers: AUTHORIZED, body: INITIALIZE })).status).toBe(200);
      }
      expect((await raw(server.url, { headers: AUTHORIZED, body: INITIALIZE })).status).toBe(503);
    });
  }, 30_000);
});
