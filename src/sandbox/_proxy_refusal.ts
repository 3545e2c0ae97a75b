// The plain-text answers the proxy sends when it refuses or fails a request:
// over HTTP once a request was parsed, raw on the socket for CONNECT.
import type * as http from "node:http";
import type { Duplex } from "node:stream";

export function plainResponse(res: http.ServerResponse, status: number, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = `${message}\n`;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "content-length": body.length,
    connection: "close",
  });
  res.end(body);
}

export function rawResponse(socket: Duplex, status: number, message: string): void {
  const text = status === 403
    ? "Forbidden"
    : status === 400
    ? "Bad Request"
    : status === 504
    ? "Gateway Timeout"
    : "Bad Gateway";
  const body = `${message}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
  );
}
