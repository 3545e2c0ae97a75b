import type { Host } from "../../host.ts";
import { WorkspaceError } from "../errors.ts";

// The core never imports a host (that would pull runtime APIs into it); the
// package entry point registers the automatic choice here instead.
let factory: (() => Host) | undefined;
let cached: Host | undefined;

/**
 * Sets the function that picks a host when none is passed. Called by the package entry point.
 *
 * @example Making the Node host the default everywhere
 * ```ts
 * import { openWorkspace } from "@paddock/tools";
 * import { registerDefaultHost } from "@paddock/tools/host";
 * import { createNodeHost } from "@paddock/tools/node";
 * registerDefaultHost(createNodeHost);
 * const workspace = await openWorkspace("./project"); // opened on the Node host
 * ```
 */
export function registerDefaultHost(create: () => Host): void {
  factory = create;
  cached = undefined;
}

/** The host used when none is passed: Deno's on Deno, Node's on Node and Bun. */
export function defaultHost(): Host {
  if (cached) return cached;
  if (!factory) {
    throw new WorkspaceError("WORKSPACE_ROOT_INVALID", "Cannot pick a host: pass one in the options", {
      hint: "import from '@paddock/tools' (which picks one) or pass { host }",
    });
  }
  cached = factory();
  return cached;
}
