/**
 * The egress proxy: an HTTP proxy that lets a sandboxed command (or any
 * client) reach only allowlisted hosts, and the engine of the credential
 * broker. It serves three request forms:
 *
 * - `CONNECT host:port` — a tunnel, checked against the allowlist and then
 *   passed through untouched (no TLS interception);
 * - `GET http://host/path` (absolute form) — plain HTTP, forwarded;
 * - `/__broker/<host>[:port]/path` (path form) — forwarded to
 *   `https://<host>/path`, with the headers of a matching rule injected.
 *
 * Every refusal is a `403` sent before any upstream connection is opened.
 * A host that resolves to a loopback, link-local (cloud metadata), private or
 * otherwise non-public address is refused unless `allowPrivate` lists it; the
 * checked address is the one connected to (no second lookup, so a DNS answer
 * cannot change between the check and the connection).
 *
 * @module
 */
import { lookup } from "node:dns/promises";
import * as fs from "node:fs";
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import type { Duplex } from "node:stream";
import { EGRESS_PROXY_CONNECT_TIMEOUT_MS } from "../core/limits.ts";
import { isPrivateAddress } from "./address_policy.ts";
import { ClientSubnets } from "./client_subnet.ts";
import { canonicalHost, HostPatternList, isValidHost } from "./host_pattern.ts";

/** The path prefix of the broker's path form: `/__broker/<host>/…` forwards to `https://<host>/…`. */
export const BROKER_PATH_PREFIX = "/__broker/";

/** A header value to inject: a fixed string, or a function called for every request (it may fetch a fresh token). */
export type HeaderValue = string | ((context: { host: string }) => string | Promise<string>);

/** Injection rules: a host pattern (exact or `*.suffix`) → header name → value. */
export type HeaderRules = Readonly<Record<string, Readonly<Record<string, HeaderValue>>>>;

/** One line of the proxy's log. It never holds header values, paths or query strings. */
export interface EgressLogEntry {
  /** What happened. */
  action: "allowed" | "refused" | "failed";
  /** Which request form. */
  form: "connect" | "http" | "broker";
  /** The request method. */
  method: string;
  /** The target host as the client named it. */
  host: string;
  /** The target port. */
  port: number;
  /** The status sent to the client (`200` for an opened tunnel). */
  status: number;
  /** Why it was refused or failed. */
  reason?: string;
  /** Names (never values) of the headers injected. */
  injected?: string[];
}

/** Options of {@link createEgressProxy}. */
export interface EgressProxyOptions {
  /** Hosts reachable without injection: exact names or `*.suffix`. @default [] */
  allow?: readonly string[];
  /** Hosts allowed to resolve to loopback, link-local or private addresses (they must be allowed too). @default [] */
  allowPrivate?: readonly string[];
  /** Headers injected into path-form requests to matching hosts; those hosts are allowed. @default {} */
  rules?: HeaderRules;
  /** Extra CA certificates (PEM) trusted for path-form upstreams, e.g. a test server's own certificate. @default undefined (the runtime's roots) */
  upstreamCa?: string | readonly string[];
  /** Whether path-form upstream certificates are verified. Only for tests; never turn it off in production. @default true */
  rejectUnauthorized?: boolean;
  /** Milliseconds to resolve and connect upstream before answering 502. @default 10000 */
  connectTimeoutMs?: number;
  /** Receives one entry per request; entries never hold injected values. @default no logging */
  log?: (entry: EgressLogEntry) => void;
}

/** A TCP listener: where, and optionally whom it serves and what they may reach. */
export interface TcpListenTarget {
  /** The address to bind. @default "127.0.0.1" */
  host?: string;
  /** The port. @default 0 (an ephemeral port) */
  port?: number;
  /**
   * Only peers from these subnets (`172.18.0.0/16`, or one address) are
   * served; any other connection is closed before a byte is read.
   * @default undefined (every peer that can reach the address)
   */
  clients?: string | readonly string[];
  /**
   * Hosts this listener's clients reach without injection. When given (or
   * with `clients`), this listener's allowlist is the rules' hosts plus these,
   * instead of the proxy's own `allow`.
   * @default undefined (the proxy's allowlist)
   */
  allow?: readonly string[];
}

/** Where to listen: a Unix socket path, or a TCP port on a host. */
export type ListenTarget = string | TcpListenTarget;

/** One listening socket of a proxy. */
export interface ProxyListener {
  /** `http://127.0.0.1:<port>` for TCP; `undefined` for a Unix socket. */
  readonly url: string | undefined;
  /** The TCP port, or `undefined` for a Unix socket. */
  readonly port: number | undefined;
  /** Lets the process exit while this listener is open. */
  unref(): void;
  /** Stops listening and ends its connections. */
  close(): Promise<void>;
}

/** Anything the sandbox can use as its way out: it listens on a Unix socket bound into the sandbox. */
export interface EgressEndpoint {
  /** Starts listening at `target`. */
  listen(target: ListenTarget): Promise<ProxyListener>;
}

// Headers that describe one hop, never forwarded (RFC 9110 §7.6.1), plus the
// proxy's own and `host` (set from the target).
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "host",
]);

type Decision =
  | { ok: true; address: string }
  | { ok: false; status: number; reason: string };

interface Target {
  host: string;
  port: number;
}

// `host`, `host:port`, `[v6]` or `[v6]:port`.
function parseAuthority(authority: string, defaultPort: number | undefined): Target | null {
  const match = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(authority) ??
    /^([^:\[\]/?#@\s]+)(?::(\d{1,5}))?$/.exec(authority);
  if (match === null) return null;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (port === undefined || port < 1 || port > 65_535) return null;
  const host = canonicalHost(match[1]);
  return isValidHost(host) ? { host, port } : null;
}

function forwardable(headers: http.IncomingHttpHeaders | http.OutgoingHttpHeaders): Record<string, string | string[]> {
  const named = new Set(
    String(headers["connection"] ?? "").split(",").map((token) => token.trim().toLowerCase()).filter(Boolean),
  );
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const key = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(key) || named.has(key)) continue;
    out[key] = typeof value === "number" ? String(value) : value;
  }
  return out;
}

function plainResponse(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${message}\n`;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": body.length,
    connection: "close",
  });
  res.end(body);
}

function rawResponse(socket: Duplex, status: number, message: string): void {
  const text = status === 403
    ? "Forbidden"
    : status === 400
    ? "Bad Request"
    : status === 504
    ? "Gateway Timeout"
    : "Bad Gateway";
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * An allowlisting HTTP proxy (and credential-injecting broker). Create with
 * {@link createEgressProxy}; it does nothing until {@link EgressProxy.listen}.
 */
export class EgressProxy implements EgressEndpoint {
  private readonly allowed: HostPatternList;
  private readonly ruleHosts: string[];
  private readonly privateAllowed: HostPatternList;
  private readonly rules: Array<
    { pattern: HostPatternList; wildcard: boolean; headers: Readonly<Record<string, HeaderValue>> }
  >;
  private readonly ca: string[] | undefined;
  private readonly rejectUnauthorized: boolean;
  private readonly connectTimeoutMs: number;
  private readonly logSink: ((entry: EgressLogEntry) => void) | undefined;
  private readonly listeners = new Set<ProxyListener>();

  /**
   * Makes a proxy; it listens once `listen()` is called.
   *
   * @param options Allowlist, private-address exceptions, rules and logging.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a malformed host pattern.
   */
  constructor(options: EgressProxyOptions = {}) {
    const rules = Object.entries(options.rules ?? {});
    this.ruleHosts = rules.map(([pattern]) => pattern);
    this.allowed = new HostPatternList([...(options.allow ?? []), ...this.ruleHosts]);
    this.privateAllowed = new HostPatternList(options.allowPrivate ?? []);
    // Exact patterns win over wildcards; among wildcards the longest suffix wins.
    this.rules = rules
      .map(([pattern, headers]) => ({
        pattern: new HostPatternList([pattern]),
        wildcard: pattern.startsWith("*."),
        length: pattern.length,
        headers,
      }))
      .sort((a, b) => Number(a.wildcard) - Number(b.wildcard) || b.length - a.length);
    this.ca = options.upstreamCa === undefined
      ? undefined
      : typeof options.upstreamCa === "string"
      ? [options.upstreamCa]
      : [...options.upstreamCa];
    this.rejectUnauthorized = options.rejectUnauthorized ?? true;
    this.connectTimeoutMs = options.connectTimeoutMs ?? EGRESS_PROXY_CONNECT_TIMEOUT_MS;
    this.logSink = options.log;
  }

  /**
   * Starts listening. Several listeners may share one proxy (a TCP port for
   * the host, a Unix socket bound into a sandbox).
   *
   * @param target A Unix socket path, or `{host, port, clients, allow}` (default `127.0.0.1`, an ephemeral
   *   port, every peer, the proxy's allowlist).
   * @returns The listener.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a malformed subnet or host pattern.
   */
  async listen(target: ListenTarget = {}): Promise<ProxyListener> {
    const sockets = new Set<Duplex>();
    const tcp = typeof target === "string" ? undefined : target;
    const clients = tcp?.clients === undefined
      ? undefined
      : new ClientSubnets(typeof tcp.clients === "string" ? [tcp.clients] : tcp.clients);
    const allowed = tcp?.allow === undefined && clients === undefined
      ? this.allowed
      : new HostPatternList([...this.ruleHosts, ...(tcp?.allow ?? [])]);
    // A bug or an unexpected throw ends that one exchange, never the proxy.
    const server = http.createServer((req, res) => {
      this.handleRequest(req, res, allowed).catch(() =>
        plainResponse(res, 502, "The proxy failed to handle the request")
      );
    });
    server.on("connect", (req: http.IncomingMessage, socket: Duplex, head: Uint8Array) => {
      this.handleConnect(req, socket, head, allowed).catch(() => socket.destroy());
    });
    server.on("connection", (socket: net.Socket) => {
      // A peer from outside the client subnets is cut off before anything is read.
      if (clients !== undefined && !clients.matches(socket.remoteAddress)) {
        socket.destroy();
        return;
      }
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    server.on("clientError", (_error, socket: Duplex) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      if (typeof target === "string") server.listen(target, () => resolve());
      else server.listen(target.port ?? 0, target.host ?? "127.0.0.1", () => resolve());
    });
    const address = server.address();
    const port = typeof address === "object" && address !== null ? address.port : undefined;
    const host = typeof target === "string" ? undefined : target.host ?? "127.0.0.1";
    let closed = false;
    const listener: ProxyListener = {
      url: port === undefined ? undefined : `http://${host?.includes(":") ? `[${host}]` : host}:${port}`,
      port,
      unref: () => void server.unref(),
      close: async () => {
        if (closed) return;
        closed = true;
        this.listeners.delete(listener);
        const done = new Promise<void>((resolve) => server.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await done;
        if (typeof target === "string") fs.rmSync(target, { force: true });
      },
    };
    this.listeners.add(listener);
    return listener;
  }

  /** Closes every listener of this proxy. */
  async close(): Promise<void> {
    await Promise.all([...this.listeners].map((listener) => listener.close()));
  }

  /** Hands an entry to the log sink, if any. */
  private log(entry: EgressLogEntry): void {
    try {
      this.logSink?.(entry);
    } catch {
      // A failing log sink must not break the proxy.
    }
  }

  // Allowlist, then resolution, then the private-address check; only an
  // allowed target is ever resolved, and nothing connects before this passes.
  /** Decides whether a target may be reached by a listener whose allowlist is `allowed` (see above). */
  private async authorize(target: Target, allowed: HostPatternList): Promise<Decision> {
    if (!allowed.matches(target.host)) {
      return { ok: false, status: 403, reason: `Host '${target.host}' is not on the allowlist` };
    }
    let addresses: string[];
    if (net.isIP(target.host) !== 0) {
      addresses = [target.host];
    } else {
      try {
        const answers = await withTimeout(lookup(target.host, { all: true, verbatim: true }), this.connectTimeoutMs);
        addresses = answers.map((answer) => answer.address);
      } catch {
        return { ok: false, status: 502, reason: `Cannot resolve host '${target.host}'` };
      }
    }
    if (addresses.length === 0) return { ok: false, status: 502, reason: `Cannot resolve host '${target.host}'` };
    if (addresses.some(isPrivateAddress) && !this.privateAllowed.matches(target.host)) {
      return {
        ok: false,
        status: 403,
        reason: `Host '${target.host}' resolves to a private, loopback or link-local address`,
      };
    }
    return { ok: true, address: addresses[0] };
  }

  /** Serves a CONNECT tunnel to an allowed host. */
  private async handleConnect(
    req: http.IncomingMessage,
    client: Duplex,
    head: Uint8Array,
    allowed: HostPatternList,
  ): Promise<void> {
    client.on("error", () => client.destroy());
    const target = parseAuthority(req.url ?? "", undefined);
    const method = "CONNECT";
    if (target === null) {
      this.log({ action: "refused", form: "connect", method, host: "", port: 0, status: 400, reason: "bad target" });
      rawResponse(client, 400, "CONNECT needs a target host:port");
      return;
    }
    const decision = await this.authorize(target, allowed);
    if (!decision.ok) {
      this.log({
        action: "refused",
        form: "connect",
        method,
        ...target,
        status: decision.status,
        reason: decision.reason,
      });
      rawResponse(client, decision.status, decision.reason);
      return;
    }
    const upstream = net.connect({ host: decision.address, port: target.port });
    const timer = setTimeout(() => upstream.destroy(new Error("timeout")), this.connectTimeoutMs);
    let connected = false;
    upstream.once("connect", () => {
      connected = true;
      clearTimeout(timer);
      this.log({ action: "allowed", form: "connect", method, ...target, status: 200 });
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on("error", () => {
      clearTimeout(timer);
      if (!connected) {
        this.log({ action: "failed", form: "connect", method, ...target, status: 502, reason: "cannot connect" });
        rawResponse(client, 502, `Cannot connect to '${target.host}'`);
      } else {
        client.destroy();
      }
    });
    client.on("close", () => upstream.destroy());
  }

  /** Serves a plain HTTP request, or a credential broker request. */
  private async handleRequest(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    allowed: HostPatternList,
  ): Promise<void> {
    const method = req.method ?? "GET";
    const url = req.url ?? "";
    let form: "http" | "broker";
    let target: Target | null;
    let path: string;
    if (url.startsWith(BROKER_PATH_PREFIX)) {
      form = "broker";
      const rest = url.slice(BROKER_PATH_PREFIX.length);
      const end = rest.search(/[/?]/);
      target = parseAuthority(end < 0 ? rest : rest.slice(0, end), 443);
      path = end < 0 ? "/" : rest[end] === "?" ? `/${rest.slice(end)}` : rest.slice(end);
    } else if (/^http:\/\//i.test(url)) {
      form = "http";
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {
        parsed = null;
      }
      target = parsed === null ? null : parseAuthority(parsed.host, 80);
      path = parsed === null ? "/" : `${parsed.pathname}${parsed.search}`;
    } else {
      this.log({
        action: "refused",
        form: "http",
        method,
        host: "",
        port: 0,
        status: 400,
        reason: "not a proxy request",
      });
      plainResponse(
        res,
        400,
        `This is a proxy: use CONNECT, an absolute http:// URL, or ${BROKER_PATH_PREFIX}<host>/<path>`,
      );
      return;
    }
    if (target === null) {
      this.log({ action: "refused", form, method, host: "", port: 0, status: 400, reason: "bad target" });
      plainResponse(res, 400, "The request names no valid target host");
      return;
    }
    const decision = await this.authorize(target, allowed);
    if (!decision.ok) {
      this.log({ action: "refused", form, method, ...target, status: decision.status, reason: decision.reason });
      plainResponse(res, decision.status, decision.reason);
      req.resume();
      return;
    }
    const headers = forwardable(req.headers);
    headers["host"] = target.host.includes(":") ? `[${target.host}]` : target.host;
    if ((form === "broker" && target.port !== 443) || (form === "http" && target.port !== 80)) {
      headers["host"] += `:${target.port}`;
    }
    // Credentials go only over TLS: the path form injects, plain http never does.
    let injected: string[] | undefined;
    if (form === "broker") {
      try {
        injected = await this.inject(target.host, headers);
      } catch {
        this.log({ action: "failed", form, method, ...target, status: 502, reason: "a header rule failed" });
        plainResponse(res, 502, `Cannot compute the credentials for '${target.host}'`);
        req.resume();
        return;
      }
    }
    const options: https.RequestOptions = {
      host: decision.address,
      port: target.port,
      method,
      path,
      headers,
      timeout: this.connectTimeoutMs,
    };
    let upstreamRequest: http.ClientRequest;
    try {
      upstreamRequest = this.openUpstream(form, target, options);
    } catch {
      // E.g. a header value the runtime refuses; the message could hold it, so none is given.
      this.log({ action: "failed", form, method, ...target, status: 502, reason: "invalid request to upstream" });
      plainResponse(res, 502, `Cannot send the request to '${target.host}'`);
      req.resume();
      return;
    }
    upstreamRequest.on("timeout", () => upstreamRequest.destroy(new Error("timeout")));
    upstreamRequest.on("response", (upstream) => {
      this.log({
        action: "allowed",
        form,
        method,
        ...target,
        status: upstream.statusCode ?? 502,
        ...(injected ? { injected } : {}),
      });
      res.writeHead(upstream.statusCode ?? 502, forwardable(upstream.headers));
      upstream.pipe(res);
      upstream.on("error", () => res.destroy());
    });
    upstreamRequest.on("error", () => {
      this.log({ action: "failed", form, method, ...target, status: 502, reason: "upstream error" });
      plainResponse(res, 502, `Cannot reach '${target.host}'`);
    });
    res.on("close", () => {
      if (!res.writableFinished) upstreamRequest.destroy();
    });
    req.pipe(upstreamRequest);
  }

  /** Opens the request to the checked address. */
  private openUpstream(form: "http" | "broker", target: Target, options: https.RequestOptions): http.ClientRequest {
    if (form === "http") return http.request(options);
    return https.request({
      ...options,
      // Pinned to the checked address; the certificate is checked against the name.
      ...(net.isIP(target.host) === 0 ? { servername: target.host } : {}),
      ...(this.ca === undefined ? {} : { ca: this.ca }),
      rejectUnauthorized: this.rejectUnauthorized,
    });
  }

  // Replaces any client header of the same name (an existing Authorization
  // included) with the rule's value; returns the names injected.
  /** Injects the matching rule's headers (see above). */
  private async inject(host: string, headers: Record<string, string | string[]>): Promise<string[] | undefined> {
    const rule = this.rules.find((candidate) => candidate.pattern.matches(host));
    if (rule === undefined) return undefined;
    const names: string[] = [];
    for (const [name, value] of Object.entries(rule.headers)) {
      const resolved = typeof value === "function" ? await value({ host }) : value;
      if (typeof resolved !== "string" || /[\r\n\0]/.test(resolved)) throw new Error("invalid header value");
      const key = name.toLowerCase();
      delete headers[key];
      headers[key] = resolved;
      names.push(key);
    }
    return names;
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Creates an allowlisting egress proxy (not yet listening).
 *
 * @param options Allowlist, private-address exceptions, rules and logging.
 * @returns The proxy; call `listen` to serve.
 *
 * @example A proxy that reaches the npm registry only
 * ```ts
 * import { createEgressProxy } from "@paddock/tools/sandbox";
 * const proxy = createEgressProxy({ allow: ["registry.npmjs.org"] });
 * const listener = await proxy.listen({ port: 0 });
 * // HTTPS_PROXY=listener.url npm install …
 * await proxy.close();
 * ```
 */
export function createEgressProxy(options: EgressProxyOptions = {}): EgressProxy {
  return new EgressProxy(options);
}
