/**
 * `createCredentialBroker` for the package root, loaded on first call: the
 * broker needs `node:http`, `node:net` and `node:dns` (on Node, Deno and
 * Bun alike), and importing `@paddock/tools` must not load them.
 *
 * @module
 */
import type { CredentialBroker, CredentialBrokerOptions } from "../sandbox/credential_broker.ts";

/**
 * Starts a credential broker on an ephemeral `127.0.0.1` port; the same as
 * `createCredentialBroker` from `@paddock/tools/sandbox`, whose module is
 * loaded on the first call.
 *
 * @param options Rules, allowlist, private-address exceptions, upstream trust and logging.
 * @returns The running broker.
 * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a malformed host pattern.
 *
 * @example
 * ```ts
 * import { createCredentialBroker, NodeWorkspace } from "@paddock/tools";
 * declare const token: string;
 * const broker = await createCredentialBroker({ rules: { "api.github.com": { authorization: () => `Bearer ${token}` } } });
 * const workspace = new NodeWorkspace({ root: "./project", env: { ...broker.env } });
 * await workspace.exec(`curl -s ${broker.baseUrl("api.github.com")}/user`);
 * await broker.close();
 * ```
 */
export async function createCredentialBroker(options: CredentialBrokerOptions = {}): Promise<CredentialBroker> {
  const { createCredentialBroker: start } = await import("../sandbox/credential_broker.ts");
  return await start(options);
}
