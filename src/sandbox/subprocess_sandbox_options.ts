/**
 * The options of the container sandbox: its image, its network, its limits.
 *
 * @module
 */
import type { EgressEndpoint } from "./egress_endpoint.ts";

/** The sandbox's network: `"none"` (loopback only) or an allowlist served through an egress proxy. */
export type ContainerNetwork = "none" | { allow: readonly string[]; allowPrivate?: readonly string[] };

/** Options of `SubprocessSandbox`. */
export interface SubprocessSandboxOptions {
  /** The image (built or loaded locally; the sandbox never pulls). */
  image: string;
  /** Network access. @default "none" */
  network?: ContainerNetwork;
  /**
   * The proxy for `network: { allow }`, e.g. a credential broker: it gets a listener on the network's
   * gateway whose allowlist is its own plus `allow`. @default a proxy of the sandbox's own with `allow` and `allowPrivate`
   */
  broker?: EgressEndpoint;
  /** The internal network to create, or to reuse if it exists and is internal. @default `paddock-egress-<random>` */
  networkName?: string;
  /** One long-lived container per workspace, commands through `exec` (faster; see the README for what it shares). @default false */
  reuse?: boolean;
  /**
   * `uid:gid` inside. @default the caller's uid:gid; for a root caller the workspace folder's owner
   * (`0:0` for a root-owned one, without any capability); `CONTAINER_FALLBACK_USER` when neither is known
   */
  user?: string;
  /** Memory limit in bytes (swap disabled). @default 536870912 */
  memoryBytes?: number;
  /** Processes and threads at most. @default 128 */
  pidsLimit?: number;
  /** CPUs. @default 1 */
  cpus?: number;
  /** Size of the tmpfs `/tmp`, in bytes. @default 67108864 */
  tmpfsBytes?: number;
  /** With `reuse`: milliseconds without a command after which the container ends and the engine removes it. @default 600000 */
  idleTimeoutMs?: number;
  /** Run Docker's init as process 1 (reaps zombies, forwards signals). @default true */
  init?: boolean;
  /** The program in the image that stands in for the host's runtime when a command starts it (`node_process`). @default "node" */
  runtimeCommand?: string;
  /** Labels added to every container and network, e.g. to find them from elsewhere. @default {} */
  labels?: Readonly<Record<string, string>>;
  /** The daemon's socket. @default from `DOCKER_HOST` (`unix://…`), else `/var/run/docker.sock` */
  socketPath?: string;
  /** The runtime that runs the relay. @default the running runtime (`process.execPath`) */
  runtimePath?: string;
}
