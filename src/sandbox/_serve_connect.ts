// The CONNECT form of the egress proxy: a tunnel, checked and then passed
// through untouched.
import type * as http from "node:http";
import * as net from "node:net";
import type { Duplex } from "node:stream";
import type { HostPatternList } from "./host_pattern.ts";
import type { ProxyExchange } from "./_proxy_exchange.ts";
import { rawResponse } from "./_proxy_refusal.ts";
import { parseAuthority } from "./_proxy_target.ts";

/** Serves a CONNECT tunnel to an allowed host. */
export async function serveConnect(
  exchange: ProxyExchange,
  req: http.IncomingMessage,
  client: Duplex,
  head: Uint8Array,
  allowed: HostPatternList,
): Promise<void> {
  client.on("error", () => client.destroy());
  const target = parseAuthority(req.url ?? "", undefined);
  const method = "CONNECT";
  if (target === null) {
    exchange.log({ action: "refused", form: "connect", method, host: "", port: 0, status: 400, reason: "bad target" });
    rawResponse(client, 400, "CONNECT needs a target host:port");
    return;
  }
  const decision = await exchange.authorize(target, allowed);
  if (!decision.ok) {
    exchange.log({
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
  const timer = setTimeout(() => upstream.destroy(new Error("timeout")), exchange.connectTimeoutMs);
  let connected = false;
  upstream.once("connect", () => {
    connected = true;
    clearTimeout(timer);
    exchange.log({ action: "allowed", form: "connect", method, ...target, status: 200 });
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", () => {
    clearTimeout(timer);
    if (!connected) {
      exchange.log({ action: "failed", form: "connect", method, ...target, status: 502, reason: "cannot connect" });
      rawResponse(client, 502, `Cannot connect to '${target.host}'`);
    } else {
      client.destroy();
    }
  });
  client.on("close", () => upstream.destroy());
}
