import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import type * as http from "node:http";
import * as https from "node:https";
import type * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";

/** An HTTPS server on loopback, as an upstream for the egress proxy and the credential broker. */
export interface HttpsUpstream {
  server: https.Server;
  /** The port it listens on at 127.0.0.1. */
  port: number;
  /** Its self-signed certificate (PEM), for `localhost` and `127.0.0.1`: the CA a client must trust. */
  cert: string;
  /** The temp folder holding its key and certificate; the caller removes it. */
  dir: string;
}

/**
 * Makes a key and a self-signed certificate for `localhost` and `127.0.0.1`
 * with openssl (check `hasProgram("openssl")` first) in a new temp folder, and
 * starts an HTTPS server with them on 127.0.0.1, on a free port.
 *
 * @param prefix The temp folder's name prefix.
 * @param handler Answers each request.
 * @returns The listening server, its port, its certificate and its folder.
 */
export async function startHttpsUpstream(prefix: string, handler: http.RequestListener): Promise<HttpsUpstream> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  execFileSync("openssl", [
    "req",
    "-x509",
    "-newkey",
    "ec",
    "-pkeyopt",
    "ec_paramgen_curve:prime256v1",
    "-nodes",
    "-keyout",
    path.join(dir, "key.pem"),
    "-out",
    path.join(dir, "cert.pem"),
    "-days",
    "1",
    "-subj",
    "/CN=localhost",
    "-addext",
    "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ], { stdio: "ignore" });
  const cert = fs.readFileSync(path.join(dir, "cert.pem"), "utf8");
  const server = https.createServer({ key: fs.readFileSync(path.join(dir, "key.pem")), cert }, handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { server, port: (server.address() as net.AddressInfo).port, cert, dir };
}
