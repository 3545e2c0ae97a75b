// Who a bubblewrap command runs as. bwrap keeps the caller's uid: a non-root
// caller writes the workspace inside exactly as it does outside. A root caller
// has no capability inside (`--cap-drop ALL`), so it could not write a
// workspace that belongs to another user; then bwrap itself is started as the
// workspace's owner (`setpriv`, as dev containers run as the folder's owner),
// and files the command makes belong to that owner.
import * as fs from "node:fs";
import type { Host } from "../host.ts";
import { findOnPath, isExecutableFile, reasonOf, run } from "./_bwrap_probe.ts";
import { unavailable } from "./_sandbox_unavailable.ts";

/** A user to start bwrap as. */
export interface OwnerIds {
  uid: number;
  gid: number;
}

/**
 * The owner of the writable folder holding `cwd` when the caller is root and
 * that folder belongs to another user; otherwise `undefined` (bwrap runs as
 * the caller).
 */
export function workspaceOwner(writable: readonly string[], cwd: string): OwnerIds | undefined {
  let uid: number | undefined;
  try {
    uid = process.getuid?.();
  } catch {
    return undefined; // Deno without --allow-sys: the caller is unknown, run as it is
  }
  if (uid !== 0) return undefined;
  const folder = writable.find((dir) => cwd === dir || cwd.startsWith(`${dir.replace(/\/+$/, "")}/`)) ?? writable[0];
  if (folder === undefined) return undefined;
  try {
    const stat = fs.statSync(folder);
    return stat.uid === 0 ? undefined : { uid: stat.uid, gid: stat.gid };
  } catch {
    return undefined;
  }
}

/**
 * The `setpriv` command line that starts the rest as `owner` (no supplementary group; dropping root's uid
 * clears every capability), once a sandbox started that way worked here.
 *
 * @param host The host that runs the probe.
 * @param launcher The shell that opens the seccomp program, put before setpriv (the caller opens it).
 * @param bwrap bwrap and its base arguments.
 * @param owner The workspace's owner.
 * @returns The prefix for bwrap's command line.
 * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` without setpriv, or when bwrap cannot run as that user.
 */
export async function probeAsOwner(
  host: Host,
  launcher: readonly string[],
  bwrap: string[],
  owner: OwnerIds,
): Promise<string[]> {
  const setpriv = findOnPath("setpriv");
  if (setpriv === undefined || !isExecutableFile(setpriv)) {
    throw unavailable(
      "the workspace belongs to another user and setpriv was not found to start the sandbox as that user",
      "install setpriv (Debian and Ubuntu: util-linux), or run the agent as the workspace's owner",
    );
  }
  const prefix = [setpriv, "--reuid", String(owner.uid), "--regid", String(owner.gid), "--clear-groups", "--"];
  const result = await run(host, [...launcher, ...prefix, ...bwrap, "--", "/bin/sh", "-c", ":"]).catch(() => null);
  if (result === null || result.code !== 0) {
    throw unavailable(
      `bwrap cannot create the sandbox as the workspace's owner (${reasonOf(result?.stderr ?? "")})`,
      "unprivileged user namespaces may be blocked for that user, or the runtime's executable is not readable by it",
    );
  }
  return prefix;
}
