/**
 * Picks the host for the running runtime: Deno's on Deno, Node's on Node and
 * Bun.
 *
 * @module
 */
import type { Host } from "../host.ts";
import { createDenoHost } from "./deno.ts";
import { createNodeHost } from "./node.ts";

/** Creates the host for the runtime this code runs on. */
export function createAutoHost(): Host {
  return typeof (globalThis as { Deno?: unknown }).Deno === "object" ? createDenoHost() : createNodeHost();
}
