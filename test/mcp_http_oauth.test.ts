// `paddock mcp --http --oauth-issuer URL --oauth-audience AUD`: JWT access tokens verified against the issuer's
// keys (found through its RFC 8414 metadata, served here on loopback), and the RFC 9728 metadata served.
import { randomUUID } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type DiskFixture, diskFixture } from "./helpers/fixture.ts";
import { callJson, httpClient, type HttpServerProcess, raw, startHttpServer } from "./helpers/http_server.ts";
import { INITIALIZE, JSON_HEADERS, writeFileCall } from "./helpers/mcp_raw.ts";
import { SERVER_RUNTIMES } from "./helpers/paddock_command.ts";
import { runtime } from "./helpers/runtime.ts";
import { type OAuthIssuer, startOAuthIssuer } from "./helpers/oauth_issuer.ts";

const AUDIENCE = "https://paddock.test/mcp";
const writeCall = (file: string): string => writeFileCall(randomUUID(), file, "ran\n");

type Keys = Awaited<ReturnType<typeof generateKeyPair>>;
let issuerKeys: Keys;
let otherKeys: Keys;
let issuer: string;
let authorization: OAuthIssuer;

beforeAll(async () => {
  authorization = await startOAuthIssuer();
  issuerKeys = authorization.keys;
  issuer = authorization.url;
  otherKeys = await generateKeyPair("ES256");
});
afterAll(() => authorization.close());

/** An access token: `claims` over the defaults (this issuer and audience, `sub` alice, an hour to live). */
function token(claims: Record<string, unknown> = {}, keys: Keys = issuerKeys, kid = "k1"): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const body = { iss: issuer, aud: AUDIENCE, sub: "alice", iat: now, exp: now + 3600, ...claims };
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) delete (body as Record<string, unknown>)[key];
  }
  return new SignJWT(body).setProtectedHeader({ alg: "ES256", kid }).sign(keys.privateKey);
}

describe.each(SERVER_RUNTIMES)("paddock mcp --http with OAuth under %s", (serverRuntime) => {
  let fixture: DiskFixture;
  let server: HttpServerProcess;
  beforeAll(async () => {
    fixture = await diskFixture([]);
    server = await startHttpServer(serverRuntime, [
      "--root",
      fixture.root,
      "--oauth-issuer",
      issuer,
      "--oauth-audience",
      AUDIENCE,
    ]);
  });
  afterAll(async () => {
    // (Under Deno's test runner the SIGTERM kills the server instead: mcp_http.test.ts checks the orderly stop.)
    const code = await server?.stop();
    if (runtime !== "deno") expect(code).toBe(0);
    await fixture?.cleanup();
  });

  test("an expired, wrong-audience, wrong-issuer, foreign-signed, unsigned or exp-less token is answered 401, and runs nothing", async () => {
    const now = Math.floor(Date.now() / 1000);
    const unsigned =
      (await token()).split(".").slice(0, 2).join(".").replace(/^[^.]+/, btoa('{"alg":"none"}').replace(/=+$/, "")) +
      ".";
    const refused: [string, string][] = [
      ["expired", await token({ exp: now - 60, iat: now - 3600 })],
      ["wrong audience", await token({ aud: "https://other.test/mcp" })],
      ["wrong issuer", await token({ iss: "https://other-issuer.test" })],
      ["another key", await token({}, otherKeys)],
      ["another key, unknown kid", await token({}, otherKeys, "k2")],
      ["alg none", unsigned],
      ["no exp", await token({ exp: undefined })],
      ["no sub", await token({ sub: undefined })],
      ["an empty sub", await token({ sub: "" })],
      ["not a JWT", "a".repeat(40)],
    ];
    // A session opened with a good token; each bad token's call in it is refused before it runs.
    const good = await httpClient(server.url, await token());
    try {
      for (const [why, bad] of refused) {
        for (const body of [INITIALIZE, writeCall(`${why.replaceAll(" ", "-")}.txt`)]) {
          const answer = await raw(server.url, {
            headers: { ...JSON_HEADERS, authorization: `Bearer ${bad}`, "mcp-session-id": good.transport.sessionId! },
            body,
          });
          expect(answer.status, why).toBe(401);
          expect(answer.headers["www-authenticate"], why).toContain('error="invalid_token"');
          expect(answer.headers["www-authenticate"], why).toContain(
            `resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", server.url).href}"`,
          );
        }
      }
      expect(fs.readdirSync(fixture.root)).toEqual([]);
      const expired = await raw(server.url, {
        headers: { ...JSON_HEADERS, authorization: `Bearer ${refused[0][1]}` },
        body: INITIALIZE,
      });
      expect(expired.headers["www-authenticate"]).toContain("expired");
      // The good token's call runs.
      expect(await callJson(good.client, "write_file", { path: "good.txt", content: "ok" })).toMatchObject({
        path: "good.txt",
      });
      expect(fs.readdirSync(fixture.root)).toEqual(["good.txt"]);
    } finally {
      await good.transport.terminateSession();
      await good.client.close();
    }
  });

  test("a session is its subject's: another subject's valid token is answered 404 in it", async () => {
    const alice = await httpClient(server.url, await token({ sub: "alice" }));
    try {
      const answer = await raw(server.url, {
        headers: {
          ...JSON_HEADERS,
          authorization: `Bearer ${await token({ sub: "mallory" })}`,
          "mcp-session-id": alice.transport.sessionId!,
        },
        body: writeCall("mallory.txt"),
      });
      expect(answer.status).toBe(404);
      expect(fs.existsSync(path.join(fixture.root, "mallory.txt"))).toBe(false);
    } finally {
      await alice.transport.terminateSession();
      await alice.client.close();
    }
  });

  test("the protected-resource metadata (RFC 9728) names the audience and the issuer, with no token", async () => {
    for (const at of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const answer = await raw(new URL(at, server.url).href, { method: "GET" });
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({
        resource: AUDIENCE,
        authorization_servers: [issuer],
        bearer_methods_supported: ["header"],
      });
    }
  });
});
