// The target of one proxied request, parsed from its authority.
import { canonicalHost, isValidHost } from "./host_pattern.ts";

/** A checked host and port. */
export interface Target {
  host: string;
  port: number;
}

// `host`, `host:port`, `[v6]` or `[v6]:port`.
export function parseAuthority(authority: string, defaultPort: number | undefined): Target | null {
  const match = /^\[([0-9A-Fa-f:.]+)\](?::(\d{1,5}))?$/.exec(authority) ??
    /^([^:\[\]/?#@\s]+)(?::(\d{1,5}))?$/.exec(authority);
  if (match === null) return null;
  const port = match[2] === undefined ? defaultPort : Number(match[2]);
  if (port === undefined || port < 1 || port > 65_535) return null;
  const host = canonicalHost(match[1]);
  return isValidHost(host) ? { host, port } : null;
}
