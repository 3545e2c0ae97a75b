import { type HostFile, type HostStat, isHostError } from "../host.ts";
import { throwIfAborted, WorkspaceError } from "./errors.ts";
import { joinHostPath } from "./host_path.ts";
import { mapHostError } from "./map_host_error.ts";
import { removeOwnFile } from "./remove_own_file.ts";
import { stillAsSeen, stillSame } from "./still_same.ts";
import { withTargetLock } from "./target_lock.ts";
import type { Identity, Resolved, Workspace } from "./workspace.ts";

/** Prefix of the temp files an atomic write creates beside its target. */
export const TEMP_FILE_PREFIX = ".paddock-tmp-";

/** Options of {@link atomicWrite}. */
export interface AtomicWriteOptions {
  /** Aborts the write before the rename; the old target stays. @default undefined (not cancellable) */
  signal?: AbortSignal;
  /** The path as the caller gave it, for error messages. @default the segments joined by "/" */
  display?: string;
  /** Create missing parent folders, one confined step at a time. @default true */
  createParents?: boolean;
  /** Refuse when the target exists. @default false */
  exclusive?: boolean;
  /**
   * Called with the resolved target inside the lock, before the temp file is made; may throw to refuse.
   * @default undefined (no extra check)
   */
  beforeWrite?: (target: Resolved) => Promise<void> | void;
}

/** Random hex for temp names. */
export function randomSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * Replaces (or creates) a file inside the workspace so that readers see the
 * old content or the new content, never a mix, and a failure leaves the old
 * target untouched.
 *
 * @param workspace The workspace.
 * @param segments The normalized path of the target.
 * @param data The new content.
 * @param options Abort signal, display path, parent creation.
 * @returns The resolved target (canonical segments, host path).
 * @throws {WorkspaceError} Refusals and failures, with stable codes.
 */
export async function atomicWrite(
  workspace: Workspace,
  segments: readonly string[],
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<Resolved> {
  const { signal, createParents = true } = options;
  const display = options.display ?? segments.join("/");
  const host = workspace.host;
  const fail = (code: WorkspaceError["code"], detail: string) =>
    new WorkspaceError(code, `Cannot write '${display}': ${detail}`, { path: display });

  // 1. The size was validated before we got here; check abort and the root.
  throwIfAborted(signal);
  await workspace.checkRoot();

  // 2. Resolve the target confined, creating missing folders one step at a time.
  //    A link to a file inside is followed (the link stays); a dangling link or
  //    one leading out is refused by the walk.
  const target = await workspace.resolve(segments, {
    allowMissing: true,
    createParents,
    action: "write",
    display,
  });
  if (target.segments.length === 0) throw fail("NOT_A_FILE", "it is the workspace folder");
  if (target.stat !== null && target.stat.kind !== "file") {
    throw fail("NOT_A_FILE", target.stat.kind === "directory" ? "it is a folder" : "it is not a regular file");
  }
  if (target.stat !== null && options.exclusive) throw fail("ALREADY_EXISTS", "something already exists there");

  // 3. One writer per target in this process.
  return await withTargetLock(target.hostPath, async () => {
    // Inside the lock, look at the target again: an earlier writer may have
    // created or replaced it since the walk.
    let before: HostStat | null = null;
    try {
      before = await host.lstat(target.hostPath);
    } catch (error) {
      if (!isHostError(error, "ENOENT")) throw mapHostError(error, "write", display);
    }
    if (before !== null && before.kind !== "file") {
      throw fail("PATH_CHANGED", "the target changed while it was written");
    }
    if (before !== null && options.exclusive) throw fail("ALREADY_EXISTS", "something already exists there");
    await options.beforeWrite?.({ ...target, stat: before });
    const tempPath = joinHostPath(host.platform, target.parentHostPath, [TEMP_FILE_PREFIX + randomSuffix()]);
    let file: HostFile | undefined;
    let tempIdentity: Identity | undefined;
    let renamed = false;
    try {
      // 4. Create the temp file beside the target: exclusive, never through a link, owner-only.
      file = await host.open(tempPath, { write: true, createExclusive: true, noFollow: true, mode: 0o600 });
      tempIdentity = await file.stat();
      // The folder must still be the one the walk checked: if it (or a folder
      // above it) was swapped for a link since, the temp file was created
      // wherever the link points; stop before a byte is written there.
      await expectIdentity(target.parentHostPath, target.parentIdentity, "its folder was replaced");

      // 5. Mode: an existing target keeps its bits, less setuid and setgid (new
      //    content must not inherit the old file's privileges; a write(2) drops
      //    them too); a new file gets the usual default. On the handle where
      //    the host can (no path, no link to follow).
      const mode = before !== null ? before.mode & ~0o6000 : 0o666 & ~host.umask();
      const chmodByPath = mode !== 0o600 && file.chmod === undefined;
      if (mode !== 0o600 && file.chmod !== undefined) await file.chmod(mode);

      // 6. Write everything and make it durable before it gets the target's name.
      await file.write(data, 0);
      await file.sync();
      await file.close();

      // 7. The temp path must still name the file we wrote (not a swapped-in
      //    link); only then may a path-based chmod touch it.
      await expectIdentity(tempPath, tempIdentity, "the temp file was replaced");
      if (chmodByPath) await host.chmod(tempPath, mode);

      // 8. Re-check everything the rename depends on: root, parent folder, target, abort.
      await workspace.checkRoot();
      await expectIdentity(target.parentHostPath, target.parentIdentity, "its folder was replaced");
      if (!(await stillAsSeen(host, target.hostPath, before))) {
        throw fail("PATH_CHANGED", "the target changed while it was written");
      }
      await expectIdentity(tempPath, tempIdentity, "the temp file was replaced");
      throwIfAborted(signal);

      // 9. Install: rename is atomic within a folder.
      await host.rename(tempPath, target.hostPath);
      renamed = true;

      // 10. The name now holds our file.
      await expectIdentity(target.hostPath, tempIdentity, "the file was replaced right after writing");

      // 11. Make the rename itself durable.
      const folder = await host.openDirectory(target.parentHostPath);
      try {
        await folder.sync();
      } finally {
        await folder.close();
      }
      return target;
    } catch (error) {
      await file?.close().catch(() => {});
      // Remove our own temp file only: it must still be the object we created.
      if (!renamed && tempIdentity !== undefined) await removeOwnFile(host, tempPath, tempIdentity);
      throw mapHostError(error, "write", display);
    }
  });

  async function expectIdentity(path: string, identity: Identity, detail: string): Promise<void> {
    if (!(await stillSame(host, path, identity))) throw fail("PATH_CHANGED", detail);
  }
}
