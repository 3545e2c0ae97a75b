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
import * as net from "node:net";
import type { Duplex } from "node:stream";
import { EGRESS_PROXY_CONNECT_TIMEOUT_MS } from "../core/limits.ts";
import { isPrivateAddress } from "./address_policy.ts";
import { ClientSubnets } from "./client_subnet.ts";
import type { EgressEndpoint, ListenTarget, ProxyListener } from "./egress_endpoint.ts";
import type { EgressLogEntry, EgressProxyOptions } from "./egress_proxy_options.ts";
import { HostPatternList } from "./host_pattern.ts";
import type { Decision, HeaderRule, ProxyExchange } from "./_proxy_exchange.ts";
import { plainResponse } from "./_proxy_refusal.ts";
import type { Target } from "./_proxy_target.ts";
import { serveConnect } from "./_serve_connect.ts";
import { serveRequest } from "./_serve_request.ts";

/**
 * An allowlisting HTTP proxy (and credential-injecting broker). Create with
 * {@link createEgressProxy}; it does nothing until {@link EgressProxy.listen}.
 */
export class EgressProxy implements EgressEndpoint {
  private readonly allowed: HostPatternList;
  private readonly ruleHosts: string[];
  private readonly privateAllowed: HostPatternList;
  private readonly rules: HeaderRule[];
  private readonly ca: string[] | undefined;
  private readonly rejectUnauthorized: boolean;
  private readonly connectTimeoutMs: number;
  private readonly logSink: ((entry: EgressLogEntry) => void) | undefined;
  private readonly listeners = new Set<ProxyListener>();
  private readonly exchange: ProxyExchange;

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
    this.exchange = {
      connectTimeoutMs: this.connectTimeoutMs,
      ca: this.ca,
      rejectUnauthorized: this.rejectUnauthorized,
      rules: this.rules,
      log: (entry) => this.log(entry),
      authorize: (target, allowed) => this.authorize(target, allowed),
    };
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
      serveRequest(this.exchange, req, res, allowed).catch(() =>
        plainResponse(res, 502, "The proxy failed to handle the request")
      );
    });
    server.on("connect", (req: http.IncomingMessage, socket: Duplex, head: Uint8Array) => {
      serveConnect(this.exchange, req, socket, head, allowed).catch(() => socket.destroy());
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
