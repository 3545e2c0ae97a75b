import * as z from "zod";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { type ReportedKind, toReportedKind } from "../core/fs/reported_kind.ts";
import { isWorkspaceError, rootProtected, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { randomSuffix, TEMP_FILE_PREFIX } from "../core/fs/atomic_write.ts";
import { closeFolder, type Folder } from "../core/fs/folder.ts";
import { isAbsoluteHostPath, segmentsBelow, splitHostPath } from "../core/path/host_path.ts";
import { MOVE_PATH_MAX_SCAN_ENTRIES } from "../core/limits.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { lstatUnchanged } from "../core/fs/lstat_unchanged.ts";
import { stillNamesObject } from "../core/fs/still_names_object.ts";
import { runInTargetQueue } from "../core/fs/run_in_target_queue.ts";
import { type Resolved, sameIdentity, type Workspace } from "../core/fs/workspace.ts";
import type { HostStat } from "../host.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createMoveTool}. */
export interface MoveToolOptions extends BaseToolOptions {
  /** Entries examined for relative links when a folder moves to a shallower place. @default 10000 ({@link MOVE_PATH_MAX_SCAN_ENTRIES}) */
  maxScanEntries?: number;
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`); see `DEFAULT_PROTECTED_PATHS`.
   * @default [] (`createCodingTools` passes the defaults when a `shell` allow list is in force)
   */
  protectedPaths?: readonly string[];
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
  const protectedPaths = options.protectedPaths ?? [];
  return defineTool({
    name: options.name ?? "move_path",
    description: options.description ??
      "Move or rename a file, link or folder inside the workspace. destination is the full new path; missing folders are created. An existing destination needs overwrite: true (folders are never replaced).",
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
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
      const { workspace: ws } = await beginCall(getWorkspace, input.sourceSegments, signal);
      const sourceDisplay = input.sourceSegments.join("/");
      const display = input.destinationSegments.join("/");
      const fail = (code: WorkspaceError["code"], detail: string, hint?: string) =>
        new WorkspaceError(code, `Cannot move '${sourceDisplay}' to '${display}': ${detail}`, {
          path: sourceDisplay,
          hint,
        });

      // 1. The source, not following a final link; its folder stays held.
      const source = await ws.resolve(input.sourceSegments, {
        followFinal: false,
        action: "move",
        display: sourceDisplay,
      });
      let target: Resolved | undefined;
      try {
        if (source.name === null || source.stat === null) throw rootProtected("move", sourceDisplay);
        const sourceStat = source.stat;
        const sourceName = source.name;

        // 2. Where the destination will be, without creating anything yet.
        const destinationParent = await existingPrefix(ws, input.destinationSegments.slice(0, -1), display);
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
          const linkTarget = await ws.host.readlink(source.hostPath).catch((error) => {
            throw mapHostError(error, "move", sourceDisplay);
          });
          if (!landsInside(ws, destination.slice(0, -1), linkTarget)) {
            throw fail("PATH_ESCAPES_WORKSPACE", "the symbolic link would point outside the workspace");
          }
        } else if (sourceStat.kind === "directory" && destination.length < source.segments.length) {
          const held = await ws.openFolder(source.folder, sourceName).catch((error) => {
            throw mapHostError(error, "move", sourceDisplay);
          });
          if (held.kind !== "folder" || !sameIdentity(held.folder.stat, sourceStat)) {
            if (held.kind === "folder") await closeFolder(held.folder);
            throw fail("PATH_CHANGED", "an entry changed while it was moved");
          }
          await checkLinksInside(ws, held.folder, [...destination], maxScanEntries, fail, signal)
            .finally(() => closeFolder(held.folder));
        }

        // 4. Resolve the destination, now creating its missing folders (each held).
        target = await ws.resolve(input.destinationSegments, {
          followFinal: false,
          allowMissing: true,
          createParents: true,
          action: "move",
          display,
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

        // 5. Re-check what the rename depends on, then rename from one held folder to the other.
        const key = `${to.folder.stat.dev}:${to.folder.stat.ino}:${to.folder.stat.birthtimeMs ?? 0}/${to.name}`;
        await runInTargetQueue(key, async () => {
          throwIfAborted(signal);
          await ws.confirm(source.folder);
          await ws.confirm(to.folder);
          if (!(await stillNamesObject(ws.host, source.hostPath, sourceStat, sourceStat.kind))) {
            throw fail("PATH_CHANGED", "an entry changed while it was moved");
          }
          const unchanged = await lstatUnchanged(ws.host, to.hostPath, before).catch((error) => {
            throw mapHostError(error, "move", display);
          });
          if (!unchanged) throw fail("PATH_CHANGED", "the destination changed while it was checked");
          throwIfAborted(signal);
          await renameConfirmed(ws, source, to, sourceStat, fail).catch((error) => {
            throw mapHostError(error, "move", sourceDisplay);
          });
          // Make the rename durable (best effort: some filesystems cannot sync a folder).
          await ws.syncFolder(source.folder).catch(() => {});
          if (to.folder !== source.folder) await ws.syncFolder(to.folder).catch(() => {});
        });
        return { source: sourceDisplay, destination: display, kind: toReportedKind(sourceStat.kind), overwritten };
      } finally {
        await target?.release();
        await source.release();
      }
    },
  });
}

type Fail = (code: WorkspaceError["code"], detail: string, hint?: string) => WorkspaceError;

/**
 * The one rename of a move. At held folders (`handles`): `rename` from one to
 * the other. On the `paths` route, where a folder above either end can be
 * swapped between the last check and the rename, it goes in two confirmed
 * steps through a random name beside the source: (1) source → aside, then the
 * source's chain and the aside entry are confirmed, else it is renamed back;
 * (2) aside → destination, then the destination's chain and the moved entry are
 * confirmed, else it is renamed back to the source. A swap before a step is
 * undone by the same paths (nothing outside keeps a new name or loses one); a
 * swap after a step leaves the entry inside, in the folder that was moved.
 */
async function renameConfirmed(
  ws: Workspace,
  source: Resolved,
  to: Resolved,
  stat: HostStat,
  fail: Fail,
): Promise<void> {
  if (source.folder.handle !== null && to.folder.handle !== null) {
    await ws.host.rename(source.hostPath, to.hostPath);
    return;
  }
  const changed = () => fail("PATH_CHANGED", "a folder changed while the entry was moved");
  const aside = ws.childPath(source.folder, `${TEMP_FILE_PREFIX}move-${randomSuffix()}`);
  await ws.host.rename(source.hostPath, aside);
  try {
    await ws.confirm(source.folder);
    if (!(await stillNamesObject(ws.host, aside, stat, stat.kind))) throw changed();
  } catch (error) {
    await ws.host.rename(aside, source.hostPath).catch(() => {});
    throw error;
  }
  await ws.host.rename(aside, to.hostPath).catch(async (error) => {
    await ws.host.rename(aside, source.hostPath).catch(() => {});
    throw error;
  });
  try {
    await ws.confirm(to.folder);
    if (!(await stillNamesObject(ws.host, to.hostPath, stat, stat.kind))) throw changed();
  } catch (error) {
    await ws.host.rename(to.hostPath, aside).then(() => ws.host.rename(aside, source.hostPath)).catch(() => {});
    throw error;
  }
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
async function existingPrefix(ws: Workspace, segments: readonly string[], display: string): Promise<string[]> {
  for (let length = segments.length; length >= 0; length--) {
    try {
      const found = await ws.resolve(segments.slice(0, length), { action: "move", display });
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

/** Whether link `target`, stored in the folder at canonical `folder`, lands inside the workspace (lexically). */
function landsInside(ws: Workspace, folder: readonly string[], target: string): boolean {
  const platform = ws.host.platform;
  if (isAbsoluteHostPath(platform, target)) {
    return (segmentsBelow(platform, ws.root, target) ?? segmentsBelow(platform, ws.rootEntry, target)) !== null;
  }
  let depth = folder.length;
  for (const part of splitHostPath(platform, target)) {
    if (part === "..") {
      if (depth === 0) return false;
      depth--;
    } else depth++;
  }
  return true;
}

/**
 * Refuses a folder move that would make a relative link inside it point
 * outside the workspace. Walks the held folder depth first, each subfolder
 * opened at its held parent, each link read at its folder.
 */
async function checkLinksInside(
  ws: Workspace,
  start: Folder,
  destination: readonly string[],
  maxEntries: number,
  fail: Fail,
  signal: AbortSignal | undefined,
): Promise<void> {
  let seen = 0;
  const visit = async (folder: Folder, at: string[]): Promise<void> => {
    throwIfAborted(signal);
    const entries = await ws.host.readdir(folder.at);
    await ws.confirm(folder);
    for (const entry of entries) {
      if (++seen > maxEntries) {
        throw fail(
          "TOO_MANY_ENTRIES",
          `the folder holds more than ${maxEntries} entries to check for links`,
          "move it to a place at least as deep as it is now, or move its subfolders one at a time",
        );
      }
      if (entry.kind === "directory") {
        const child = await ws.openFolder(folder, entry.name);
        if (child.kind === "folder") {
          try {
            await visit(child.folder, [...at, entry.name]);
          } finally {
            await closeFolder(child.folder);
          }
        } else if (child.kind === "symlink") {
          await checkLink(folder, entry.name, at);
        }
      } else if (entry.kind === "symlink") {
        await checkLink(folder, entry.name, at);
      }
    }
  };
  const checkLink = async (folder: Folder, name: string, at: string[]): Promise<void> => {
    const target = await ws.host.readlink(ws.childPath(folder, name));
    if (!landsInside(ws, at, target)) {
      throw fail("PATH_ESCAPES_WORKSPACE", `the symbolic link '${name}' inside would point outside the workspace`);
    }
  };
  await visit(start, [...destination]);
}
