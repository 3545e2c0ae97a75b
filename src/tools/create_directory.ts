import * as z from "zod";
import { recordChange } from "../core/fs/change_journal.ts";
import { assertNotProtected } from "../core/fs/protected_paths.ts";
import { protectionFor } from "../core/fs/protection_for.ts";
import { throwIfAborted, WorkspaceError } from "../core/errors.ts";
import { mapHostError } from "../core/fs/map_host_error.ts";
import { namesFolder } from "../core/path/names_folder.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { isHostError } from "../host.ts";
import type { BaseToolOptions, Tool } from "./tool.ts";
import { beginCall } from "./begin_call.ts";
import { defineTool } from "./define_tool.ts";
import { workspaceGetter, type WorkspaceSource } from "./workspace_source.ts";

/** Options of {@link createDirectoryTool}. */
export interface CreateDirectoryToolOptions extends BaseToolOptions {
  /**
   * Paths this tool refuses to change (`PROTECTED_PATH`), replacing what is
   * in force for the workspace; `[]` protects nothing (see `DEFAULT_PROTECTED_PATHS`).
   * @default what is in force for the workspace at each call (`protectedPathsInForce`:
   *   the workspace's own list, and `DEFAULT_PROTECTED_PATHS` while a `shell` with an allow list exists over it)
   */
  protectedPaths?: readonly string[];
}

/** Arguments of `create_directory` as a caller writes them (what its schema accepts); `execute` takes this type. */
export interface CreateDirectoryArguments {
  /** Workspace-relative path of the folder to create, with any missing parents. */
  path: string;
}

/** Arguments of `create_directory`, validated. */
export interface CreateDirectoryInput {
  /** The workspace-relative path, normalized. */
  path: string;
  /** The path's segments. */
  segments: string[];
}

/** Result of `create_directory`. */
export interface CreateDirectoryOutput {
  /** The workspace-relative path (normalized). */
  path: string;
  /** `false` when the folder already existed. */
  created: boolean;
}

const schema = z.object({
  path: z.string().describe("Workspace-relative path of the folder to create, with any missing parents"),
}).strict();

/**
 * Creates `create_directory` `{path}` → `{path, created}`: creates a folder
 * and its missing parents, one confined step at a time. An existing folder
 * (or a link to a folder inside the workspace) is fine (`created: false`);
 * an existing file or other entry is `ALREADY_EXISTS`; a file in the middle
 * of the path is `NOT_A_DIRECTORY`.
 *
 * @param workspace The workspace, or its root folder.
 * @param options Name and description.
 * @returns The tool.
 *
 * @example Creating nested folders
 * ```ts
 * import { createDirectoryTool } from "@paddock/tools";
 * const mkdir = createDirectoryTool("./project");
 * await mkdir.execute({ path: "src/lib/util" });
 * ```
 */
export function createDirectoryTool(
  workspace: WorkspaceSource,
  options: CreateDirectoryToolOptions = {},
): Tool<CreateDirectoryInput, CreateDirectoryOutput, CreateDirectoryArguments> {
  const getWorkspace = workspaceGetter(workspace);
  return defineTool({
    name: options.name ?? "create_directory",
    description: options.description ??
      "Create a folder inside the workspace, with any missing parent folders. An existing folder is fine.",
    readOnly: false,
    workspaceRoots: getWorkspace.roots,
    workspace: getWorkspace,
    schema,
    prepare: (args): CreateDirectoryInput => ({ path: args.path, segments: normalizeWorkspacePath(args.path) }),
    run: async (input, { signal }) => {
      const { workspace, display } = await beginCall(getWorkspace, input.segments, signal);
      const protectedPaths = await protectionFor(workspace, options.protectedPaths, signal);
      const exists = (kind: string) =>
        new WorkspaceError("ALREADY_EXISTS", `Cannot create folder '${display}': ${kind} already exists there`, {
          path: display,
          hint: "choose another name, or delete the entry first",
        });
      assertNotProtected(input.segments, protectedPaths, "create folder", display); // before any folder is created
      // Parents are created one confined step at a time, each held; a final link is followed (and must stay inside).
      const target = await workspace.resolve(input.segments, {
        allowMissing: true,
        createParents: true,
        action: "create folder",
        display,
        folder: namesFolder(input.path),
      });
      try {
        assertNotProtected(target.segments, protectedPaths, "create folder", display);
        if (target.stat !== null) {
          if (target.stat.kind === "directory") return { path: display, created: false };
          throw exists(target.stat.kind === "file" ? "a file" : "an entry");
        }
        throwIfAborted(signal);
        // The folder is made at the held parent: no swap above can move it outside.
        const journaled = await recordChange(workspace, { kind: "mkdir", segments: target.segments }, "", null);
        try {
          await workspace.host.mkdir(target.hostPath);
          journaled?.done(await workspace.host.lstat(target.hostPath).catch(() => undefined));
        } catch (error) {
          journaled?.cancel();
          if (!isHostError(error, "EEXIST")) throw mapHostError(error, "create folder", display);
          // Created meanwhile by someone else: fine if it is a real folder.
          const now = await workspace.host.lstat(target.hostPath).catch((cause) => {
            throw mapHostError(cause, "create folder", display);
          });
          if (now.kind !== "directory") throw exists(now.kind === "file" ? "a file" : "an entry");
          return { path: display, created: false };
        }
        // `paths` route only: if the chain changed before the mkdir, the folder
        // was made wherever the path led: take back our (empty) folder and say so.
        await workspace.confirm(target.folder)?.catch(async (error) => {
          journaled?.cancel();
          await workspace.host.rmdir(target.hostPath).catch(() => {});
          throw error;
        });
        return { path: display, created: true };
      } finally {
        await target.release();
      }
    },
  });
}
