import * as z from "zod";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { protectionFor } from "../core/fs/protection_for.ts";
import { type ReportedKind, toReportedKind } from "../core/fs/reported_kind.ts";
import { isWorkspaceError, rootProtected, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { closeFolder } from "../core/fs/folder.ts";
import { MOVE_PATH_MAX_SCAN_ENTRIES } from "../core/limits.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { lstatUnchanged } from "../core/fs/lstat_unchanged.ts";
import { stillNamesObject } from "../core/fs/still_names_object.ts";
import { runInTargetQueues, targetKey } from "../core/fs/run_in_target_queue.ts";
import { type Resolved, sameIdentity, type Workspace } from "../core/fs/workspace.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";
import { checkLinksInside, landsInside } from "./_check_links_inside.ts";
import { recordChange } from "../core/fs/change_journal.ts";
import { renameConfirmed } from "./_rename_confirmed.ts";
import { readTrackerOf } from "../core/fs/read_tracker.ts";

/** Options of {@link createMoveTool}. */
export interface MoveToolOptions extends BaseToolOptions {
  /** Entries examined for relative links when a folder moves to a shallower place. @default 10000 ({@link MOVE_PATH_MAX_SCAN_ENTRIES}) */
  maxScanEntries?: number;
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`), replacing what is
   * in force for the workspace; `[]` protects nothing (see `DEFAULT_PROTECTED_PATHS`).
   * @default what is in force for the workspace at each call (`protectedPathsInForce`:
   *   the workspace's own list, and `DEFAULT_PROTECTED_PATHS` while a `shell` with an allow list exists over it)
   */
  protectedPaths?: readonly string[];
  /**
   * With `overwrite`, refuse to replace a file the session never read (`FILE_NOT_READ`) or that
   * changed since it was last read (`FILE_CHANGED_SINCE_READ`), as `write_file` refuses. What moves
   * needs no read (its content is kept); what was seen of it follows it to its new name.
   * @default false (`createCodingTools` turns it on)
   */
  staleWriteGuard?: boolean;
}

/** Arguments of `move_path` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface MovePathArguments {
  /** Workspace-relative path of the file, link or folder to move. */
  source: string;
  /** Its new workspace-relative path (the full new name). */
  destination: string;
  /** Replace an existing file or link at the destination. @default false */
  overwrite?: boolean;
}

/** Arguments of `move_path`, validated. */
export interface MovePathInput {
  /** The workspace-relative source path, normalized. */
  source: string;
  /** The source path's segments. */
  sourceSegments: string[];
  /** The workspace-relative destination path, normalized. */
  destination: string;
  /** The destination path's segments. */
  destinationSegments: string[];
  /** Replace an existing file or link at the destination. */
  overwrite: boolean;
}

/** Result of `move_path`. */
export interface MovePathOutput {
  /** The source, workspace-relative (normalized). */
  source: string;
  /** The destination, workspace-relative (normalized). */
  destination: string;
  /** What was moved (a link is moved as a link). */
  kind: ReportedKind;
  /** Whether an existing file or link at the destination was replaced. */
  overwritten: boolean;
}

const schema = z.object({
  source: z.string().describe("Workspace-relative path of the file, link or folder to move"),
  destination: z.string().describe("Its new workspace-relative path (the full new name, not a folder to move into)"),
  overwrite: z.boolean().optional().describe("Replace an existing file or link at the destination (default false)"),
}).strict();

/**
 * Creates `move_path` `{source, destination, overwrite?}` → `{source,
 * destination, kind, overwritten}`: renames a file, link or folder inside the
 * workspace.
 *
 * The source is resolved without following a final link (a link moves as a
 * link); the destination's missing folders are created one confined step at a
 * time, after every check passed. An existing destination is refused
 * (`ALREADY_EXISTS`) unless `overwrite`, and even then a folder is never
 * replaced, nor anything replaced by a folder. Nothing moves in from or out to
 * outside the workspace (`PATH_ESCAPES_WORKSPACE`), a folder never moves into
 * itself (`MOVE_INTO_ITSELF`), the root never moves
 * (`WORKSPACE_ROOT_PROTECTED`), and a move never makes a link point outside
 * the workspace: a link whose target (read from its new place) leaves the
 * workspace is refused, and so is a folder moving to a shallower place that
 * holds such a link. Root, both folders, the source and the destination are
 * re-checked by identity right before the rename.
 *
 * What remains: a destination created by another process between the last
 * check and the rename is replaced (no `renameat2(RENAME_NOREPLACE)` in
 * JavaScript).
 *
 * @param workspace The workspace, or its root folder.
 * @param options Limit and name.
 * @returns The tool.
 *
 * @example Renaming a file
 * ```ts
 * import { createMoveTool } from "@paddock/tools";
 * const move = createMoveTool("./project");
 * await move.execute({ source: "src/old.ts", destination: "src/lib/new.ts" });
 * ```
 */
export function createMoveTool(
  workspace: WorkspaceSource,
  options: MoveToolOptions = {},
): Tool<MovePathInput, MovePathOutput, MovePathArguments> {
  const getWorkspace = workspaceGetter(workspace);
  const maxScanEntries = options.maxScanEntries ?? MOVE_PATH_MAX_SCAN_ENTRIES;
  const guarded = options.staleWriteGuard ?? false;
  return defineTool({
    name: options.name ?? "move_path",
    description: options.description ??
      "Move or rename a file, link or folder inside the workspace. destination is the full new path; missing folders are created. An existing destination needs overwrite: true (folders are never replaced)." +
        (guarded ? " A file it replaces must have been read (read_file) since it last changed." : ""),
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): MovePathInput => {
      const sourceSegments = normalizeWorkspacePath(args.source);
      const destinationSegments = normalizeWorkspacePath(args.destination);
      if (sourceSegments.length === 0) throw rootProtected("move", args.source);
      if (destinationSegments.length === 0) throw rootProtected("move", args.destination);
      return {
        source: args.source,
        sourceSegments,
        destination: args.destination,
        destinationSegments,
        overwrite: args.overwrite ?? false,
      };
    },
    run: async (input, { signal }) => {
      const { workspace } = await beginCall(getWorkspace, input.sourceSegments, signal);
      const protectedPaths = await protectionFor(workspace, options.protectedPaths, signal);
      const sourceDisplay = input.sourceSegments.join("/");
      const display = input.destinationSegments.join("/");
      const fail = (code: WorkspaceError["code"], detail: string, hint?: string) =>
        new WorkspaceError(code, `Cannot move '${sourceDisplay}' to '${display}': ${detail}`, {
          path: sourceDisplay,
          hint,
        });

      // 1. The source, not following a final link; its folder stays held.
      const source = await workspace.resolve(input.sourceSegments, {
        followFinal: false,
        action: "move",
        display: sourceDisplay,
        folder: namesFolder(input.source),
      });
      let target: Resolved | undefined;
      try {
        if (source.name === null || source.stat === null) throw rootProtected("move", sourceDisplay);
        const sourceStat = source.stat;
        const sourceName = source.name;
        // A destination ending in '/' (or '/.') names a folder: only a folder can move there (rename(2): ENOTDIR).
        const destinationSlash = namesFolder(input.destination);
        if (destinationSlash && sourceStat.kind !== "directory") {
          throw new WorkspaceError(
            "NOT_A_DIRECTORY",
            `Cannot move '${sourceDisplay}' to '${input.destination}': the destination ends in '/', which names a folder, and the source is a ${
              sourceStat.kind === "symlink" ? "link" : "file"
            }, not a folder`,
            { path: input.destination, hint: "drop the trailing '/' to give the full new name; nothing was changed" },
          );
        }

        // 2. Where the destination will be, without creating anything yet.
        const destinationParent = await existingPrefix(workspace, input.destinationSegments.slice(0, -1), display);
        const destination = [...destinationParent, input.destinationSegments[input.destinationSegments.length - 1]];
        assertNotProtected(source.segments, protectedPaths, "move", sourceDisplay);
        assertNotProtected(destination, protectedPaths, "move onto", display);
        if (sameSegments(destination, source.segments)) {
          return {
            source: sourceDisplay,
            destination: display,
            kind: toReportedKind(sourceStat.kind),
            overwritten: false,
          };
        }
        if (sourceStat.kind === "directory" && startsWith(destination, source.segments)) {
          throw fail("MOVE_INTO_ITSELF", "a folder cannot move into itself");
        }

        // 3. A move never makes a link point outside the workspace.
        if (sourceStat.kind === "symlink") {
          const linkTarget = await workspace.host.readlink(source.hostPath).catch((error) => {
            throw mapHostError(error, "move", sourceDisplay);
          });
          if (!landsInside(workspace, destination.slice(0, -1), linkTarget)) {
            throw fail("PATH_ESCAPES_WORKSPACE", "the symbolic link would point outside the workspace");
          }
        } else if (sourceStat.kind === "directory" && destination.length < source.segments.length) {
          const held = await workspace.openFolder(source.folder, sourceName).catch((error) => {
            throw mapHostError(error, "move", sourceDisplay);
          });
          if (held.kind !== "folder" || !sameIdentity(held.folder.stat, sourceStat)) {
            if (held.kind === "folder") await closeFolder(held.folder);
            throw fail("PATH_CHANGED", "an entry changed while it was moved");
          }
          await checkLinksInside(workspace, held.folder, [...destination], maxScanEntries, fail, signal)
            .finally(() => closeFolder(held.folder));
        }

        // 4. Resolve the destination, now creating its missing folders (each held).
        target = await workspace.resolve(input.destinationSegments, {
          followFinal: false,
          allowMissing: true,
          createParents: true,
          action: "move",
          display,
          folder: destinationSlash, // a folder moves onto a missing name or a folder (refused below), never a file or link
        });
        const to = target;
        if (to.name === null || !sameSegments(to.segments, destination)) {
          throw fail("PATH_CHANGED", "the destination changed while it was checked");
        }
        let overwritten = false;
        if (to.stat !== null) {
          if (!input.overwrite) {
            throw fail("ALREADY_EXISTS", "the destination exists", "pass overwrite: true to replace a file or link");
          }
          if (to.stat.kind === "directory") {
            throw fail("ALREADY_EXISTS", "the destination is a folder", "a folder is never replaced; delete it first");
          }
          if (sourceStat.kind === "directory") {
            throw fail("ALREADY_EXISTS", "a folder cannot replace a file", "delete the destination first");
          }
          overwritten = true;
        }
        const before = to.stat;
        const tracker = readTrackerOf(workspace);

        // 5. Re-check what the rename depends on, then rename from one held folder to the other. In the write
        // queues of both names: a write of this process to the source lands before the re-check (which then
        // refuses the move) or after the rename (a new file), never between them (else it would make the source
        // again from the text it read, and both calls would say they succeeded).
        const keys = [targetKey(source.folder, sourceName), targetKey(to.folder, to.name)];
        await runInTargetQueues(keys, async () => {
          throwIfAborted(signal);
          await workspace.confirm(source.folder);
          await workspace.confirm(to.folder);
          if (!(await stillNamesObject(workspace.host, source.hostPath, sourceStat, sourceStat.kind))) {
            throw fail("PATH_CHANGED", "an entry changed while it was moved");
          }
          // The stale-write guard: a file replaced must be the version the session saw (the re-check below then
          // requires that same size and modification time, not only the inode).
          const guardFile = guarded && before !== null && before.kind === "file";
          if (guardFile) tracker.assertCurrent(to.segments, before, "replace", display);
          const unchanged = await lstatUnchanged(workspace.host, to.hostPath, before, guardFile).catch((error) => {
            throw mapHostError(error, "move", display);
          });
          if (!unchanged) throw fail("PATH_CHANGED", "the destination changed while it was checked");
          throwIfAborted(signal);
          // Journaled before it happens: a replaced destination first (undone last), then the move.
          const replaced = await recordChange(
            workspace,
            { kind: "remove", segments: to.segments },
            to.hostPath,
            before,
            before === null,
          );
          const moved = await recordChange(
            workspace,
            { kind: "move", segments: to.segments, from: source.segments },
            "",
            null,
          );
          await renameConfirmed(workspace, source, to, sourceStat, fail).catch((error) => {
            replaced?.cancel();
            moved?.cancel();
            throw mapHostError(error, "move", sourceDisplay);
          });
          replaced?.done();
          moved?.done(sourceStat);
          tracker.moved(source.segments, to.segments);
          // Make the rename durable (best effort: some filesystems cannot sync a folder).
          await workspace.syncFolder(source.folder).catch(() => {});
          if (to.folder !== source.folder) await workspace.syncFolder(to.folder).catch(() => {});
        });
        return { source: sourceDisplay, destination: display, kind: toReportedKind(sourceStat.kind), overwritten };
      } finally {
        await target?.release();
        await source.release();
      }
    },
  });
}

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index]);
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return path.length > prefix.length && prefix.every((segment, index) => segment === path[index]);
}

/**
 * The canonical segments the folder `segments` will have: its longest existing
 * prefix resolved confined (links followed), plus the missing rest as given.
 */
async function existingPrefix(workspace: Workspace, segments: readonly string[], display: string): Promise<string[]> {
  for (let length = segments.length; length >= 0; length--) {
    try {
      const found = await workspace.resolve(segments.slice(0, length), { action: "move", display });
      await found.release();
      if (found.stat !== null && found.stat.kind !== "directory") {
        throw new WorkspaceError("NOT_A_DIRECTORY", `Cannot move to '${display}': a path component is not a folder`, {
          path: display,
        });
      }
      return [...found.segments, ...segments.slice(length)];
    } catch (error) {
      if (!isWorkspaceError(error, "NOT_FOUND")) throw error;
    }
  }
  return [...segments];
}
