import type { Server } from "@modelcontextprotocol/sdk/server";
import { RootsListChangedNotificationSchema } from "./protocol_types.ts";
import { fileUriPath, type RootSet } from "./root_set.ts";

/**
 * Narrows the served roots to the client's `roots/list` (for a client that
 * has roots), at the start of the session and whenever the client says they
 * changed. A listing that fails or names no `file:` folder this host can
 * resolve serves nothing it did not before: a failed listing keeps the
 * current set, and a root URI that is no folder here narrows to nothing.
 * The caller runs `refresh` once the client's handshake is done (the
 * server's own `notifications/initialized` handler, so that the SDK's
 * `oninitialized` stays free for the server's user).
 */
export function followClientRoots(server: Server, roots: RootSet): { refresh(): void; settled(): Promise<void> } {
  let pending: Promise<void> = Promise.resolve();
  const host = roots.defaultRoot.workspace.host;
  const refresh = (): void => {
    pending = pending.then(async () => {
      if (server.getClientCapabilities()?.roots === undefined) return;
      let listed: { uri: string }[];
      try {
        listed = (await server.listRoots()).roots;
      } catch {
        return; // no answer: the set stays as it was (never wider than configured)
      }
      // A client that lists no roots at all names no folder: the configured set stands.
      if (listed.length === 0) return roots.narrow(undefined);
      const folders: string[] = [];
      for (const root of listed) {
        const path = fileUriPath(root.uri);
        // Compared canonically, as the configured roots are; a folder that cannot be resolved allows nothing.
        const canonical = path === undefined ? undefined : await host.realpath(path).catch(() => undefined);
        if (canonical !== undefined) folders.push(canonical);
      }
      roots.narrow(folders);
    });
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, refresh);
  return { refresh, settled: () => pending };
}
