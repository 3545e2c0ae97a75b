// The headers the proxy passes on, in either direction.
import type * as http from "node:http";

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

export function forwardable(
  headers: http.IncomingHttpHeaders | http.OutgoingHttpHeaders,
): Record<string, string | string[]> {
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
