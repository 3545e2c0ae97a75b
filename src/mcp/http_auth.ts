/**
 * Who may call `paddock mcp --http`: a bearer token on every request, either
 * one shared secret (compared in constant time) or an OAuth 2.1 access token
 * (a JWT verified against the issuer's keys, its issuer and audience).
 *
 * @module
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createRemoteJWKSet, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { MCP_HTTP_MIN_TOKEN_CHARS } from "../core/limits.ts";

/** How requests prove who sends them. */
export type HttpAuth =
  | {
    /** One shared secret, sent as `Authorization: Bearer TOKEN`. */
    kind: "token";
    /** The token; at least {@link MCP_HTTP_MIN_TOKEN_CHARS} characters. */
    token: string;
  }
  | {
    /** OAuth 2.1 access tokens (JWTs) of one issuer, for one audience (RFC 9068). */
    kind: "oauth";
    /** The authorization server's issuer URL (the JWT's `iss`). */
    issuer: string;
    /** This server's audience (the JWT's `aud`), also its resource identifier in the RFC 9728 metadata. */
    audience: string;
    /** The issuer's key set. @default the `jwks_uri` of the issuer's RFC 8414 (or OpenID) metadata */
    jwksUrl?: string;
  }
  | {
    /** No token at all: only on a loopback address (`--insecure-no-auth`, for the conformance suite). */
    kind: "none";
  };

/** What checking one request's `Authorization` header found. */
export type AuthOutcome =
  | { ok: true; principal: string }
  | { ok: false; error: "missing" | "invalid_token"; description: string };

/** Checks the `Authorization` header of one request. */
export type Authenticator = (header: string | undefined) => Promise<AuthOutcome>;

/**
 * The check for `auth`.
 *
 * @param auth How requests authenticate.
 * @returns The check; each request's principal is `"token"` for the shared token, the JWT's `sub` for OAuth (a token without one is refused).
 * @throws {Error} For a shared token shorter than {@link MCP_HTTP_MIN_TOKEN_CHARS}.
 *
 * @example A shared token
 * ```ts
 * const check = createAuthenticator({ kind: "token", token: "x".repeat(32) });
 * (await check("Bearer " + "x".repeat(32))).ok; // true
 * ```
 */
export function createAuthenticator(auth: HttpAuth): Authenticator {
  if (auth.kind === "none") return () => Promise.resolve({ ok: true, principal: "anyone" });
  if (auth.kind === "token") return tokenAuthenticator(auth.token);
  return jwtAuthenticator(auth);
}

/**
 * The `WWW-Authenticate` header of a 401 (RFC 6750, with RFC 9728's
 * `resource_metadata` when OAuth is on).
 *
 * @param outcome The failed check.
 * @param resourceMetadata The protected-resource metadata's URL, for OAuth. @default undefined
 * @returns The header's value.
 */
export function wwwAuthenticate(outcome: AuthOutcome & { ok: false }, resourceMetadata?: string): string {
  const parts = ['Bearer realm="paddock"'];
  if (resourceMetadata !== undefined) parts.push(`resource_metadata="${resourceMetadata}"`);
  if (outcome.error === "invalid_token") {
    parts.push('error="invalid_token"', `error_description="${outcome.description.replaceAll('"', "'")}"`);
  }
  return parts.join(", ");
}

// The token after `Bearer ` (the scheme in any case, RFC 7235), or undefined.
function bearerOf(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match === null ? undefined : match[1];
}

const MISSING: AuthOutcome = { ok: false, error: "missing", description: "no bearer token" };

function tokenAuthenticator(token: string): Authenticator {
  if (token.length < MCP_HTTP_MIN_TOKEN_CHARS) {
    throw new Error(`the bearer token has ${token.length} characters; it needs ${MCP_HTTP_MIN_TOKEN_CHARS} at least`);
  }
  // Both sides hashed first: equal lengths for timingSafeEqual, and no early exit on the token's length.
  const expected = createHash("sha256").update(token).digest();
  return (header) => {
    const given = bearerOf(header);
    if (given === undefined) return Promise.resolve(header === undefined ? MISSING : invalid("not a bearer token"));
    const same = timingSafeEqual(createHash("sha256").update(given).digest(), expected);
    return Promise.resolve(same ? { ok: true, principal: "token" } : invalid("the token is not this server's"));
  };
}

function jwtAuthenticator(auth: { issuer: string; audience: string; jwksUrl?: string }): Authenticator {
  let keys: Promise<JWTVerifyGetKey> | undefined;
  const keySet = (): Promise<JWTVerifyGetKey> => {
    keys ??= discoverJwks(auth.issuer, auth.jwksUrl).then((url) => createRemoteJWKSet(new URL(url)));
    // A failed discovery is tried again on the next request rather than remembered.
    keys.catch(() => (keys = undefined));
    return keys;
  };
  return async (header) => {
    const given = bearerOf(header);
    if (given === undefined) return header === undefined ? MISSING : invalid("not a bearer token");
    try {
      const { payload } = await jwtVerify(given, await keySet(), {
        issuer: auth.issuer,
        audience: auth.audience,
        algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
        requiredClaims: ["exp", "sub"],
      });
      // A session belongs to its token's subject: a token naming none would share one with every other such token.
      if (typeof payload.sub !== "string" || payload.sub === "") {
        return invalid("the token's 'sub' claim is not accepted");
      }
      return { ok: true, principal: `sub:${payload.sub}` };
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) return invalid(joseReason(error));
      return invalid("the issuer's keys cannot be fetched");
    }
  };
}

function invalid(description: string): AuthOutcome {
  return { ok: false, error: "invalid_token", description };
}

function joseReason(error: InstanceType<typeof joseErrors.JOSEError>): string {
  if (error instanceof joseErrors.JWTExpired) return "the token has expired";
  if (error instanceof joseErrors.JWTClaimValidationFailed) return `the token's '${error.claim}' claim is not accepted`;
  if (error instanceof joseErrors.JWKSNoMatchingKey) return "no key of the issuer signed the token";
  return "the token cannot be verified";
}

// The issuer's `jwks_uri`: given, or from its RFC 8414 metadata, else its OpenID configuration.
async function discoverJwks(issuer: string, jwksUrl: string | undefined): Promise<string> {
  if (jwksUrl !== undefined) return jwksUrl;
  const base = issuer.replace(/\/+$/, "");
  const origin = new URL(base);
  const tail = origin.pathname === "/" ? "" : origin.pathname;
  const candidates = [
    `${origin.origin}/.well-known/oauth-authorization-server${tail}`,
    `${base}/.well-known/openid-configuration`,
  ];
  for (const url of candidates) {
    const response = await fetch(url, { headers: { accept: "application/json" }, redirect: "error" }).catch(() =>
      undefined
    );
    if (response === undefined || !response.ok) continue;
    const body = await response.json().catch(() => undefined) as { jwks_uri?: unknown; issuer?: unknown } | undefined;
    if (typeof body?.jwks_uri === "string" && body.issuer === issuer) return body.jwks_uri;
  }
  throw new Error(`no jwks_uri in the metadata of issuer ${issuer}`);
}
