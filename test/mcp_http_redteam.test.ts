// `paddock mcp --http` attacked as a hostile loopback client (serveHttp in-process, the code the CLI runs):
// refused initializes that held a session place, a DELETE refused at the open-requests bound, a refused
// request whose endless body was still read, and headers dribbled past the headers timeout.
import * as fs from "node:fs";
import * as net from "node:net";
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { serveHttp } from "../src/mcp/mod.ts";
import { raw } from "./helpers/http_server.ts";
import { bearerHeaders, INITIALIZE, initializeRequest as init, openRawSession } from "./helpers/mcp_raw.ts";
import { perSessionOptions, withServedFolder } from "./helpers/served_folder.ts";

const TOKEN = "r".repeat(8) + randomUUID().replaceAll("-", "");
const JSON_HEADERS = bearerHeaders(TOKEN);

/**
 * Opens a raw connection to `url`'s port, writes `head`, then `chunk` (after each write has drained,
 * pausing `pauseMs` between them) until the server closes the connection or `maxBytes` are written.
 * Resolves with the bytes written after `head` and what the server answered.
 */
function drip(
  url: string,
  head: string,
  chunk: string,
  pauseMs: number,
  maxBytes: number,
): Promise<{ bytes: number; answer: string }> {
  return new Promise((resolve) => {
    const socket = net.connect(Number(new URL(url).port), "127.0.0.1");
    let bytes = 0;
    let answer = "";
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      socket.destroy();
      resolve({ bytes, answer });
    };
    socket.on("data", (data: Buffer) => (answer += data.toString()));
    socket.on("error", finish);
    socket.on("close", finish);
    const next = (): void => {
      if (done || socket.destroyed) return;
      if (bytes >= maxBytes) return finish();
      socket.write(chunk, () => setTimeout(next, pauseMs));
      bytes += chunk.length;
    };
    socket.write(head, () => next());
  });
}

describe("paddock mcp --http against a hostile client", () => {
  test("an initialize the SDK refuses (bad Accept, Content-Type, two initializes) holds no session place and leaves no folder", async () => {
    await withServedFolder((dir) => perSessionOptions(dir, TOKEN, { maxSessions: 1 }), async (server, dir) => {
      const refusals: [Record<string, string>, string, number][] = [
        [{ ...JSON_HEADERS, accept: "application/json" }, INITIALIZE, 406],
        [{ ...JSON_HEADERS, "content-type": "text/plain" }, INITIALIZE, 415],
        [JSON_HEADERS, JSON.stringify([init(1), init(2)]), 400],
        [JSON_HEADERS, JSON.stringify({ ...init(1), jsonrpc: "1.0" }), 400],
      ];
      for (const [headers, body, status] of refusals) {
        const answer = await raw(server.url, { headers, body });
        expect(answer.status).toBe(status);
        expect(answer.headers["mcp-session-id"]).toBeUndefined();
      }
      // The one place is still free: before, each refusal held it (and its folder) for idleSessionMs.
      const opened = await raw(server.url, { headers: JSON_HEADERS, body: INITIALIZE });
      expect(opened.status).toBe(200);
      const id = String(opened.headers["mcp-session-id"]);
      expect(server.sessions).toBe(1);
      // The refused sessions' folders are removed (polled: their removal ends after their answer).
      for (let attempt = 0; attempt < 400 && fs.readdirSync(dir.root).length > 1; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(fs.readdirSync(dir.root)).toEqual([id]);
      expect((await raw(server.url, { method: "DELETE", headers: { ...JSON_HEADERS, "mcp-session-id": id } })).status)
        .toBe(200);
      expect(fs.readdirSync(dir.root)).toEqual([]);
    });
  });

  test("a DELETE is taken with the session's bound of open requests reached: the session ends, its folder goes", async () => {
    await withServedFolder((dir) => perSessionOptions(dir, TOKEN, { maxOpenRequests: 1 }), async (server, dir) => {
      const { headers: session, initialized } = await openRawSession(server.url, JSON_HEADERS);
      expect(initialized).toBe(202);
      // The SSE stream is the one open request the bound allows; a call past it is 429.
      const stream = await fetch(server.url, { headers: { ...session, accept: "text/event-stream" } });
      expect(stream.status).toBe(200);
      const list = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" });
      expect((await raw(server.url, { headers: session, body: list })).status).toBe(429);
      // Before, the DELETE was 429 too: a client could not end its own session while its requests were stuck.
      expect((await raw(server.url, { method: "DELETE", headers: session })).status).toBe(200);
      expect(server.sessions).toBe(0);
      expect(fs.readdirSync(dir.root)).toEqual([]);
      await stream.body?.cancel().catch(() => {});
    });
  });

  test("a request refused before its body is read (401, 403, 404) has its connection closed, not its endless body read", async () => {
    const server = await serveHttp({ roots: ["."], server: { readOnly: true }, auth: { kind: "token", token: TOKEN } });
    try {
      const host = new URL(server.url).host;
      const chunk = `10000\r\n${"x".repeat(0x10000)}\r\n`;
      const limit = 64 * 1024 * 1024;
      const heads = [
        `POST /mcp HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
        `POST /mcp HTTP/1.1\r\nhost: evil.example\r\nauthorization: Bearer ${TOKEN}\r\ntransfer-encoding: chunked\r\n\r\n`,
        `POST /other HTTP/1.1\r\nhost: ${host}\r\nauthorization: Bearer ${TOKEN}\r\ntransfer-encoding: chunked\r\n\r\n`,
      ];
      for (const [index, head] of heads.entries()) {
        const { bytes, answer } = await drip(server.url, head, chunk, 0, limit);
        // The answer is lost when the client's next write meets the closed socket first (EPIPE): only the
        // bytes it could send are certain.
        if (answer !== "") expect(answer).toMatch([/^HTTP\/1\.1 401 /, /^HTTP\/1\.1 403 /, /^HTTP\/1\.1 404 /][index]);
        // Closed after the answer: at most what the kernel's buffers took meanwhile (before: the whole 64 MiB, and
        // on until the request timeout).
        expect(bytes).toBeLessThan(limit / 4);
      }
    } finally {
      await server.close();
    }
  });

  test("headers dribbled one byte at a time are cut at the headers timeout, not at Node's 30 s check", async () => {
    const server = await serveHttp({
      roots: ["."], // no session is opened: a folder only because one must be served
      server: { readOnly: true },
      auth: { kind: "token", token: TOKEN },
      limits: { headersTimeoutMs: 500 },
    });
    try {
      const host = new URL(server.url).host;
      // One byte every 50 ms: the bound (500 ms) plus one check (1 s) is about 30 bytes; Node's default
      // check (every 30 s) let about 600 through.
      const { bytes, answer } = await drip(server.url, `POST /mcp HTTP/1.1\r\nhost: ${host}\r\n`, "x", 50, 400);
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expect(bytes).toBeLessThan(200);
    } finally {
      await server.close();
    }
  }, 60_000);
});
