/**
 * DNS-rebinding protection for `paddock mcp --http`, as the MCP transport
 * spec requires: the `Host` of every request must be one this server is
 * reached by, and an `Origin`, when a browser sends one, must be allowed.
 *
 * @module
 */

/** The names a request may use. */
export interface OriginAllowList {
  /** `Host` values (`name:port`, lower case) accepted. */
  hosts: ReadonlySet<string>;
  /** `Origin` values (`scheme://name:port`, lower case) accepted; a request without `Origin` passes. */
  origins: ReadonlySet<string>;
}

/**
 * The allow list of a server listening at `host:port`: that address, and
 * for a loopback one (or all addresses) `localhost`, `127.0.0.1` and `[::1]` at the same port;
 * plus the names given (a proxy's public name).
 *
 * @param host The address listened on.
 * @param port The port listened on.
 * @param extraHosts More `Host` values (`name` or `name:port`). @default []
 * @param extraOrigins More `Origin` values (`https://name`). @default []
 * @returns The allow list.
 *
 * @example
 * ```ts
 * const list = originAllowList("127.0.0.1", 8080);
 * checkOrigin(list, "localhost:8080", undefined); // undefined: allowed
 * checkOrigin(list, "evil.example:8080", undefined); // a reason: refused
 * ```
 */
export function originAllowList(
  host: string,
  port: number,
  extraHosts: readonly string[] = [],
  extraOrigins: readonly string[] = [],
): OriginAllowList {
  const bracketed = host.includes(":") ? `[${host}]` : host;
  const names = new Set([bracketed.toLowerCase()]);
  // A loopback address, or every address (0.0.0.0, ::): this machine's own names reach it.
  if (isLoopback(host) || host === "0.0.0.0" || host === "::") {
    for (const name of ["localhost", "127.0.0.1", "[::1]"]) names.add(name);
  }
  const hosts = new Set<string>();
  const origins = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    origins.add(`http://${name}:${port}`);
  }
  for (const extra of extraHosts) {
    const lower = extra.toLowerCase();
    hosts.add(lower);
    // A name without a port: as a proxy in front sends it (default port), and at this one.
    if (!/:\d+$/.test(lower)) hosts.add(`${lower}:${port}`);
  }
  for (const extra of extraOrigins) origins.add(extra.toLowerCase().replace(/\/+$/, ""));
  return { hosts, origins };
}

/**
 * Why a request's `Host` or `Origin` is refused, or `undefined` when both pass.
 *
 * @param list The allow list.
 * @param host The request's `Host` header.
 * @param origin The request's `Origin` header.
 * @returns The reason (for the 403's body), or `undefined`.
 */
export function checkOrigin(
  list: OriginAllowList,
  host: string | undefined,
  origin: string | undefined,
): string | undefined {
  if (host === undefined || !list.hosts.has(host.toLowerCase())) return "this Host is not served here";
  if (origin !== undefined && !list.origins.has(origin.toLowerCase())) return "this Origin is not allowed";
  return undefined;
}

/**
 * Whether `host` is a loopback address or name (`127.0.0.0/8`, `::1`, `localhost`).
 *
 * @param host An address or name, as given to `--http`.
 * @returns Whether only this machine reaches it.
 */
export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, "").toLowerCase();
  return bare === "localhost" || bare === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
