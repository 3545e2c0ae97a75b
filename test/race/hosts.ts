/**
 * The hosts the race and single-swap tests run against, for the runtime that
 * runs them: the one place that names host factories, so a change of the host
 * API is a change here only.
 *
 * - Node: the Node host, and the host `paddock mcp` uses (synchronous file calls).
 * - Deno: the Deno host (run with `deno run -A`: the `/proc/self/fd` route needs all permissions).
 * - Bun: the Node host (which Bun runs), and the `paddock mcp` host.
 * - Every runtime: the memory host, swapped through its own API between host calls.
 *
 * @module
 */
import type { Host } from "../../host.ts";
import { createDenoHost } from "../../src/hosts/deno.ts";
import { createNodeHost } from "../../src/hosts/node.ts";
import { createMemoryHost, type MemoryHost } from "../../testing.ts";
import { runtime } from "../helpers/runtime.ts";

/** The host `paddock mcp` uses on Node and Bun. */
const createMcpHost = (): Host => createNodeHost({ syncFileCalls: true });

/** A real-disk host under test. */
export interface DiskHostUnderTest {
  kind: "disk";
  /** Its name in reports: `node`, `node-mcp`, `deno`, `bun`, `bun-mcp`; `…-paths` for the fallback. */
  name: string;
  /** A fresh host. */
  create(): Host;
  /** `"paths"`: the workspace walks host paths (the fallback) instead of held handles. @default the probe's choice */
  confinement?: "paths";
}

/** The memory host under test: no second process can touch its tree, so swaps go through its own API. */
export interface MemoryHostUnderTest {
  kind: "memory";
  name: "memory" | "memory-paths";
  /** `"paths"`: the workspace walks host paths (the fallback) instead of held handles. @default handles */
  confinement?: "paths";
  /** A fresh, empty memory host. */
  create(): MemoryHost;
  /**
   * Exchanges two names synchronously, as one step as far as any caller of
   * the host can tell (nothing runs between the three renames).
   */
  exchange(host: MemoryHost, a: string, b: string): void;
}

/** A host the adversary runs against. */
export type HostUnderTest = DiskHostUnderTest | MemoryHostUnderTest;

/**
 * Exchanges `a` and `b` in a memory host with three renames through a spare
 * name. The memory host's `rename` acts when called (its promise only
 * reports the result), so the exchange is done when this returns; it is
 * checked with `lstatSync`, and a failure throws.
 */
function exchangeInMemory(host: MemoryHost, a: string, b: string): void {
  const before = [host.lstatSync(a).ino, host.lstatSync(b).ino];
  const spare = `${b}.paddock-race-spare`;
  for (const [from, to] of [[a, spare], [b, a], [spare, b]]) {
    host.rename(from, to).catch(() => {});
  }
  const after = [host.lstatSync(a).ino, host.lstatSync(b).ino];
  if (after[0] !== before[1] || after[1] !== before[0]) {
    throw new Error(`Cannot exchange ${a} and ${b} in the memory host: its rename did not act synchronously`);
  }
}

const MEMORY: MemoryHostUnderTest = {
  kind: "memory",
  name: "memory",
  create: () => createMemoryHost(),
  exchange: exchangeInMemory,
};

/**
 * The hosts under test on the running runtime.
 *
 * @param options `memory: false` leaves the memory host out (the race script runs it once, under Node);
 * `fallback: true` adds each host again on the `paths` route (the fallback), named `…-paths`.
 */
export function hostsUnderTest(options: { memory?: boolean; fallback?: boolean } = {}): HostUnderTest[] {
  const disk: DiskHostUnderTest[] = runtime === "deno"
    ? [{ kind: "disk", name: "deno", create: createDenoHost }]
    : runtime === "bun"
    ? [
      { kind: "disk", name: "bun", create: createNodeHost },
      { kind: "disk", name: "bun-mcp", create: createMcpHost },
    ]
    : [
      { kind: "disk", name: "node", create: createNodeHost },
      { kind: "disk", name: "node-mcp", create: createMcpHost },
    ];
  const hosts: HostUnderTest[] = options.memory === false ? disk : [...disk, MEMORY];
  if (options.fallback !== true) return hosts;
  const fallback = hosts.filter((host) => !host.name.endsWith("-mcp")).map((host): HostUnderTest =>
    host.kind === "memory"
      ? { ...host, name: "memory-paths", confinement: "paths" }
      : { ...host, name: `${host.name}-paths`, confinement: "paths" }
  );
  return [...hosts, ...fallback];
}
