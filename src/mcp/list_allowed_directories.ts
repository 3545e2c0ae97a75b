import * as z from "zod";
import { defineTool } from "../tools/define_tool.ts";
import type { Tool } from "../tools/tool.ts";
import type { RootSet } from "./root_set.ts";

/** One served folder, as `list_allowed_directories` names it. */
export interface AllowedDirectory {
  /** The folder's name (its own folder name, made unique). */
  name: string;
  /** How paths address it: `NAME:` followed by the path inside it. */
  prefix: string;
  /** Whether bare paths (no prefix) address it. */
  default: boolean;
}

/** Result of `list_allowed_directories`. */
export interface ListAllowedDirectoriesOutput {
  /** The folders served now (the client's roots may have narrowed them), the default first. */
  roots: AllowedDirectory[];
}

/**
 * `list_allowed_directories` `{}` → `{roots: [{name, prefix, default}]}`: the
 * folders this server serves now, after the reference filesystem server's
 * tool of that name. Unlike the reference it names no absolute host path:
 * tools take paths relative to a root (bare for the default, `NAME:path` for
 * the others), so the names are what a model needs, and the host's layout
 * stays with the person who configured the server.
 *
 * @param roots The server's roots.
 * @returns The tool.
 */
export function createListAllowedDirectoriesTool(
  roots: RootSet,
): Tool<Record<string, never>, ListAllowedDirectoriesOutput> {
  return defineTool({
    name: "list_allowed_directories",
    description:
      "List the folders this server gives access to. Paths in other tools are relative to the default folder; " +
      "address another one as NAME:path (e.g. 'docs:guide.md').",
    readOnly: true,
    schema: z.object({}).strict(),
    prepare: (): Record<string, never> => ({}),
    run: () =>
      Promise.resolve({
        roots: roots.current().map((root) => ({ name: root.name, prefix: `${root.name}:`, default: root.isDefault })),
      }),
  });
}
