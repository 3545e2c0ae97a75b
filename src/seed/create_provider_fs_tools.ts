import { WorkspaceError } from "../core/errors.ts";
import { DELETE_PATH_MAX_ENTRIES, LIST_DIRECTORY_MAX_ENTRIES } from "../core/limits.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import { MemoryWorkspace } from "../testing/memory_workspace.ts";
import { createDirectoryTool, type CreateDirectoryToolOptions } from "../tools/create_directory.ts";
import { createDeleteTool, type DeleteToolOptions } from "../tools/delete_path.ts";
import { createEditTool, type EditToolOptions } from "../tools/edit_file.ts";
import { createListDirectoryTool, type ListDirectoryToolOptions, type ListedEntry } from "../tools/list_directory.ts";
import { createReadTool, type ReadToolOptions } from "../tools/read_file.ts";
import type { AnyTool, Tool } from "../tools/tool.ts";
import { createWriteTool, type WriteToolOptions } from "../tools/write_file.ts";
import type { FsProvider, FsStat } from "./fs_provider.ts";
import { badReply, providerCall } from "./provider_error.ts";

/** Per-tool options of the fs tools over an {@link FsProvider}; `false` leaves a tool out. */
export interface ProviderFsToolsOptions {
  /** Options of `read_file`. @default {} */
  read?: ReadToolOptions;
  /** Options of `write_file`, or `false`. @default {} */
  write?: WriteToolOptions | false;
  /** Options of `edit_file`, or `false`. @default {} */
  edit?: EditToolOptions | false;
  /** Options of `list_directory`, or `false`. @default {} */
  listDirectory?: ListDirectoryToolOptions | false;
  /** Options of `create_directory`, or `false`. @default {} */
  createDirectory?: CreateDirectoryToolOptions | false;
  /** Options of `delete_path`, or `false`. @default {} */
  delete?: DeleteToolOptions | false;
}

// Each tool keeps Paddock's own name, description, schema and validation (the
// path grammar runs there, before the provider is called); only `run` is
// replaced. read_file and edit_file run Paddock's own tool on a one-file
// MemoryWorkspace, so windows, strict UTF-8, tolerant matching, line endings
// and diffs behave exactly as on disk; the provider sees whole files only.
function overProvider<Input, Output>(
  base: Tool<Input, Output>,
  run: (input: Input, signal: AbortSignal | undefined) => Promise<Output>,
): Tool<Input, Output> {
  return {
    ...base,
    run: (input, options = {}) => run(input, options.signal),
    execute: async (args, options = {}) => await run(base.validate(args), options.signal),
  };
}

const relative = (segments: readonly string[]): string => segments.join("/") || ".";

async function statOf(provider: FsProvider, action: string, path: string): Promise<FsStat | undefined> {
  const stat = await providerCall(action, path, () => provider.stat(path));
  if (stat !== undefined && (typeof stat !== "object" || stat === null || typeof stat.type !== "string")) {
    throw badReply(action, path, "a stat without a type");
  }
  return stat;
}

async function readText(provider: FsProvider, action: string, path: string): Promise<string> {
  const stat = await statOf(provider, action, path);
  if (stat === undefined) {
    throw new WorkspaceError("NOT_FOUND", `Cannot ${action} '${path}': no such file or folder`, { path });
  }
  if (stat.type !== "file") throw new WorkspaceError("NOT_A_FILE", `Cannot ${action} '${path}': not a file`, { path });
  const text = await providerCall(action, path, () => provider.readFile(path));
  if (typeof text !== "string") throw badReply(action, path, "no text");
  return text;
}

/**
 * The fs tools over a seed-style {@link FsProvider}: `read_file`,
 * `write_file`, `edit_file`, `list_directory`, `create_directory` and
 * `delete_path`, with Paddock's names, schemas, validation and results.
 * `find_files`, `grep` and `move_path` need a Paddock workspace.
 *
 * @param provider The filesystem.
 * @param options Per-tool options.
 * @returns The tools.
 */
export function createProviderFsTools(provider: FsProvider, options: ProviderFsToolsOptions = {}): AnyTool[] {
  const blank = new MemoryWorkspace(); // for validation only: it never holds a file
  const tools: AnyTool[] = [];

  tools.push(overProvider(createReadTool(blank, options.read), async (input, signal) => {
    const path = relative(input.segments);
    const copy = new MemoryWorkspace({ files: { [path]: await readText(provider, "read", path) } });
    return await createReadTool(copy, options.read).run(input, { signal });
  }));

  if (options.write !== false) {
    const writeOptions = options.write;
    tools.push(overProvider(createWriteTool(blank, writeOptions), async (input) => {
      const path = relative(input.segments);
      if (input.segments.length > 1) {
        const parent = relative(input.segments.slice(0, -1));
        const folder = await statOf(provider, "write", parent);
        if (folder === undefined) await providerCall("write", path, () => provider.mkdir(parent));
        else if (folder.type !== "directory") {
          throw new WorkspaceError("NOT_A_DIRECTORY", `Cannot write '${path}': a path component is not a folder`, {
            path,
          });
        }
      }
      const target = await statOf(provider, "write", path);
      if (target !== undefined && target.type !== "file") {
        throw new WorkspaceError("NOT_A_FILE", `Cannot write '${path}': not a file`, { path });
      }
      await providerCall("write", path, () => provider.writeFile(path, new TextDecoder().decode(input.data)));
      return { path, bytes: input.data.length };
    }));
  }

  if (options.edit !== false) {
    const editOptions = options.edit;
    tools.push(overProvider(createEditTool(blank, editOptions), async (input, signal) => {
      const path = relative(input.segments);
      const copy = new MemoryWorkspace({ files: { [path]: await readText(provider, "edit", path) } });
      const output = await createEditTool(copy, editOptions).run(input, { signal });
      if (!output.dryRun && output.replacements > 0) {
        const edited = copy.snapshot()[path];
        await providerCall("edit", path, () => provider.writeFile(path, edited));
      }
      return output;
    }));
  }

  if (options.listDirectory !== false) {
    const listOptions = options.listDirectory;
    const maxEntries = listOptions?.maxEntries ?? LIST_DIRECTORY_MAX_ENTRIES;
    tools.push(overProvider(createListDirectoryTool(blank, listOptions), async (input) => {
      const path = relative(input.segments);
      // The root is a folder by definition (a provider may stat files only, as the seed's does).
      const stat: FsStat | undefined = input.segments.length === 0
        ? { type: "directory", size: 0 }
        : await statOf(provider, "list", path);
      if (stat === undefined) throw new WorkspaceError("NOT_FOUND", `Cannot list '${path}': no such folder`, { path });
      if (stat.type !== "directory") {
        throw new WorkspaceError("NOT_A_DIRECTORY", `Cannot list '${path}': not a folder`, { path });
      }
      const listed = await providerCall("list", path, () => provider.readdir(path));
      if (!Array.isArray(listed)) throw badReply("list", path, "no list");
      // A name that is not one valid segment ("..", "a/b") cannot be a child: it is left out.
      const entries: ListedEntry[] = listed
        .filter((entry) => typeof entry?.name === "string" && isOneSegment(entry.name))
        .map((entry): ListedEntry => ({ name: entry.name, kind: reportedKind(entry.type) }))
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const shown = entries.slice(0, Math.min(input.limit, maxEntries));
      return { path, entries: shown, total: entries.length, truncated: entries.length > shown.length };
    }));
  }

  if (options.createDirectory !== false) {
    tools.push(overProvider(createDirectoryTool(blank, options.createDirectory || undefined), async (input) => {
      const path = relative(input.segments);
      if (input.segments.length === 0) return { path, created: false };
      const stat = await statOf(provider, "create", path);
      if (stat?.type === "directory") return { path, created: false };
      if (stat !== undefined) {
        throw new WorkspaceError("ALREADY_EXISTS", `Cannot create '${path}': something else is there`, { path });
      }
      await providerCall("create", path, () => provider.mkdir(path));
      return { path, created: true };
    }));
  }

  if (options.delete !== false) {
    const maxEntries = options.delete?.maxEntries ?? DELETE_PATH_MAX_ENTRIES;
    tools.push(overProvider(createDeleteTool(blank, options.delete || undefined), async (input, signal) => {
      const path = relative(input.segments);
      if (input.segments.length === 0) {
        throw new WorkspaceError("WORKSPACE_ROOT_PROTECTED", "Cannot delete '.': the workspace root is never deleted", {
          path,
        });
      }
      const stat = await statOf(provider, "delete", path);
      if (stat === undefined) {
        throw new WorkspaceError("NOT_FOUND", `Cannot delete '${path}': no such file or folder`, { path });
      }
      const kind = reportedKind(stat.type);
      let removed = 1;
      if (kind === "directory") {
        // Counted first, as on disk: too many entries removes nothing.
        removed = await countTree(provider, path, maxEntries, signal);
        if (removed > 1 && !input.recursive) {
          throw new WorkspaceError("DIRECTORY_NOT_EMPTY", `Cannot delete '${path}': the folder is not empty`, {
            path,
            hint: "pass recursive: true to delete the folder and everything in it",
          });
        }
      }
      await providerCall(
        "delete",
        path,
        () => provider.rm(path, { recursive: kind === "directory" && input.recursive }),
      );
      return { path, kind, removed };
    }));
  }
  return tools;
}

function reportedKind(type: unknown): ListedEntry["kind"] {
  return type === "file" || type === "directory" || type === "symlink" ? type : "other";
}

function isOneSegment(name: string): boolean {
  try {
    const segments = normalizeWorkspacePath(name);
    return segments.length === 1 && segments[0] === name;
  } catch {
    return false;
  }
}

// Entries of a folder tree, the folder included, never through a link.
async function countTree(
  provider: FsProvider,
  path: string,
  maxEntries: number,
  signal: AbortSignal | undefined,
): Promise<number> {
  let count = 0;
  const pending = [path];
  while (pending.length > 0) {
    signal?.throwIfAborted();
    const folder = pending.pop() as string;
    count++;
    const entries = await providerCall("delete", path, () => provider.readdir(folder));
    for (const entry of Array.isArray(entries) ? entries : []) {
      if (typeof entry?.name !== "string" || !isOneSegment(entry.name)) continue;
      if (entry.type === "directory") pending.push(`${folder}/${entry.name}`);
      else count++;
      if (count > maxEntries) {
        throw new WorkspaceError("TOO_MANY_ENTRIES", `Cannot delete '${path}': more than ${maxEntries} entries`, {
          path,
        });
      }
    }
  }
  return count;
}
