/**
 * The host seam (`@paddock/tools/host`): the primitive, handle-based
 * operations a runtime provides to Paddock's core, the shell seam for remote
 * boxes, and the building blocks for custom hosts and custom tools (the
 * confined atomic write, the default-host registration). Applications that
 * only use the tools need none of it; pick a bundled host with
 * `@paddock/tools/node` or `@paddock/tools/deno`.
 *
 * @example Opening a workspace on an explicit host
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import type { Host } from "@paddock/tools/host";
 * import { createNodeHost } from "@paddock/tools/node";
 * const host: Host = createNodeHost();
 * const workspace = await openWorkspace("./project", { host });
 * ```
 *
 * @module
 */
export * from "./src/host.ts";
import type { Host } from "./src/host.ts";
/** The host seam under its earlier name; the root's `FsProvider` is the seed documents' small provider interface. */
export type FsProvider = Host;
export * from "./src/shell_provider.ts";
export { registerDefaultHost } from "./src/core/fs/default_host.ts";
export { registerCallScope } from "./src/core/fs/call_scope.ts";
export type { CallScope } from "./src/core/fs/call_scope.ts";
export { createHostShellProvider } from "./src/core/process/host_shell_provider.ts";
export type { HostShellProviderOptions } from "./src/core/process/host_shell_provider.ts";
export { atomicWrite, TEMP_FILE_PREFIX } from "./src/core/fs/atomic_write.ts";
export type { AtomicWriteOptions, AtomicWriteResult } from "./src/core/fs/atomic_write.ts";
export type { Protection } from "./src/core/fs/protected_paths.ts";
export type { Folder, Identity, Resolved, ResolveOptions } from "./src/core/fs/workspace.ts";
