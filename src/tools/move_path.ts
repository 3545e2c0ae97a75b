import * as z from "zod";
import { type ReportedKind, reportedKind } from "../core/entry_kind.ts";
import { isWorkspaceError, throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { isAbsoluteHostPath, joinHostPath, segmentsBelow, splitHostPath } from "../core/host_path.ts";
import { MOVE_PATH_MAX_SCAN_ENTRIES } from "../core/limits.ts";
import { mapHostError } from "../core/map_host_error.ts";
import { normalizeWorkspacePath } from "../core/normalize_workspace_path.ts";
import { stillAsSeen, stillSame } from "../core/still_same.ts";
import { withTargetLock } from "../core/target_lock.ts";
import type { Identity, Workspace } from "../core/workspace.ts";
import type { HostStat } from "../host.ts";
import { type BaseToolOptions, defineTool, type Tool, workspaceGetter, type WorkspaceSource } from "./tool.ts";

/** Options of {@link createMoveTool}. */
export interface MoveToolOptions extends BaseToolOptions {
  /** Entries examined for relative links when a folder moves to a shallower place. @default 10000 ({@link MOVE_PATH_MAX_SCAN_ENTRIES}) */
  maxScanEntries?: number;
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
): Tool<MovePathInput, MovePathOutput> {
  const getWorkspace = workspaceGetter(workspace);
  const maxScanEntries = options.maxScanEntries ?? MOVE_PATH_MAX_SCAN_ENTRIES;
  return defineTool({
    name: options.name ?? "move_path",
    description: options.description ??
      "Move or rename a file, link or folder inside the workspace. destination is the full new path; missing folders are created. An existing destination needs overwrite: true (folders are never replaced).",
    readOnly: false,
    schema,
    prepare: (args): MovePathInput => {
      const sourceSegments = normalizeWorkspacePath(args.source);
      const destinationSegments = normalizeWorkspacePath(args.destination);
      if (sourceSegments.length === 0) throw rootProtected(args.source);
      if (destinationSegments.length === 0) throw rootProtected(args.destination);
      return {
        source: args.source,
        sourceSegments,
        destination: args.destination,
        destinationSegments,
        overwrite: args.overwrite ?? false,
      };
    },
    run: async (input, { signal }) => {
      const ws = await getWorkspace();
      const sourceDisplay = input.sourceSegments.join("/");
      const display = input.destinationSegments.join("/");
      const fail = (code: WorkspaceError["code"], detail: string, hint?: string) =>
        new WorkspaceError(code, `Cannot move '${sourceDisplay}' to '${display}': ${detail}`, {
          path: sourceDisplay,
          hint,
        });
      throwIfAborted(signal);
      await ws.checkRoot();

      // 1. The source, not following a final link.
      const source = await ws.resolve(input.sourceSegments, {
        followFinal: false,
        action: "move",
        display: sourceDisplay,
      });
      if (source.segments.length === 0 || source.stat === null) throw rootProtected(sourceDisplay);
      const sourceStat = source.stat;

      // 2. Where the destination will be, without creating anything yet.
      const destinationParent = await existingPrefix(ws, input.destinationSegments.slice(0, -1), display);
      const destination = [...destinationParent, input.destinationSegments[input.destinationSegments.length - 1]];
      if (sameSegments(destination, source.segments)) {
        return { source: sourceDisplay, destination: display, kind: reportedKind(sourceStat.kind), overwritten: false };
      }
      if (sourceStat.kind === "directory" && startsWith(destination, source.segments)) {
        throw fail("MOVE_INTO_ITSELF", "a folder cannot move into itself");
      }

      // 3. A move never makes a link point outside the workspace.
      if (sourceStat.kind === "symlink") {
        const target = await ws.host.readlink(source.hostPath).catch((error) => {
          throw mapHostError(error, "move", sourceDisplay);
        });
        if (!landsInside(ws, destination.slice(0, -1), target)) {
          throw fail("PATH_ESCAPES_WORKSPACE", "the symbolic link would point outside the workspace");
        }
      } else if (sourceStat.kind === "directory" && destination.length < source.segments.length) {
        await checkLinksInside(ws, source.hostPath, sourceStat, destination, maxScanEntries, fail, signal);
      }

      // 4. Resolve the destination, now creating its missing folders.
      const target = await ws.resolve(input.destinationSegments, {
        followFinal: false,
        allowMissing: true,
        createParents: true,
        action: "move",
        display,
      });
      if (!sameSegments(target.segments, destination)) {
        throw fail("PATH_CHANGED", "the destination changed while it was checked");
      }
      let overwritten = false;
      if (target.stat !== null) {
        if (!input.overwrite) {
          throw fail("ALREADY_EXISTS", "the destination exists", "pass overwrite: true to replace a file or link");
        }
        if (target.stat.kind === "directory") {
          throw fail("ALREADY_EXISTS", "the destination is a folder", "a folder is never replaced; delete it first");
        }
        if (sourceStat.kind === "directory") {
          throw fail("ALREADY_EXISTS", "a folder cannot replace a file", "delete the destination first");
        }
        overwritten = true;
      }
      const before = target.stat;

      // 5. Re-check everything the rename depends on, then rename.
      await withTargetLock(target.hostPath, async () => {
        throwIfAborted(signal);
        await ws.checkRoot();
        await expectIdentity(ws, source.parentHostPath, source.parentIdentity, fail, "directory");
        await expectIdentity(ws, source.hostPath, sourceStat, fail, sourceStat.kind);
        await expectIdentity(ws, target.parentHostPath, target.parentIdentity, fail, "directory");
        const unchanged = await stillAsSeen(ws.host, target.hostPath, before).catch((error) => {
          throw mapHostError(error, "move", display);
        });
        if (!unchanged) throw fail("PATH_CHANGED", "the destination changed while it was checked");
        throwIfAborted(signal);
        await ws.host.rename(source.hostPath, target.hostPath).catch((error) => {
          throw mapHostError(error, "move", sourceDisplay);
        });
        // Make the rename durable (best effort: some filesystems cannot sync a folder).
        for (const folder of new Set([source.parentHostPath, target.parentHostPath])) {
          const handle = await ws.host.openDirectory(folder).catch(() => null);
          await handle?.sync().catch(() => {});
          await handle?.close().catch(() => {});
        }
      });
      return { source: sourceDisplay, destination: display, kind: reportedKind(sourceStat.kind), overwritten };
    },
  });
}

function rootProtected(display: string): WorkspaceError {
  return new WorkspaceError("WORKSPACE_ROOT_PROTECTED", `Cannot move '${display}': it is the workspace folder`, {
    path: display,
    hint: "name a file or folder inside the workspace",
  });
}

type Fail = (code: WorkspaceError["code"], detail: string, hint?: string) => WorkspaceError;

function sameSegments(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((segment, index) => segment === b[index]);
}

function startsWith(path: readonly string[], prefix: readonly string[]): boolean {
  return path.length > prefix.length && prefix.every((segment, index) => segment === path[index]);
}

// The kind is compared too: an inode number freed by a deletion is reused at
// once, and not every host reports birth times to tell the two apart.
async function expectIdentity(
  ws: Workspace,
  path: string,
  identity: Identity,
  fail: Fail,
  kind?: HostStat["kind"],
): Promise<void> {
  if (!(await stillSame(ws.host, path, identity, kind))) {
    throw fail("PATH_CHANGED", "an entry changed while it was moved");
  }
}

/**
 * The canonical segments the folder `segments` will have: its longest existing
 * prefix resolved confined (links followed), plus the missing rest as given.
 */
async function existingPrefix(ws: Workspace, segments: readonly string[], display: string): Promise<string[]> {
  for (let length = segments.length; length >= 0; length--) {
    try {
      const found = await ws.resolve(segments.slice(0, length), { action: "move", display });
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

/** Refuses a folder move that would make a relative link inside it point outside the workspace. */
async function checkLinksInside(
  ws: Workspace,
  hostPath: string,
  stat: HostStat,
  destination: readonly string[],
  maxEntries: number,
  fail: Fail,
  signal: AbortSignal | undefined,
): Promise<void> {
  let seen = 0;
  const pending: [string, HostStat, string[]][] = [[hostPath, stat, [...destination]]];
  while (pending.length > 0) {
    throwIfAborted(signal);
    const [folder, folderStat, at] = pending.pop() as [string, HostStat, string[]];
    await expectIdentity(ws, folder, folderStat, fail, "directory");
    for (const entry of await ws.host.readdir(folder)) {
      if (++seen > maxEntries) {
        throw fail(
          "TOO_MANY_ENTRIES",
          `the folder holds more than ${maxEntries} entries to check for links`,
          "move it to a place at least as deep as it is now, or move its subfolders one at a time",
        );
      }
      const child = joinHostPath(ws.host.platform, folder, [entry.name]);
      if (entry.kind === "directory") {
        const childStat = await ws.host.lstat(child);
        if (childStat.kind === "directory") pending.push([child, childStat, [...at, entry.name]]);
      } else if (entry.kind === "symlink") {
        const target = await ws.host.readlink(child);
        if (!landsInside(ws, at, target)) {
          throw fail(
            "PATH_ESCAPES_WORKSPACE",
            `the symbolic link '${entry.name}' inside would point outside the workspace`,
          );
        }
      }
    }
  }
}
