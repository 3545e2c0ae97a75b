import { type HttpLimits, type PaddockHttpServer, serveHttp, type ServeHttpOptions } from "../../src/mcp/mod.ts";
import { type DiskFixture, diskFixture } from "./fixture.ts";

/**
 * Runs `run` against serveHttp in-process over a fresh empty disk fixture: `options(dir)` says how the
 * fixture is served; the server is closed and the fixture removed after `run`, whatever it did.
 *
 * @example await withServedFolder((dir) => perSessionOptions(dir, TOKEN, {}), async (server, dir) => {…});
 */
export async function withServedFolder(
  options: (dir: DiskFixture) => ServeHttpOptions,
  run: (server: PaddockHttpServer, dir: DiskFixture) => Promise<void>,
): Promise<void> {
  const dir = await diskFixture([]);
  const server = await serveHttp(options(dir));
  try {
    await run(server, dir);
  } finally {
    await server.close();
    dir.cleanup();
  }
}

/**
 * The options of a read-only server with one new folder per session under `dir`'s root (removed at its end),
 * token `token`, and `limits`.
 *
 * @example perSessionOptions(dir, TOKEN, { maxSessions: 1 })
 */
export function perSessionOptions(dir: DiskFixture, token: string, limits: Partial<HttpLimits>): ServeHttpOptions {
  return {
    roots: [],
    rootPerSession: { dir: dir.root, keep: false },
    server: { readOnly: true },
    auth: { kind: "token", token },
    limits,
  };
}
