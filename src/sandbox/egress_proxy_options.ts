/**
 * The options of the egress proxy: its allowlist, the header rules of the
 * credential broker, and the log it writes.
 *
 * @module
 */

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
