/**
 * OS-level isolation for commands: a bubblewrap sandbox (Linux), a shell
 * provider that runs every command inside it, an allowlisting egress proxy
 * and a credential broker that keeps secrets on the host.
 *
 * @example A sandboxed shell tool whose only way out is a credential broker
 * ```ts
 * import { BubblewrapSandbox, createCredentialBroker, SandboxShell } from "@paddock/tools/sandbox";
 * const broker = await createCredentialBroker({
 *   rules: { "api.github.com": { Authorization: `Bearer ${Deno.env.get("GITHUB_TOKEN")}` } },
 *   allow: ["registry.npmjs.org"],
 * });
 * const sandbox = new BubblewrapSandbox({ network: { proxy: broker } });
 * await sandbox.check(); // SANDBOX_UNAVAILABLE when bwrap cannot run here
 * const shell = new SandboxShell(sandbox, { cwd: "/work/project" });
 * ```
 *
 * @module
 */
export type { Sandbox, SandboxedCommand, SandboxWrapRequest } from "./src/core/command_sandbox.ts";
export {
  BubblewrapSandbox,
  SANDBOX_ETC_ENTRIES,
  SANDBOX_HOME,
  SANDBOX_SYSTEM_PATHS,
} from "./src/sandbox/bubblewrap_sandbox.ts";
export type { BubblewrapSandboxOptions, SandboxNetwork } from "./src/sandbox/bubblewrap_sandbox.ts";
export { SandboxShell } from "./src/sandbox/sandbox_shell.ts";
export type { SandboxShellOptions } from "./src/sandbox/sandbox_shell.ts";
export { BROKER_PATH_PREFIX, createEgressProxy, EgressProxy } from "./src/sandbox/egress_proxy.ts";
export type {
  EgressEndpoint,
  EgressLogEntry,
  EgressProxyOptions,
  HeaderRules,
  HeaderValue,
  ListenTarget,
  ProxyListener,
} from "./src/sandbox/egress_proxy.ts";
export { createCredentialBroker, proxyEnvironment } from "./src/sandbox/credential_broker.ts";
export type { CredentialBroker, CredentialBrokerOptions } from "./src/sandbox/credential_broker.ts";
export { isPrivateAddress } from "./src/sandbox/address_policy.ts";
export { HostPatternList } from "./src/sandbox/host_pattern.ts";
export { SANDBOX_PROXY_PORT } from "./src/sandbox/proxy_forwarder.ts";
