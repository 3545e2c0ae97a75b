/**
 * The credential broker: secrets stay on the host. A client (a sandboxed
 * command, a script) calls `http://127.0.0.1:<port>/__broker/<host>/path`;
 * the broker forwards to `https://<host>/path` with the headers of the
 * matching rule added. The client never sees the values: they are not in the
 * broker's `env`, not in its error responses and not in its log.
 *
 * @module
 */
import { WorkspaceError } from "../core/errors.ts";
import { BROKER_PATH_PREFIX } from "./broker_path_prefix.ts";
import type { EgressEndpoint, ListenTarget, ProxyListener } from "./egress_endpoint.ts";
import { EgressProxy } from "./egress_proxy.ts";
import type { EgressProxyOptions } from "./egress_proxy_options.ts";
import { canonicalHost, isValidHost } from "./host_pattern.ts";

/** Options of {@link createCredentialBroker}: the proxy's options plus where to listen. */
export interface CredentialBrokerOptions extends EgressProxyOptions {
  /** TCP port on 127.0.0.1. @default 0 (an ephemeral port) */
  port?: number;
}

/** A running credential broker. */
export interface CredentialBroker extends EgressEndpoint {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  /**
   * Variables pointing a client at the broker: `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY` (the broker's own
   * address, so a path-form request to {@link baseUrl} goes straight to it), their lower-case forms, and
   * `PADDOCK_BROKER_URL`. No secret.
   */
  readonly env: Readonly<Record<string, string>>;
  /**
   * The path-form base URL for `host`: `http://127.0.0.1:<port>/__broker/<host>`, without a final `/`.
   *
   * @param host A host name, optionally with `:port`.
   * @returns The URL; append the upstream path to it (`${baseUrl("api.github.com")}/user`).
   */
  baseUrl(host: string): string;
  /**
   * Listens on one more socket: a Unix socket bound into a sandbox, or another address. With
   * `{ host, clients, allow }` it serves only peers from the `clients` subnets (others are cut off
   * before a byte is read), and its allowlist is the rules' hosts plus `allow`; the loopback listener
   * and the broker's own `allow` do not change.
   *
   * @param target A Unix socket path, or `{ host, port?, clients?, allow? }`.
   * @returns The listener.
   */
  listen(target: ListenTarget): Promise<ProxyListener>;
  /** Stops every listener. */
  close(): Promise<void>;
}

/**
 * The variables that send a client's HTTP(S) traffic through the proxy at
 * `url`, and name its path form.
 *
 * @param url The proxy's URL (`http://host:port`).
 * @returns `HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY` (the proxy's own host: its path form is reached
 *   directly, not through itself), their lower-case forms, and `PADDOCK_BROKER_URL`.
 *
 * @example The environment of a child that must go through a proxy
 * ```ts
 * import { proxyEnvironment } from "@paddock/tools/sandbox";
 * const env = { PATH: "/usr/bin:/bin", ...proxyEnvironment("http://127.0.0.1:8080") };
 * // HTTP_PROXY and HTTPS_PROXY "http://127.0.0.1:8080", NO_PROXY "127.0.0.1",
 * // PADDOCK_BROKER_URL "http://127.0.0.1:8080/__broker/", and the lower-case forms
 * ```
 */
export function proxyEnvironment(url: string): Record<string, string> {
  const own = new URL(url).hostname.replace(/^\[|\]$/g, "");
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    NO_PROXY: own,
    http_proxy: url,
    https_proxy: url,
    no_proxy: own,
    PADDOCK_BROKER_URL: `${url}${BROKER_PATH_PREFIX}`,
  };
}

/**
 * Starts a credential broker on an ephemeral `127.0.0.1` port.
 *
 * Rules map a host (exact or `*.suffix`) to headers (a string, or a function
 * called per request) injected into path-form requests; an existing header of
 * the same name (`Authorization` included) is replaced; hop-by-hop headers are
 * not forwarded. `allow` adds hosts reachable without injection; any other
 * host gets `403` before a connection is opened. `CONNECT` tunnels are checked
 * against the same allowlist and passed through untouched (no TLS
 * interception, so no injection). Pass the broker as a sandbox's
 * `network.proxy` to make it the sandbox's only way out.
 *
 * @param options Rules, allowlist, private-address exceptions, upstream trust and logging.
 * @returns The running broker.
 * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a malformed host pattern.
 *
 * @example Injecting a GitHub token
 * ```ts
 * import { createCredentialBroker } from "@paddock/tools/sandbox";
 * declare function readToken(): string;
 * const broker = await createCredentialBroker({
 *   rules: { "api.github.com": { Authorization: () => `Bearer ${readToken()}` } },
 *   allow: ["registry.npmjs.org"],
 * });
 * await fetch(`${broker.baseUrl("api.github.com")}/user`); // → https://api.github.com/user with the token
 * await broker.close();
 * ```
 */
export async function createCredentialBroker(options: CredentialBrokerOptions = {}): Promise<CredentialBroker> {
  const proxy = new EgressProxy(options);
  const main = await proxy.listen({ host: "127.0.0.1", port: options.port ?? 0 });
  const url = main.url as string;
  return {
    url,
    env: Object.freeze(proxyEnvironment(url)),
    baseUrl: (host) => {
      const [name, port, ...more] = host.split(":");
      if (more.length > 0 || !isValidHost(canonicalHost(name)) || (port !== undefined && !/^\d{1,5}$/.test(port))) {
        throw new WorkspaceError("INVALID_ARGUMENTS", `Cannot build a broker URL for '${host}': expected a host name`);
      }
      return `${url}${BROKER_PATH_PREFIX}${canonicalHost(name)}${port === undefined ? "" : `:${port}`}`;
    },
    listen: (target) => proxy.listen(target),
    close: () => proxy.close(),
  };
}
