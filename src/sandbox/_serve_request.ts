// The two HTTP forms of the egress proxy: plain HTTP in absolute form,
// forwarded, and the broker's path form, forwarded over TLS with the matching
// rule's headers injected.
import * as http from "node:http";
import * as https from "node:https";
import * as net from "node:net";
import { BROKER_PATH_PREFIX } from "./broker_path_prefix.ts";
import type { HostPatternList } from "./host_pattern.ts";
import { forwardable } from "./_forwardable_headers.ts";
import type { ProxyExchange } from "./_proxy_exchange.ts";
import { plainResponse } from "./_proxy_refusal.ts";
import { parseAuthority, type Target } from "./_proxy_target.ts";

/** Serves a plain HTTP request, or a credential broker request. */
export async function serveRequest(
  exchange: ProxyExchange,
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
    exchange.log({
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
    exchange.log({ action: "refused", form, method, host: "", port: 0, status: 400, reason: "bad target" });
    plainResponse(res, 400, "The request names no valid target host");
    return;
  }
  const decision = await exchange.authorize(target, allowed);
  if (!decision.ok) {
    exchange.log({ action: "refused", form, method, ...target, status: decision.status, reason: decision.reason });
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
      injected = await inject(exchange, target.host, headers);
    } catch {
      exchange.log({ action: "failed", form, method, ...target, status: 502, reason: "a header rule failed" });
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
    timeout: exchange.connectTimeoutMs,
  };
  let upstreamRequest: http.ClientRequest;
  try {
    upstreamRequest = openUpstream(exchange, form, target, options);
  } catch {
    // E.g. a header value the runtime refuses; the message could hold it, so none is given.
    exchange.log({ action: "failed", form, method, ...target, status: 502, reason: "invalid request to upstream" });
    plainResponse(res, 502, `Cannot send the request to '${target.host}'`);
    req.resume();
    return;
  }
  upstreamRequest.on("timeout", () => upstreamRequest.destroy(new Error("timeout")));
  upstreamRequest.on("response", (upstream) => {
    exchange.log({
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
    exchange.log({ action: "failed", form, method, ...target, status: 502, reason: "upstream error" });
    plainResponse(res, 502, `Cannot reach '${target.host}'`);
  });
  res.on("close", () => {
    if (!res.writableFinished) upstreamRequest.destroy();
  });
  req.pipe(upstreamRequest);
}

/** Opens the request to the checked address. */
function openUpstream(
  exchange: ProxyExchange,
  form: "http" | "broker",
  target: Target,
  options: https.RequestOptions,
): http.ClientRequest {
  if (form === "http") return http.request(options);
  return https.request({
    ...options,
    // Pinned to the checked address; the certificate is checked against the name.
    ...(net.isIP(target.host) === 0 ? { servername: target.host } : {}),
    ...(exchange.ca === undefined ? {} : { ca: exchange.ca }),
    rejectUnauthorized: exchange.rejectUnauthorized,
  });
}

// Replaces any client header of the same name (an existing Authorization
// included) with the rule's value; returns the names injected.
/** Injects the matching rule's headers (see above). */
async function inject(
  exchange: ProxyExchange,
  host: string,
  headers: Record<string, string | string[]>,
): Promise<string[] | undefined> {
  const rule = exchange.rules.find((candidate) => candidate.pattern.matches(host));
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
