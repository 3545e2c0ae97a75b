/**
 * Host allowlists for the egress proxy and the credential broker: exact host
 * names (or IP literals) and `*.suffix` patterns, matched case-insensitively.
 *
 * @module
 */
import { WorkspaceError } from "../core/errors.ts";

// A host name label list or an IPv4 literal; IPv6 literals are written bare
// (`::1`) in patterns and compared as text after lower-casing.
const HOST_NAME = /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const IPV6_LITERAL = /^[0-9a-f:.]+$/;

/** Lower-cases a host and drops one trailing dot and IPv6 brackets, so `Example.COM.` and `example.com` compare equal. */
export function canonicalHost(host: string): string {
  let out = host.trim().toLowerCase();
  if (out.startsWith("[") && out.endsWith("]")) out = out.slice(1, -1);
  if (out.endsWith(".")) out = out.slice(0, -1);
  return out;
}

/** Whether `host` (already canonical) is a syntactically valid host name or IP literal. */
export function isValidHost(host: string): boolean {
  return host.length > 0 && host.length <= 253 &&
    (HOST_NAME.test(host) || (host.includes(":") && IPV6_LITERAL.test(host)));
}

/**
 * A compiled list of host patterns: `example.com` matches that host only;
 * `*.example.com` matches every name below it (`api.example.com`,
 * `a.b.example.com`) but not `example.com` itself.
 */
export class HostPatternList {
  private readonly exact = new Set<string>();
  private readonly suffixes: string[] = [];

  /**
   * Parses `patterns`.
   *
   * @param patterns Host patterns.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a pattern that is neither a host nor `*.suffix`.
   */
  constructor(patterns: Iterable<string>) {
    for (const raw of patterns) {
      const pattern = canonicalHost(raw);
      if (pattern.startsWith("*.") && isValidHost(pattern.slice(2)) && pattern.slice(2).includes(".")) {
        this.suffixes.push(pattern.slice(1)); // keeps the leading dot
      } else if (isValidHost(pattern)) {
        this.exact.add(pattern);
      } else {
        throw new WorkspaceError(
          "INVALID_ARGUMENTS",
          `Cannot use the host pattern '${raw}': expected a host name or '*.domain'`,
        );
      }
    }
  }

  /** Whether `host` matches one of the patterns. */
  matches(host: string): boolean {
    const name = canonicalHost(host);
    return this.exact.has(name) || this.suffixes.some((suffix) => name.endsWith(suffix) && name.length > suffix.length);
  }
}
