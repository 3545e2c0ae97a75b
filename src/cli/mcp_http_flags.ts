import * as fs from "node:fs";
import process from "node:process";
import type { HttpAuth } from "../mcp/http_auth.ts";
import { MCP_HTTP_MIN_TOKEN_CHARS } from "../core/limits.ts";
import { UsageError } from "./usage_error.ts";

/** The flags of `paddock mcp --http` (beside the stdio server's). */
export const HTTP_FLAGS = {
  http: { value: true },
  "allow-remote": { value: false },
  "token-file": { value: true },
  "oauth-issuer": { value: true },
  "oauth-audience": { value: true },
  "oauth-jwks": { value: true },
  "insecure-no-auth": { value: false },
  "root-per-session": { value: true },
  keep: { value: false },
  "allowed-host": { value: true, repeat: true },
  "allowed-origin": { value: true, repeat: true },
} as const;

/** Where `--http` listens. */
export interface HttpAddress {
  /** The address (brackets taken off an IPv6 one). */
  host: string;
  /** The port (0: any free one). */
  port: number;
}

/**
 * Parses `--http`'s value: `PORT`, `HOST:PORT` or `[IPV6]:PORT`; the host defaults to 127.0.0.1.
 *
 * @param value The flag's value.
 * @returns The address.
 * @throws {UsageError} For anything else.
 */
export function parseHttpAddress(value: string): HttpAddress {
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value);
  const port = match === null ? NaN : Number(match[2]);
  if (match === null || !(port >= 0 && port <= 65_535)) {
    throw new UsageError(`bad value '${value}' for --http: expected HOST:PORT or PORT (e.g. 127.0.0.1:8080)`);
  }
  return { host: (match[1] ?? "127.0.0.1").replace(/^\[|\]$/g, ""), port };
}

/**
 * How requests authenticate, from the flags and the environment: `--oauth-issuer` with `--oauth-audience`;
 * else the token of `--token-file FILE` or `PADDOCK_MCP_TOKEN` (surrounding whitespace taken off); else
 * `--insecure-no-auth`. One of them is required.
 *
 * @param flags The parsed flags.
 * @param env The environment. @default process.env
 * @returns The authentication.
 * @throws {UsageError} For none, a mix, a missing half of OAuth, an unreadable or short token.
 */
export function httpAuthOf(
  flags: Map<string, string[]>,
  env: Record<string, string | undefined> = process.env,
): HttpAuth {
  const issuer = flags.get("oauth-issuer")?.[0];
  const audience = flags.get("oauth-audience")?.[0];
  const jwks = flags.get("oauth-jwks")?.[0];
  const tokenFile = flags.get("token-file")?.[0];
  const envToken = env.PADDOCK_MCP_TOKEN;
  const none = flags.has("insecure-no-auth");
  const chosen = [issuer !== undefined || audience !== undefined, tokenFile !== undefined, none].filter(Boolean);
  if (chosen.length > 1) {
    throw new UsageError("choose one of --token-file, --oauth-issuer/--oauth-audience and --insecure-no-auth");
  }
  if (issuer !== undefined || audience !== undefined) {
    if (issuer === undefined || audience === undefined) {
      throw new UsageError("--oauth-issuer and --oauth-audience go together");
    }
    for (const [flag, url] of [["oauth-issuer", issuer], ["oauth-jwks", jwks]] as const) {
      if (url !== undefined && !URL.canParse(url)) throw new UsageError(`--${flag} '${url}' is not a URL`);
    }
    return { kind: "oauth", issuer, audience, ...(jwks === undefined ? {} : { jwksUrl: jwks }) };
  }
  if (none) return { kind: "none" };
  let token: string;
  if (tokenFile !== undefined) {
    try {
      token = fs.readFileSync(tokenFile, "utf8").trim();
    } catch (error) {
      throw new UsageError(`--token-file '${tokenFile}' cannot be read (${(error as { code?: string }).code})`);
    }
  } else if (envToken !== undefined) token = envToken.trim();
  else {
    throw new UsageError(
      "--http needs a bearer token: --token-file FILE or PADDOCK_MCP_TOKEN (or --oauth-issuer with --oauth-audience)",
    );
  }
  if (token.length < MCP_HTTP_MIN_TOKEN_CHARS || !/^[A-Za-z0-9\-._~+/]+=*$/.test(token)) {
    throw new UsageError(
      `the bearer token must be at least ${MCP_HTTP_MIN_TOKEN_CHARS} characters of A-Z a-z 0-9 - . _ ~ + / ` +
        "(e.g. openssl rand -hex 32)",
    );
  }
  return { kind: "token", token };
}
