import { type HostFile, type HostStat, isHostError } from "../../host.ts";
import { rootProtected, throwIfAborted, WorkspaceError } from "../errors.ts";
import { mapHostError } from "./map_host_error.ts";
import { removeOwnFile } from "./remove_own_file.ts";
import { lstatUnchanged } from "./lstat_unchanged.ts";
import { stillNamesObject } from "./still_names_object.ts";
import { holdTransientName, runInTargetQueue, targetKey } from "./run_in_target_queue.ts";
import { protectionFor } from "./protection_for.ts";
import { assertNotProtected, type Protection } from "./protected_paths.ts";
import { recordChange } from "./change_journal.ts";
import type { Folder } from "./folder.ts";
import type { Resolved, Workspace } from "./workspace.ts";

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
   * The target as a walk already resolved it (held by the caller, who
   * releases it): no second walk. `segments` are then only for messages.
   * @default undefined (atomicWrite walks to the target itself)
   */
  target?: Resolved;
  /** The caller has just checked the workspace root for this call (see `beginCall`): do not check it again. @default false */
  rootChecked?: boolean;
  /**
   * Called with the resolved target inside the lock, before the temp file is made; may throw to refuse.
   * @default undefined (no extra check)
   */
  beforeWrite?: (target: Resolved) => Promise<void> | void;
  /**
   * Paths the write refuses (`PROTECTED_PATH`), checked on the path as given
   * (before any folder is made) and on the canonical target (through links).
   * @default what is in force for the workspace ({@link protectedPathsInForce})
   */
  protectedPaths?: readonly string[] | Protection;
  /** The action, for error messages ("write", "edit", …). @default "write" */
  action?: string;
  /** The path as given ended in `/` (see `namesFolder`): refused with `NOT_A_DIRECTORY`, a file is written. @default false */
  folder?: boolean;
  /** The file's permission bits. @default an existing target's (less setuid and setgid), else 0o666 less the umask */
  mode?: number;
  /** Journal the change for checkpoints (see `checkpoint`); a restore's own writes are not. @default true */
  journal?: boolean;
  /**
   * The re-check right before the rename also requires the target's size and
   * modification time to be the ones `beforeWrite` saw, not only its identity
   * (the stale-write guard: a file changed in place meanwhile is refused).
   * @default false
   */
  sameVersion?: boolean;
  /** Return the new file's stat, taken on its handle after the bytes were synced. @default false */
  statWritten?: boolean;
}

/** What {@link atomicWrite} returns. */
export interface AtomicWriteResult {
  /** The target's canonical segments. */
  segments: string[];
  /** The new file's stat from its own handle (with `statWritten`). */
  stat?: HostStat;
}

// Random bytes drawn in blocks (one call to the runtime's generator per 512 names), each byte's hex from a table:
// a name costs about a microsecond, not the ~20 µs a fresh array, eight toString calls and a join took per write.
const RANDOM_BLOCK_BYTES = 4096;
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
let randomBlock = new Uint8Array(0);
let randomAt = 0;

/** 16 random hex digits (64 bits from the runtime's cryptographic generator) for temp names. */
export function randomSuffix(): string {
  if (randomAt + 8 > randomBlock.length) {
    randomBlock = crypto.getRandomValues(new Uint8Array(RANDOM_BLOCK_BYTES));
    randomAt = 0;
  }
  const b = randomBlock;
  const i = randomAt;
  randomAt += 8;
  return HEX[b[i]] + HEX[b[i + 1]] + HEX[b[i + 2]] + HEX[b[i + 3]] + HEX[b[i + 4]] + HEX[b[i + 5]] + HEX[b[i + 6]] +
    HEX[b[i + 7]];
}

/**
 * Replaces (or creates) a file inside the workspace so that readers see the
 * old content or the new content, never a mix, and a failure leaves the old
 * target untouched. Every step happens at the target's held folder: the temp
 * file is created there, renamed there, and the folder synced through its
 * handle, so no swap of a folder above can put a byte outside.
 *
 * @param workspace The workspace.
 * @param segments The normalized path of the target.
 * @param data The new content.
 * @param options Abort signal, display path, parent creation, a resolved target, protected paths.
 * @returns The target's canonical segments (and the new file's stat, when asked).
 * @throws {WorkspaceError} Refusals and failures, with stable codes; `PROTECTED_PATH` for a path
 *   protected in this workspace (the check every write through here gets, custom tools included).
 *
 * @example Saving a report from a custom tool
 * ```ts
 * import { normalizeWorkspacePath, type Workspace } from "@paddock/tools";
 * import { atomicWrite } from "@paddock/tools/host";
 * declare const workspace: Workspace;
 * const data = new TextEncoder().encode(JSON.stringify({ passed: 12, failed: 0 }) + "\n");
 * await atomicWrite(workspace, normalizeWorkspacePath("reports/tests.json"), data); // creates reports/ if missing
 * ```
 */
export async function atomicWrite(
  workspace: Workspace,
  segments: readonly string[],
  data: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<AtomicWriteResult> {
  const { signal, createParents = true } = options;
  const display = options.display ?? segments.join("/");
  const host = workspace.host;
  const fail = (code: WorkspaceError["code"], detail: string) =>
    new WorkspaceError(code, `Cannot write '${display}': ${detail}`, { path: display });

  // 1. The size was validated before we got here; check abort and the root.
  throwIfAborted(signal);
  if (options.target === undefined && options.rootChecked !== true) await workspace.checkRoot();
  // The protected paths in force (one place decides them: change_policy.ts), before any folder is made.
  const action = options.action ?? "write";
  const patterns = await protectionFor(workspace, options.protectedPaths, signal);
  if (options.target === undefined) assertNotProtected(segments, patterns, action, display);

  // 2. Resolve the target confined, creating missing folders one step at a
  //    time. A link to a file inside is followed (the link stays); a dangling
  //    link or one leading out is refused by the walk.
  const target = options.target ?? await workspace.resolve(segments, {
    allowMissing: true,
    createParents,
    action: "write",
    display,
    folder: options.folder,
  });
  try {
    const { folder, name } = target;
    if (name === null) throw rootProtected("write", display);
    if (options.folder === true && target.stat === null) {
      throw fail("NOT_A_DIRECTORY", "the path ends in '/', which names a folder, not a file");
    }
    if (target.stat !== null && target.stat.kind !== "file") {
      throw fail("NOT_A_FILE", target.stat.kind === "directory" ? "it is a folder" : "it is not a regular file");
    }
    if (target.stat !== null && options.exclusive) throw fail("ALREADY_EXISTS", "something already exists there");

    // 3. One writer per target in this process (the folder's identity and the name).
    const written = await runInTargetQueue(targetKey(folder, name), (waited) => install(target, folder, name, waited));
    return written === undefined ? { segments: target.segments } : { segments: target.segments, stat: written };
  } finally {
    if (options.target === undefined) await target.release();
  }

  async function install(
    target: Resolved,
    folder: Folder,
    name: string,
    waited: boolean,
  ): Promise<HostStat | undefined> {
    const targetPath = workspace.childPath(folder, name);
    // Inside the lock, look at the target again when the caller walked earlier
    // (edit_file read it since) or an earlier writer of this process held the
    // lock: the target may have changed since the walk. (Other processes are
    // caught by the re-check before the rename.)
    let before: HostStat | null = target.stat;
    if (waited || options.target !== undefined) {
      before = null;
      try {
        before = await host.lstat(targetPath);
      } catch (error) {
        if (!isHostError(error, "ENOENT")) throw mapHostError(error, "write", display);
      }
    }
    if (before !== null && before.kind !== "file") {
      throw fail("PATH_CHANGED", "the target changed while it was written");
    }
    if (before !== null && options.exclusive) throw fail("ALREADY_EXISTS", "something already exists there");
    // Through a link, the canonical target is what changes.
    assertNotProtected(target.segments, patterns, action, display);
    await options.beforeWrite?.({ ...target, stat: before });
    // Journaled before it happens: the previous content (see change_journal.ts).
    const change = { kind: "write", segments: target.segments } as const;
    const journaled = await recordChange(workspace, change, targetPath, before, options.journal === false);
    const tempName = TEMP_FILE_PREFIX + randomSuffix();
    const tempPath = workspace.childPath(folder, tempName);
    // Held from before it exists until it is renamed or removed: a recursive delete of this process leaves it be.
    const letTempGo = holdTransientName(targetKey(folder, tempName));
    let file: HostFile | undefined;
    let tempIdentity: HostStat | undefined;
    let renamed = false;
    let written: HostStat | undefined;
    try {
      // 4. Create the temp file at the held folder: exclusive, never through a
      //    link, with its final mode (an existing target keeps its bits, less
      //    setuid and setgid — new content must not inherit the old file's
      //    privileges, a write(2) drops them too; a new file gets the usual
      //    default, which the umask applied at creation gives exactly).
      const mode = options.mode ?? (before !== null ? before.mode & ~0o6000 : 0o666);
      file = await host.open(tempPath, { write: true, createExclusive: true, noFollow: true, mode });
      if (folder.handle === null) {
        // `paths` only: the folder chain must still be the one walked, and the
        // temp path must name the file just created, before a byte is written.
        tempIdentity = await file.stat();
        await confirmTemp();
        await file.write(data, 0);
      } else {
        // At a held folder the name cannot lead elsewhere: learn the temp's
        // identity (for removing it on failure) while the bytes go in.
        const [stat, wrote] = await Promise.allSettled([file.stat(), file.write(data, 0)]);
        if (stat.status === "rejected") throw stat.reason;
        tempIdentity = stat.value;
        if (wrote.status === "rejected") throw wrote.reason;
      }

      // 5. An existing target's bits the umask took off at creation go back on, on the handle.
      const wanted = options.mode ?? (before !== null ? mode : tempIdentity.mode & 0o7777);
      const modeMismatch = (tempIdentity.mode & 0o7777) !== wanted;
      if (modeMismatch && file.chmod !== undefined) await file.chmod(wanted);

      // 6. Make everything durable before it gets the target's name.
      await file.sync();
      // The version the stale-write guard records and the journal's after-image: nothing but this call knows the temp's name.
      if (options.statWritten || journaled !== null) written = await file.stat();
      await file.close();
      if (modeMismatch && file.chmod === undefined) {
        await confirmTemp();
        await host.chmod(tempPath, wanted);
      }

      // 7. Re-check what the rename depends on: the target as seen, the chain (`paths`), abort.
      if (!(await lstatUnchanged(host, targetPath, before, options.sameVersion))) {
        throw fail("PATH_CHANGED", "the target changed while it was written");
      }
      await confirmTemp();
      throwIfAborted(signal);

      // 8. Install: rename is atomic within a folder.
      await host.rename(tempPath, targetPath);
      renamed = true;
      journaled?.done(written);
      // `paths` only: the rename happened where the walk held, else say so.
      await workspace.confirm(folder);

      // 9. Make the rename itself durable.
      await workspace.syncFolder(folder);
      return written;
    } catch (error) {
      await file?.close().catch(() => {});
      if (!renamed) journaled?.cancel();
      // Remove our own temp file only: it must still be the object we created, at the held folder.
      if (!renamed && tempIdentity !== undefined) await removeOwnFile(host, tempPath, tempIdentity);
      throw mapHostError(error, "write", display);
    } finally {
      letTempGo();
    }

    async function confirmTemp(): Promise<void> {
      if (folder.handle !== null) return;
      await workspace.confirm(folder);
      if (!(await stillNamesObject(host, tempPath, tempIdentity as HostStat))) {
        throw fail("PATH_CHANGED", "its folder was replaced");
      }
    }
  }
}
