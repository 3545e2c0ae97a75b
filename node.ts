/**
 * The Node.js host (`@paddock/tools/node`), for callers who pick a host
 * explicitly; the root entry picks it by itself on Node and Bun.
 *
 * @example A workspace on the Node host
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { createNodeHost } from "@paddock/tools/node";
 * const workspace = await openWorkspace("./project", { host: createNodeHost() });
 * ```
 *
 * @module
 */
export { createNodeHost } from "./src/hosts/node.ts";
export type { NodeHostOptions } from "./src/hosts/node.ts";
