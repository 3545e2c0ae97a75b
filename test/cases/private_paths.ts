/**
 * Private paths (issue #41, item 1): one workspace, the patterns declared on
 * it, and every tool call that names a private path (as given, or through a
 * link inside the workspace). Each call must answer `PATH_PRIVATE` and change
 * nothing; the listings and searches must leave the private entries out and
 * count them. Replayed on every host by test/private_paths.test.ts.
 */

/** The patterns declared on the workspace. */
export const PRIVATE_PATTERNS: readonly string[] = [".env", ".env.*", "secrets/**"];

/** The workspace (fixture notation: `name=content`, `folder/`, `link => target`). */
export const PRIVATE_TREE: readonly string[] = [
  ".env=KEY=disk-secret",
  "config/.env.local=KEY=local-secret",
  "config/app.json={}",
  "secrets/token.txt=KEY=token-secret",
  "secrets/sub/deep.txt=KEY=deep-secret",
  "app.txt=KEY=public",
  "src/a.ts=const KEY = 1;",
  "notes => .env",
  "vault => secrets",
  "src/cfg => ../config/.env.local",
];

/** Every file of the tree and its bytes, which no call may change. */
export const PRIVATE_ORIGINALS: Readonly<Record<string, string>> = {
  ".env": "KEY=disk-secret",
  "config/.env.local": "KEY=local-secret",
  "config/app.json": "{}",
  "secrets/token.txt": "KEY=token-secret",
  "secrets/sub/deep.txt": "KEY=deep-secret",
  "app.txt": "KEY=public",
  "src/a.ts": "const KEY = 1;",
};

/** The secrets: no result of any call may hold one. */
export const PRIVATE_SECRETS: readonly string[] = ["disk-secret", "local-secret", "token-secret", "deep-secret"];

/** One call that names a private path. */
export interface PrivateCall {
  name: string;
  tool: string;
  args: Record<string, unknown>;
}

const PATCH_UPDATE = "*** Begin Patch\n*** Update File: .env\n@@\n-KEY=disk-secret\n+KEY=changed\n*** End Patch";
const PATCH_ADD = "*** Begin Patch\n*** Add File: secrets/new.txt\n+x\n*** End Patch";
const PATCH_TWO = "*** Begin Patch\n*** Update File: app.txt\n@@\n-KEY=public\n+KEY=changed\n" +
  "*** Update File: notes\n@@\n-KEY=disk-secret\n+KEY=changed\n*** End Patch";
const PATCH_MOVE =
  "*** Begin Patch\n*** Update File: app.txt\n*** Move to: config/.env.prod\n@@\n-KEY=public\n+KEY=moved\n" +
  "*** End Patch";

/** Every call refused with `PATH_PRIVATE`. */
export const PRIVATE_REFUSALS: readonly PrivateCall[] = [
  { name: "read_file .env", tool: "read_file", args: { path: ".env" } },
  { name: "read_file a nested .env.*", tool: "read_file", args: { path: "config/.env.local" } },
  { name: "read_file below a private folder", tool: "read_file", args: { path: "secrets/token.txt" } },
  { name: "read_file deep below a private folder", tool: "read_file", args: { path: "secrets/sub/deep.txt" } },
  { name: "read_file through a link to .env", tool: "read_file", args: { path: "notes" } },
  { name: "read_file through a link to a private folder", tool: "read_file", args: { path: "vault/token.txt" } },
  { name: "read_file through a relative link", tool: "read_file", args: { path: "src/cfg" } },
  { name: "read_file .env in another case", tool: "read_file", args: { path: ".ENV" } },
  { name: "read_file a private path that does not exist", tool: "read_file", args: { path: "secrets/none.txt" } },
  { name: "write_file over .env", tool: "write_file", args: { path: ".env", content: "KEY=x" } },
  { name: "write_file a new private name", tool: "write_file", args: { path: "config/.env.prod", content: "x" } },
  { name: "write_file into a private folder", tool: "write_file", args: { path: "secrets/new.txt", content: "x" } },
  { name: "write_file through a link to .env", tool: "write_file", args: { path: "notes", content: "x" } },
  {
    name: "write_file into a new folder below a link to a private folder",
    tool: "write_file",
    args: { path: "vault/n/new.txt", content: "x" },
  },
  { name: "edit_file .env", tool: "edit_file", args: { path: ".env", old_string: "KEY", new_string: "K" } },
  { name: "edit_file through a link", tool: "edit_file", args: { path: "notes", old_string: "KEY", new_string: "K" } },
  { name: "apply_patch an update of .env", tool: "apply_patch", args: { patch: PATCH_UPDATE } },
  { name: "apply_patch an add in a private folder", tool: "apply_patch", args: { patch: PATCH_ADD } },
  {
    name: "apply_patch two files, the second through a link to .env (the first is not changed)",
    tool: "apply_patch",
    args: { patch: PATCH_TWO },
  },
  { name: "apply_patch a move onto a private name", tool: "apply_patch", args: { patch: PATCH_MOVE } },
  { name: "move_path .env out", tool: "move_path", args: { source: ".env", destination: "public.txt" } },
  { name: "move_path onto .env", tool: "move_path", args: { source: "app.txt", destination: ".env", overwrite: true } },
  {
    name: "move_path into a private folder",
    tool: "move_path",
    args: { source: "app.txt", destination: "secrets/app.txt" },
  },
  { name: "move_path a private folder out", tool: "move_path", args: { source: "secrets", destination: "open" } },
  {
    name: "move_path through a link to a private folder",
    tool: "move_path",
    args: { source: "vault/token.txt", destination: "t.txt" },
  },
  { name: "delete_path .env", tool: "delete_path", args: { path: ".env" } },
  { name: "delete_path a private folder", tool: "delete_path", args: { path: "secrets", recursive: true } },
  {
    name: "delete_path a folder holding a private file (nothing of it is removed)",
    tool: "delete_path",
    args: { path: "config", recursive: true },
  },
  { name: "create_directory in a private folder", tool: "create_directory", args: { path: "secrets/new" } },
  { name: "get_file_info .env", tool: "get_file_info", args: { path: ".env" } },
  { name: "get_file_info through a link", tool: "get_file_info", args: { path: "notes" } },
  { name: "read_media_file in a private folder", tool: "read_media_file", args: { path: "secrets/token.txt" } },
  { name: "list_directory a private folder", tool: "list_directory", args: { path: "secrets" } },
  { name: "list_directory through a link to a private folder", tool: "list_directory", args: { path: "vault" } },
  { name: "directory_tree a private folder", tool: "directory_tree", args: { path: "secrets" } },
  { name: "find_files in a private folder", tool: "find_files", args: { pattern: "**/*", path: "secrets" } },
  { name: "grep .env", tool: "grep", args: { pattern: "KEY", path: ".env" } },
  { name: "grep a private folder", tool: "grep", args: { pattern: "KEY", path: "secrets" } },
  { name: "grep through a link to a private folder", tool: "grep", args: { pattern: "KEY", path: "vault" } },
];

/** A listing or search of the whole workspace, what it shows, and how many entries it says it left out. */
export interface PrivateListing {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  /** The names or paths shown, from the result. */
  // deno-lint-ignore no-explicit-any
  shown: (body: any) => string[];
  expected: string[];
  leftOut: number;
}

/** Listings and searches: private entries left out and counted (a private folder counts once, unentered). */
export const PRIVATE_LISTINGS: readonly PrivateListing[] = [
  {
    name: "list_directory of the root",
    tool: "list_directory",
    args: { path: "." },
    shown: (body) => body.entries.map((entry: { name: string }) => entry.name),
    expected: ["app.txt", "config", "notes", "src", "vault"],
    leftOut: 2,
  },
  {
    name: "list_directory of a folder holding a .env.*",
    tool: "list_directory",
    args: { path: "config" },
    shown: (body) => body.entries.map((entry: { name: string }) => entry.name),
    expected: ["app.json"],
    leftOut: 1,
  },
  {
    name: "find_files of everything",
    tool: "find_files",
    args: { pattern: "**/*" },
    shown: (body) => body.paths,
    expected: ["app.txt", "config/app.json", "notes", "src/a.ts", "src/cfg", "vault"],
    leftOut: 3,
  },
  {
    name: "find_files with a literal private folder in the glob",
    tool: "find_files",
    args: { pattern: "secrets/**/*" },
    shown: (body) => body.paths,
    expected: [],
    leftOut: 1,
  },
  {
    name: "grep of the whole workspace",
    tool: "grep",
    args: { pattern: "KEY", output_mode: "files_with_matches" },
    shown: (body) => body.files,
    expected: ["app.txt", "src/a.ts"],
    leftOut: 3,
  },
  {
    name: "grep with a glob naming .env",
    tool: "grep",
    args: { pattern: "KEY", glob: "**/.env*", output_mode: "files_with_matches" },
    shown: (body) => body.files,
    expected: [],
    leftOut: 3,
  },
  {
    name: "directory_tree of the root",
    tool: "directory_tree",
    args: { path: "." },
    shown: (body) => flatten(body.tree, ""),
    expected: ["app.txt", "config/", "config/app.json", "notes", "src/", "src/a.ts", "src/cfg", "vault"],
    leftOut: 3,
  },
];

function flatten(nodes: Array<{ name: string; kind: string; children?: unknown[] }>, prefix: string): string[] {
  return nodes.flatMap((node) =>
    node.kind === "directory"
      ? [`${prefix}${node.name}/`, ...flatten((node.children ?? []) as typeof nodes, `${prefix}${node.name}/`)]
      : [`${prefix}${node.name}`]
  );
}
