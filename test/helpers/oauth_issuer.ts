import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair } from "jose";

/** A local OAuth authorization server: its RFC 8414 metadata and its key set, on loopback. */
export interface OAuthIssuer {
  /** Its issuer URL (`http://127.0.0.1:PORT`). */
  url: string;
  /** The signing keys (key id `k1`, ES256). */
  keys: Awaited<ReturnType<typeof generateKeyPair>>;
  /** Stops it. */
  close(): Promise<void>;
}

/**
 * Starts an issuer whose metadata names `/jwks`, serving one ES256 public key (`kid` k1).
 *
 * @example const issuer = await startOAuthIssuer(); … await issuer.close();
 */
export async function startOAuthIssuer(): Promise<OAuthIssuer> {
  const keys = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  let url = "";
  const server = http.createServer((request, response) => {
    response.setHeader("Content-Type", "application/json");
    if (request.url === "/.well-known/oauth-authorization-server") {
      response.end(JSON.stringify({ issuer: url, jwks_uri: `${url}/jwks` }));
    } else if (request.url === "/jwks") response.end(JSON.stringify({ keys: [jwk] }));
    else response.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, keys, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
