/**
 * OS-level isolation for commands: a bubblewrap sandbox (Linux), a container
 * sandbox (`SubprocessSandbox`, a Docker Engine on this machine), a shell
 * provider that runs every command inside either, an allowlisting egress
 * proxy and a credential broker that keeps secrets on the host.
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
 * @example The same shell, each command in a fresh container
 * ```ts
 * import { SandboxShell, SubprocessSandbox } from "@paddock/tools/sandbox";
 * const sandbox = new SubprocessSandbox({ image: "paddock/sandbox-node:local", network: { allow: ["registry.npmjs.org"] } });
 * const shell = new SandboxShell(sandbox, { cwd: "/work/project" });
 * await sandbox.close(); // removes its containers and network
 * ```
 *
 * @module
 */
export type { Sandbox, SandboxedCommand, SandboxWrapRequest } from "./src/core/process/command_sandbox.ts";
export { BubblewrapSandbox } from "./src/sandbox/bubblewrap_sandbox.ts";
export { SANDBOX_ETC_ENTRIES, SANDBOX_HOME, SANDBOX_SYSTEM_PATHS } from "./src/sandbox/sandbox_paths.ts";
export type { BubblewrapSandboxOptions, SandboxNetwork } from "./src/sandbox/bubblewrap_sandbox_options.ts";
export { SandboxShell } from "./src/sandbox/sandbox_shell.ts";
export type { SandboxShellOptions } from "./src/sandbox/sandbox_shell.ts";
export { BROKER_PATH_PREFIX } from "./src/sandbox/broker_path_prefix.ts";
export { createEgressProxy, EgressProxy } from "./src/sandbox/egress_proxy.ts";
export type {
  EgressLogEntry,
  EgressProxyOptions,
  HeaderRules,
  HeaderValue,
} from "./src/sandbox/egress_proxy_options.ts";
export type { EgressEndpoint, ListenTarget, ProxyListener, TcpListenTarget } from "./src/sandbox/egress_endpoint.ts";
export { createCredentialBroker, proxyEnvironment } from "./src/sandbox/credential_broker.ts";
export type { CredentialBroker, CredentialBrokerOptions } from "./src/sandbox/credential_broker.ts";
export { isPrivateAddress } from "./src/sandbox/address_policy.ts";
export { HostPatternList } from "./src/sandbox/host_pattern.ts";
export { SANDBOX_PROXY_PORT } from "./src/sandbox/proxy_forwarder.ts";
export { SubprocessSandbox } from "./src/sandbox/subprocess_sandbox.ts";
export {
  CONTAINER_FALLBACK_USER,
  CONTAINER_IDLE_TIMEOUT_MS,
  CONTAINER_LABEL,
  CONTAINER_LIMITS,
  CONTAINER_PATH,
  CONTAINER_WORKSPACE,
} from "./src/sandbox/container_spec.ts";
export type { ContainerNetwork, SubprocessSandboxOptions } from "./src/sandbox/subprocess_sandbox_options.ts";
export { MIN_ENGINE_VERSION, parseEngineVersion } from "./src/sandbox/docker_engine.ts";
