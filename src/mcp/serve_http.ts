import * as http from "node:http";
import type { AddressInfo } from "node:net";
import {
  MCP_HTTP_BODY_BUDGET_BYTES,
  MCP_HTTP_HEADERS_TIMEOUT_MS,
  MCP_HTTP_IDLE_SESSION_MS,
  MCP_HTTP_KEEP_ALIVE_MS,
  MCP_HTTP_MAX_BODY_BYTES,
  MCP_HTTP_MAX_CONNECTIONS,
  MCP_HTTP_MAX_OPEN_REQUESTS,
  MCP_HTTP_MAX_SESSIONS,
  MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL,
  MCP_HTTP_REQUEST_TIMEOUT_MS,
} from "../core/limits.ts";
import { createAutoHost } from "../hosts/auto.ts";
import { type AuthOutcome, createAuthenticator, type HttpAuth, wwwAuthenticate } from "./http_auth.ts";
import { checkOrigin, isLoopback, originAllowList } from "./http_origin_guard.ts";
import { ConnectionSlots } from "./http_connection_slots.ts";
import { HttpSession } from "./http_session.ts";
import type { PaddockMcpServerOptions } from "./server_types.ts";
import { BodyBudget, readHttpBody } from "./read_http_body.ts";

/** Options of {@link serveHttp}. */
export interface ServeHttpOptions {
  /** What each session's server offers. */
  server: Omit<PaddockMcpServerOptions, "root" | "roots">;
  /** The folders served, the default first (each session opens its own workspace over each). Ignored with `rootPerSession`. */
  roots: readonly string[];
  /** Give each session a fresh folder under `dir` as its only root, removed when it ends unless `keep`. @default undefined */
  rootPerSession?: { dir: string; keep: boolean };
  /** What no tool reads, lists or changes in each session's roots (`WorkspaceOptions.privatePaths`). @default [] */
  privatePaths?: readonly string[];
  /** The address to listen on. @default "127.0.0.1" */
  host?: string;
  /** The port; 0 for any free one. @default 0 */
  port?: number;
  /** Listen on an address other than a loopback one. @default false */
  allowRemote?: boolean;
  /** How requests authenticate. */
  auth: HttpAuth;
  /** More `Host` values accepted (the name a proxy in front is reached by). @default [] */
  allowedHosts?: readonly string[];
  /** More `Origin` values accepted (a browser client's). @default [] */
  allowedOrigins?: readonly string[];
  /** Bounds, for tests. @default the `MCP_HTTP_*` constants */
  limits?: Partial<HttpLimits>;
  /** Where diagnostics go. @default nowhere */
  log?: (line: string) => void;
}

/** The bounds of one HTTP server (each an `MCP_HTTP_*` constant by default). */
export interface HttpLimits {
  /** {@link MCP_HTTP_MAX_BODY_BYTES} */
  maxBodyBytes: number;
  /** {@link MCP_HTTP_MAX_SESSIONS} */
  maxSessions: number;
  /** {@link MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL} (OAuth; a shared token is one principal, bounded by `maxSessions` alone) */
  maxSessionsPerPrincipal: number;
  /** {@link MCP_HTTP_BODY_BUDGET_BYTES} */
  bodyBudgetBytes: number;
  /** {@link MCP_HTTP_MAX_CONNECTIONS} */
  maxConnections: number;
  /** {@link MCP_HTTP_MAX_OPEN_REQUESTS} */
  maxOpenRequests: number;
  /** {@link MCP_HTTP_IDLE_SESSION_MS} */
  idleSessionMs: number;
  /** {@link MCP_HTTP_HEADERS_TIMEOUT_MS} */
  headersTimeoutMs: number;
}

/** A running HTTP server. */
export interface PaddockHttpServer {
  /** The MCP endpoint's URL (`http://HOST:PORT/mcp`). */
  url: string;
  /** Sessions open now. */
  readonly sessions: number;
  /** Ends every session (killing their processes, removing per-session folders) and stops listening. */
  close(): Promise<void>;
}

/** The MCP endpoint's path. */
export const MCP_HTTP_PATH = "/mcp";
const METADATA_PATH = "/.well-known/oauth-protected-resource";

/**
 * Serves the Paddock tools over the MCP Streamable HTTP transport (the SDK's
 * `StreamableHTTPServerTransport` over `node:http`), at `/mcp`, one session
 * per `initialize` (`Mcp-Session-Id`; `DELETE` ends one, answered once its
 * processes are dead and its folder is gone; SSE streams resume
 * with `Last-Event-ID`). Each request passes, in order: the `Host` and
 * `Origin` allow list (403), the bearer token (401 with `WWW-Authenticate`),
 * the session (404 for an unknown one or another principal's), the session's
 * open requests (429) and the body's bound (413); only then does anything
 * run. `GET /healthz` answers 200 without a token (a readiness probe); with
 * OAuth, the RFC 9728 metadata is served at `/.well-known/oauth-protected-resource`.
 *
 * @param options What to serve and how.
 * @returns The running server.
 * @throws {Error} For a non-loopback address without `allowRemote`, or `auth: none` off loopback.
 *
 * @example Serving a folder on a loopback port
 * ```ts
 * import { serveHttp } from "@paddock/tools/mcp";
 * const server = await serveHttp({ roots: ["./project"], server: {}, auth: { kind: "token", token: process.env.PADDOCK_MCP_TOKEN! } });
 * console.log(server.url); // http://127.0.0.1:PORT/mcp
 * ```
 */
export async function serveHttp(options: ServeHttpOptions): Promise<PaddockHttpServer> {
  // 1. Where it listens: loopback unless remote clients are asked for; no auth only on loopback.
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host) && options.allowRemote !== true) {
    throw new Error(`refusing to listen on ${host}: not a loopback address (pass --allow-remote)`);
  }
  if (options.rootPerSession === undefined && options.roots.length === 0) {
    throw new Error("refusing to serve no folder: give at least one root, or rootPerSession");
  }
  if (options.auth.kind === "none" && !isLoopback(host)) {
    throw new Error(`refusing to serve ${host} without a token: --insecure-no-auth is for loopback only`);
  }
  const limits: HttpLimits = {
    maxBodyBytes: MCP_HTTP_MAX_BODY_BYTES,
    maxSessions: MCP_HTTP_MAX_SESSIONS,
    maxSessionsPerPrincipal: MCP_HTTP_MAX_SESSIONS_PER_PRINCIPAL,
    bodyBudgetBytes: MCP_HTTP_BODY_BUDGET_BYTES,
    maxConnections: MCP_HTTP_MAX_CONNECTIONS,
    maxOpenRequests: MCP_HTTP_MAX_OPEN_REQUESTS,
    idleSessionMs: MCP_HTTP_IDLE_SESSION_MS,
    headersTimeoutMs: MCP_HTTP_HEADERS_TIMEOUT_MS,
    ...options.limits,
  };
  const log = options.log ?? (() => {});
  const authenticate = createAuthenticator(options.auth);
  const sessions = new Map<string, HttpSession>();
  const idle = new Map<HttpSession, ReturnType<typeof setTimeout>>();
  const plan = {
    server: options.server,
    roots: options.roots,
    perSession: options.rootPerSession,
    host: createAutoHost(),
    privatePaths: options.privatePaths ?? [],
  };
  // Sessions being opened, all and per principal (they hold a place before they are in `sessions`).
  let opening = 0;
  const openingBy = new Map<string, number>();
  // Each principal's sessions are bounded apart only when principals are told apart (OAuth's `sub`).
  const perPrincipal = options.auth.kind === "oauth" ? limits.maxSessionsPerPrincipal : limits.maxSessions;
  const heldBy = (principal: string): number => {
    let held = openingBy.get(principal) ?? 0;
    for (const session of sessions.values()) if (session.principal === principal) held++;
    return held;
  };
  const bodies = new BodyBudget(limits.bodyBudgetBytes);
  const slots = new ConnectionSlots(limits.maxConnections);
  let allowList = originAllowList(host, 0);
  let metadataUrl: string | undefined;

  const forget = (session: HttpSession): void => {
    if (sessions.get(session.id) !== session) return;
    sessions.delete(session.id);
    clearTimeout(idle.get(session));
    idle.delete(session);
    log(`session ${session.id} ended (${sessions.size} open)`);
  };
  // A session with no request open for the idle bound ends as a DELETE would.
  const touch = (session: HttpSession): void => {
    clearTimeout(idle.get(session));
    idle.delete(session);
    if (session.open > 0) return;
    const timer = setTimeout(() => void session.end(), limits.idleSessionMs);
    (timer as { unref?: () => void }).unref?.();
    idle.set(session, timer);
  };

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? "/", "http://paddock.invalid");
    // The readiness probe tells nothing and runs nothing: no token, and any Host (a cluster probes the pod's IP).
    if (request.method === "GET" && url.pathname === "/healthz") return reply(response, 200, "ok");
    // 2. DNS rebinding: the Host, and a browser's Origin, must be on the allow list.
    const refused = checkOrigin(allowList, request.headers.host, header(request, "origin"));
    if (refused !== undefined) return reply(response, 403, refused);
    if (url.pathname === METADATA_PATH || url.pathname === `${METADATA_PATH}${MCP_HTTP_PATH}`) {
      if (options.auth.kind !== "oauth") return reply(response, 404, "not found");
      return json(response, 200, {
        resource: options.auth.audience,
        authorization_servers: [options.auth.issuer],
        bearer_methods_supported: ["header"],
      });
    }
    if (url.pathname !== MCP_HTTP_PATH) return reply(response, 404, "not found");
    // 3. The bearer token, before the body is read.
    const auth: AuthOutcome = await authenticate(header(request, "authorization"));
    if (!auth.ok) {
      response.setHeader("WWW-Authenticate", wwwAuthenticate(auth, metadataUrl));
      return reply(response, 401, auth.description);
    }
    slots.prove(request.socket);
    if (request.method !== "POST" && request.method !== "GET" && request.method !== "DELETE") {
      response.setHeader("Allow", "GET, POST, DELETE");
      return reply(response, 405, "method not allowed");
    }
    // 4. The session: only its own principal reaches it; an id not open (or another's) is 404, per the spec.
    const id = header(request, "mcp-session-id");
    let session = id === undefined ? undefined : sessions.get(id);
    if (id !== undefined && (session === undefined || session.principal !== auth.principal)) {
      return rpcError(response, 404, -32001, "Session not found");
    }
    // A DELETE ends the session before it is answered: its processes are dead and its folder gone by then.
    // It is taken even with the session's bound of open requests reached (that is when a client needs it most).
    if (request.method === "DELETE") {
      if (session === undefined) return rpcError(response, 400, -32000, "Bad Request: no Mcp-Session-Id");
      await session.end();
      response.writeHead(200).end();
      return;
    }
    if (session !== undefined && session.open >= limits.maxOpenRequests) {
      return rpcError(response, 429, -32000, `Too many requests open in this session (${limits.maxOpenRequests})`);
    }
    // 5. A POST's body, bounded, parsed here (so the bound holds whatever the SDK does).
    let body: unknown;
    if (request.method === "POST") {
      const read = await readHttpBody(request, limits.maxBodyBytes, bodies);
      if (read.refused === "too-large") {
        response.setHeader("Connection", "close");
        return rpcError(response, 413, -32600, `Request body over ${limits.maxBodyBytes} bytes`);
      }
      if (read.refused === "busy") {
        response.setHeader("Connection", "close");
        response.setHeader("Retry-After", "1");
        return rpcError(
          response,
          503,
          -32000,
          `Server busy: request bodies being read hold ${limits.bodyBudgetBytes} bytes; retry`,
        );
      }
      try {
        body = JSON.parse(read.text);
      } catch {
        return rpcError(response, 400, -32700, "Parse error: the body is not JSON");
      }
    }
    // 6. A new session for an `initialize` without one.
    const fresh = session === undefined;
    if (session === undefined) {
      if (request.method !== "POST" || !isInitialize(body)) {
        return rpcError(response, 400, -32000, "Bad Request: no Mcp-Session-Id (send initialize first)");
      }
      if (sessions.size + opening >= limits.maxSessions) {
        return rpcError(response, 503, -32000, `Too many sessions open (${limits.maxSessions}); end one with DELETE`);
      }
      if (heldBy(auth.principal) >= perPrincipal) {
        return rpcError(
          response,
          429,
          -32000,
          `Too many sessions open for this principal (${perPrincipal}); end one with DELETE`,
        );
      }
      opening++;
      openingBy.set(auth.principal, (openingBy.get(auth.principal) ?? 0) + 1);
      try {
        session = await HttpSession.open(plan, auth.principal, forget);
      } finally {
        opening--;
        const left = openingBy.get(auth.principal)! - 1;
        if (left === 0) openingBy.delete(auth.principal);
        else openingBy.set(auth.principal, left);
      }
      sessions.set(session.id, session);
      log(`session ${session.id} opened (${sessions.size} open)`);
    }
    // 7. The SDK's transport answers it; the session's open count holds until the response is done.
    const current = session;
    current.open++;
    touch(current);
    response.once("close", () => {
      current.open--;
      if (sessions.has(current.id)) touch(current);
    });
    await current.handle(request, response, body);
    // An `initialize` the SDK refused (bad Accept, Content-Type, batch) named no session: it must not hold a place.
    if (fresh && !current.initialized) {
      forget(current);
      await current.end();
    }
  };

  // Node checks the headers and request timeouts every connectionsCheckingInterval (30 s by default): checked
  // every second instead, a slow client is cut at the stated bound, not up to 30 s after it.
  const server = http.createServer({ connectionsCheckingInterval: CHECK_TIMEOUTS_EVERY_MS }, (request, response) => {
    const socket = request.socket;
    slots.opened(socket);
    response.once("close", () => slots.closed(socket));
    handle(request, response).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!response.headersSent) rpcError(response, 500, -32603, "Internal error");
      else response.end();
    });
  });
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = MCP_HTTP_REQUEST_TIMEOUT_MS;
  server.keepAliveTimeout = MCP_HTTP_KEEP_ALIVE_MS;
  // Connections are bounded by `slots` (which closes an idle one for a newcomer), not by Node's maxConnections
  // (which refuses newcomers, so idle sockets of anyone locked everyone out).
  server.on("connection", (socket) => slots.admit(socket));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  allowList = originAllowList(host, port, options.allowedHosts, options.allowedOrigins);
  const shown = host.includes(":") ? `[${host}]` : host;
  const url = `http://${shown}:${port}${MCP_HTTP_PATH}`;
  if (options.auth.kind === "oauth") metadataUrl = new URL(`${METADATA_PATH}${MCP_HTTP_PATH}`, url).href;
  return {
    url,
    get sessions() {
      return sessions.size;
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections?.();
        // Ending the sessions closes their streams, which lets server.close() finish.
        void Promise.all([...sessions.values()].map((session) => session.end())).then(() =>
          server.closeAllConnections?.()
        );
      });
      await Promise.all([...sessions.values()].map((session) => session.end()));
    },
  };
}

function header(request: http.IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) =>
    typeof message === "object" && message !== null && (message as { method?: unknown }).method === "initialize"
  );
}

// How often Node looks for connections past the headers or request timeout.
const CHECK_TIMEOUTS_EVERY_MS = 1_000;

// A request refused before its body was read: the connection closes after the answer, rather than
// Node reading (and dropping) whatever the client goes on sending until the request timeout.
function closeUnread(response: http.ServerResponse): void {
  if (response.req?.complete === false) response.setHeader("Connection", "close");
}

function reply(response: http.ServerResponse, status: number, text: string): void {
  closeUnread(response);
  response.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" });
  response.end(`${text}\n`);
}

function json(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

function rpcError(response: http.ServerResponse, status: number, code: number, message: string): void {
  closeUnread(response);
  json(response, status, { jsonrpc: "2.0", error: { code, message }, id: null });
}
