import { raw } from "./http_server.ts";

/** The headers of a raw MCP POST: a JSON body, a JSON or SSE answer. */
export const JSON_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/**
 * {@link JSON_HEADERS} with `authorization: Bearer TOKEN`.
 *
 * @example bearerHeaders(TOKEN) // { "content-type": …, accept: …, authorization: "Bearer …" }
 */
export function bearerHeaders(token: string): Record<string, string> {
  return { ...JSON_HEADERS, authorization: `Bearer ${token}` };
}

/**
 * A JSON-RPC `initialize` request (protocol 2025-06-18, client `raw`), as an object.
 *
 * @example JSON.stringify([initializeRequest(1), initializeRequest(2)]) // a batch of two
 */
export function initializeRequest(id: number): Record<string, unknown> {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  };
}

/** The body of a raw `initialize` with id 1. */
export const INITIALIZE: string = JSON.stringify(initializeRequest(1));

/**
 * The body of a JSON-RPC `tools/call` of `write_file` writing `content` to `file`.
 *
 * @example writeFileCall(2, "a.txt", "ran\n")
 */
export function writeFileCall(id: number | string, file: string, content: string): string {
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "write_file", arguments: { path: file, content } },
  });
}

/** A session opened with raw requests. */
export interface RawSession {
  /** Its `mcp-session-id`. */
  id: string;
  /** `headers` with the session's id and protocol version: the headers of its next requests. */
  headers: Record<string, string>;
  /** The status of its `notifications/initialized` (202 when taken). */
  initialized: number;
}

/**
 * Opens a session with raw requests only (the SDK's client would open a GET stream of its own): an
 * `initialize`, then its `notifications/initialized`, both with `headers`.
 *
 * @example const session = await openRawSession(server.url, bearerHeaders(TOKEN));
 */
export async function openRawSession(url: string, headers: Record<string, string>): Promise<RawSession> {
  const opened = await raw(url, { headers, body: INITIALIZE });
  const id = String(opened.headers["mcp-session-id"]);
  const session = { ...headers, "mcp-session-id": id, "mcp-protocol-version": "2025-06-18" };
  const initialized = JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { id, headers: session, initialized: (await raw(url, { headers: session, body: initialized })).status };
}
