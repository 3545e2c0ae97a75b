/**
 * The options of the bubblewrap sandbox: its network, extra read-only paths,
 * and where bwrap and the runtime are.
 *
 * @module
 */
import type { Host } from "../host.ts";
import type { EgressEndpoint } from "./egress_endpoint.ts";

/**
 * The sandbox's network: `"none"` (loopback only), or an allowlist served by
 * an egress proxy on the host, reached through a Unix socket bound into the
 * sandbox. Give `allow` (and `allowPrivate`) for a proxy the sandbox owns, or
 * `proxy` for one you run yourself (a credential broker); not both.
 */
export type SandboxNetwork =
  | "none"
  | { allow: readonly string[]; allowPrivate?: readonly string[]; proxy?: undefined }
  | { proxy: EgressEndpoint; allow?: undefined; allowPrivate?: undefined };

/** Options of `BubblewrapSandbox`. */
export interface BubblewrapSandboxOptions {
  /** The `bwrap` executable. @default the first `bwrap` on `PATH` */
  bwrapPath?: string;
  /** Network access. @default "none" */
  network?: SandboxNetwork;
  /** More host paths visible read-only at their own paths (e.g. a toolchain under `/opt`). @default [] */
  readOnly?: readonly string[];
  /** The runtime executable made visible read-only. @default the running runtime's (`process.execPath`) */
  runtimePath?: string;
  /** The host that runs the probe. @default the running runtime's host */
  host?: Host;
}
