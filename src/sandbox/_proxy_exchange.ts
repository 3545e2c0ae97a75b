// What the request handlers need from their proxy: its settings, its
// decision on a target, and its log.
import type { EgressLogEntry, HeaderValue } from "./egress_proxy_options.ts";
import type { HostPatternList } from "./host_pattern.ts";
import type { Target } from "./_proxy_target.ts";

/** Whether a target may be reached, and at which checked address. */
export type Decision =
  | { ok: true; address: string }
  | { ok: false; status: number; reason: string };

/** One header rule, compiled: its host pattern and the headers it injects. */
export interface HeaderRule {
  pattern: HostPatternList;
  wildcard: boolean;
  headers: Readonly<Record<string, HeaderValue>>;
}

/** The proxy as its request handlers see it. */
export interface ProxyExchange {
  /** Milliseconds to resolve and connect upstream. */
  readonly connectTimeoutMs: number;
  /** Extra CA certificates for path-form upstreams. */
  readonly ca: string[] | undefined;
  /** Whether path-form upstream certificates are verified. */
  readonly rejectUnauthorized: boolean;
  /** The header rules, exact patterns first, then the longest wildcard. */
  readonly rules: readonly HeaderRule[];
  /** Hands an entry to the log sink, if any. */
  log(entry: EgressLogEntry): void;
  /** Decides whether a target may be reached by a listener whose allowlist is `allowed`. */
  authorize(target: Target, allowed: HostPatternList): Promise<Decision>;
}
