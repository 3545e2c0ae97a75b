/** The MCP behaviour hints of one tool (`annotations` in `tools/list`). */
export interface McpToolAnnotations {
  /** The tool changes nothing. */
  readOnlyHint: boolean;
  /** A change it makes may overwrite or remove what was there (meaningful when not read-only). */
  destructiveHint: boolean;
  /** Calling it again with the same arguments has no further effect. */
  idempotentHint: boolean;
  /** It reaches beyond the workspace: a program it runs may do anything the process may. */
  openWorldHint: boolean;
}

type Hints = Omit<McpToolAnnotations, "readOnlyHint">;

/**
 * The built-in tools' hints, by name. Reads are idempotent and closed;
 * `write_file` replaces a file (destructive, but the same call twice leaves
 * the same file); `edit_file` and `apply_patch` rewrite content (a patch also deletes and moves); `delete_path` removes;
 * `move_path` replaces an existing destination when asked (`overwrite`);
 * `node_process` and `shell` run programs, whose effects are not confined
 * by the path checks (open world).
 */
const BUILT_IN: Readonly<Record<string, Hints>> = {
  read_file: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  read_multiple_files: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  list_directory: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  find_files: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  grep: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  read_media_file: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  directory_tree: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  get_file_info: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  list_allowed_directories: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write_file: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
  edit_file: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  apply_patch: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  create_directory: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
  delete_path: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  move_path: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  undo_last_change: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  node_process: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  shell: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  // Background processes: reading output consumes it; input goes to a program; a kill ends one.
  process_output: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
  process_input: { destructiveHint: true, idempotentHint: false, openWorldHint: true },
  process_kill: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
  process_list: { destructiveHint: false, idempotentHint: true, openWorldHint: false },
};

/**
 * The hints for a tool. A built-in tool (by its default name) gets its own;
 * any other tool gets the cautious defaults MCP itself assumes for a tool
 * that changes things (destructive, not idempotent, open world).
 *
 * @param name The tool's name.
 * @param readOnly Whether the tool changes nothing.
 * @param openWorld What the tool says its programs can reach under the configuration in force (`Tool.openWorld`), when it says.
 * @returns The annotations.
 */
export function toolAnnotations(name: string, readOnly: boolean, openWorld?: boolean): McpToolAnnotations {
  const known = Object.hasOwn(BUILT_IN, name) ? BUILT_IN[name] : undefined;
  if (known !== undefined) {
    return {
      readOnlyHint: readOnly,
      ...known,
      ...(readOnly ? { destructiveHint: false } : {}),
      // What the configuration in force lets the programs reach (e.g. a network-less sandbox), where the tool says.
      ...(openWorld === undefined ? {} : { openWorldHint: openWorld }),
    };
  }
  return readOnly
    ? { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    : { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
}
