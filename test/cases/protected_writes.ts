/**
 * Attempts to change a protected path from inside a process: each row is one
 * attack, as a shell command (for a sandboxed `shell`) and as CommonJS (for
 * `node_process`), run in the workspace root of {@link PROTECTED_TREE}. After
 * any of them, every file of {@link PROTECTED_ORIGINALS} must hold its bytes
 * and none of {@link PROTECTED_ABSENT} may exist.
 */

/** The workspace every attack starts from (fixture notation). */
export const PROTECTED_TREE: readonly string[] = [
  'package.json={"scripts":{"test":"echo ok"}}',
  ".git/config=[core]\n\tbare = false\n",
  'sub/package.json={"name":"sub"}',
  "src/a.txt=plain",
  "src/pjlink => ../package.json",
  "lib/b.txt=plain",
];

/** Protected files and the bytes they must keep. */
export const PROTECTED_ORIGINALS: Readonly<Record<string, string>> = {
  "package.json": '{"scripts":{"test":"echo ok"}}',
  ".git/config": "[core]\n\tbare = false\n",
  "sub/package.json": '{"name":"sub"}',
};

/** Protected names that must not come to exist. */
export const PROTECTED_ABSENT: readonly string[] = [".git/hooks", "Makefile", "sub2", "g2"];

/** One attack. */
export interface ProtectedWriteCase {
  name: string;
  /** The shell command line. */
  sh: string;
  /** The same attack as CommonJS (errors are caught and printed). */
  js: string;
  /**
   * Whether read-only binds alone stop it (a sandbox without the runtime's
   * write list: Bun with `permissions: "inherit"`, a sandboxed shell); a
   * protected name that does not exist yet can be created there.
   */
  bindsStopIt: boolean;
}

const EVIL = `{"scripts":{"test":"touch pwned"}}`;

/** The attacks. */
export const PROTECTED_WRITE_CASES: readonly ProtectedWriteCase[] = [
  {
    name: "overwrite package.json",
    sh: `printf '%s' '${EVIL}' > package.json`,
    js: `fs.writeFileSync("package.json", ${JSON.stringify(EVIL)})`,
    bindsStopIt: true,
  },
  {
    name: "plant core.fsmonitor in .git/config",
    sh: `printf '\\tfsmonitor = touch pwned\\n' >> .git/config`,
    js: `fs.appendFileSync(".git/config", "\\tfsmonitor = touch pwned\\n")`,
    bindsStopIt: true,
  },
  {
    name: "create .git/hooks later",
    sh: `mkdir -p .git/hooks && printf '#!/bin/sh\\ntouch pwned\\n' > .git/hooks/pre-commit`,
    js: `fs.mkdirSync(".git/hooks", { recursive: true }); fs.writeFileSync(".git/hooks/pre-commit", "#!/bin/sh\\n")`,
    bindsStopIt: true,
  },
  {
    name: "overwrite a nested package.json",
    sh: `printf '%s' '${EVIL}' > sub/package.json`,
    js: `fs.writeFileSync("sub/package.json", ${JSON.stringify(EVIL)})`,
    bindsStopIt: true,
  },
  {
    name: "rename the folder holding package.json, change it, rename it back",
    sh: `mv sub sub2 && printf '%s' '${EVIL}' > sub2/package.json; mv sub2 sub`,
    js: `fs.renameSync("sub", "sub2"); fs.writeFileSync("sub2/package.json", ${
      JSON.stringify(EVIL)
    }); fs.renameSync("sub2", "sub")`,
    bindsStopIt: true,
  },
  {
    name: "rename a new file over package.json",
    sh: `printf '%s' '${EVIL}' > lib/p.json && mv -f lib/p.json package.json`,
    js: `fs.writeFileSync("lib/p.json", ${JSON.stringify(EVIL)}); fs.renameSync("lib/p.json", "package.json")`,
    bindsStopIt: true,
  },
  {
    name: "remove package.json and write a new one",
    sh: `rm -f package.json; printf '%s' '${EVIL}' > package.json`,
    js: `fs.rmSync("package.json", { force: true }); fs.writeFileSync("package.json", ${JSON.stringify(EVIL)})`,
    bindsStopIt: true,
  },
  {
    name: "write through a link in the workspace that points at package.json",
    sh: `printf '%s' '${EVIL}' > src/pjlink`,
    js: `fs.writeFileSync("src/pjlink", ${JSON.stringify(EVIL)})`,
    bindsStopIt: true,
  },
  {
    name: "hard-link package.json elsewhere and write in place",
    sh: `ln package.json lib/hl && printf '%s' '${EVIL}' >> lib/hl`,
    js: `fs.linkSync("package.json", "lib/hl"); fs.appendFileSync("lib/hl", ${JSON.stringify(EVIL)})`,
    bindsStopIt: true,
  },
  {
    name: "rename .git away",
    sh: `mv .git g2`,
    js: `fs.renameSync(".git", "g2")`,
    bindsStopIt: true,
  },
  {
    name: "create a Makefile that did not exist",
    sh: `printf 'all:\\n\\ttouch pwned\\n' > Makefile`,
    js: `fs.writeFileSync("Makefile", "all:\\n\\ttouch pwned\\n")`,
    bindsStopIt: false,
  },
];

/** The CommonJS source of one attack: prints `DONE` when every step succeeded, else `FAILED <code>`. */
export function attackSource(row: ProtectedWriteCase): string {
  return `const fs = require("node:fs");\ntry { ${row.js}; console.log("DONE"); } catch (e) { console.log("FAILED", e.code || e.name); }`;
}

/**
 * A change a file tool is asked to make to a protected path of
 * {@link PROTECTED_TREE}: every row must be refused with `PROTECTED_PATH` and
 * leave every byte as it was, whichever tools share the workspace, in whatever
 * order they were made, once a `shell` with an allow list exists over it.
 * `save_report` is a `defineTool` tool of the test that writes through the
 * workspace's `atomicWrite`.
 */
export interface ProtectedChangeCase {
  name: string;
  /** The tool's registered name. */
  tool: string;
  /** The call's arguments. */
  args: Readonly<Record<string, unknown>>;
}

/** The changes every composition must refuse. */
export const PROTECTED_TOOL_CHANGES: readonly ProtectedChangeCase[] = [
  { name: "write package.json", tool: "write_file", args: { path: "package.json", content: EVIL } },
  {
    name: "plant core.fsmonitor",
    tool: "write_file",
    args: { path: ".git/config", content: "[core]\n\tfsmonitor = touch pwned\n" },
  },
  { name: "write through a link to package.json", tool: "write_file", args: { path: "src/pjlink", content: EVIL } },
  { name: "create a Makefile", tool: "write_file", args: { path: "Makefile", content: "all:\n\ttouch pwned\n" } },
  { name: "create a git hook", tool: "write_file", args: { path: ".git/hooks/pre-commit", content: "#!/bin/sh\n" } },
  { name: "write a nested package.json", tool: "write_file", args: { path: "sub/package.json", content: EVIL } },
  {
    name: "edit package.json",
    tool: "edit_file",
    args: { path: "package.json", old_string: "echo ok", new_string: "touch pwned" },
  },
  {
    name: "edit through a link to package.json",
    tool: "edit_file",
    args: { path: "src/pjlink", old_string: "echo ok", new_string: "touch pwned" },
  },
  {
    name: "move a file over package.json",
    tool: "move_path",
    args: { source: "lib/b.txt", destination: "package.json", overwrite: true },
  },
  { name: "move package.json away", tool: "move_path", args: { source: "package.json", destination: "lib/p.json" } },
  { name: "move .git away", tool: "move_path", args: { source: ".git", destination: "g2" } },
  { name: "delete package.json", tool: "delete_path", args: { path: "package.json" } },
  { name: "delete .git", tool: "delete_path", args: { path: ".git", recursive: true } },
  {
    name: "delete the folder holding a nested package.json",
    tool: "delete_path",
    args: { path: "sub", recursive: true },
  },
  {
    name: "move the folder holding a nested package.json",
    tool: "move_path",
    args: { source: "sub", destination: "sub2" },
  },
  { name: "create .git/hooks", tool: "create_directory", args: { path: ".git/hooks" } },
  { name: "create .husky", tool: "create_directory", args: { path: ".husky" } },
  { name: "a defineTool tool writes package.json", tool: "save_report", args: { path: "package.json", text: EVIL } },
  {
    name: "a defineTool tool writes through a link to package.json",
    tool: "save_report",
    args: { path: "src/pjlink", text: EVIL },
  },
];

/**
 * Protected names that are symbolic links inside the workspace (issue #39,
 * item 3): `package.json -> cfg/real.json`, `.git -> gitdir`, an absolute
 * link, a dangling one, and a link to a protected link. What a protected
 * name leads to is protected with it: every row of
 * {@link PROTECTED_LINK_CHANGES} must be refused with `PROTECTED_PATH`.
 */
export const PROTECTED_LINK_TREE: readonly string[] = [
  'cfg/real.json={"scripts":{"test":"echo ok"}}',
  "package.json => cfg/real.json",
  "gitdir/config=[core]\n\tbare = false\n",
  ".git => gitdir",
  "cfg/deno.real={}",
  "deno.json => @root/cfg/deno.real",
  "sub/package.json => ../later/pkg.json",
  "alias => package.json",
  "lib/b.txt=plain",
];

/** The files of {@link PROTECTED_LINK_TREE} that must keep their bytes, and a name that must not come to exist. */
export const PROTECTED_LINK_ORIGINALS: Readonly<Record<string, string>> = {
  "cfg/real.json": '{"scripts":{"test":"echo ok"}}',
  "gitdir/config": "[core]\n\tbare = false\n",
  "cfg/deno.real": "{}",
};
export const PROTECTED_LINK_ABSENT: readonly string[] = [
  "later",
  "gitdir/hooks",
  "cfg3",
  "g2",
  "lib/p.json",
  "lib/sub",
];

const patch = (body: string) => `*** Begin Patch\n${body}*** End Patch\n`;

/** Changes through names that are not protected, to what a protected link leads to. */
export const PROTECTED_LINK_CHANGES: readonly ProtectedChangeCase[] = [
  { name: "write the target of package.json", tool: "write_file", args: { path: "cfg/real.json", content: EVIL } },
  {
    name: "edit the target of package.json",
    tool: "edit_file",
    args: { path: "cfg/real.json", old_string: "echo ok", new_string: "touch pwned" },
  },
  {
    name: "patch the target of package.json",
    tool: "apply_patch",
    args: { patch: patch(`*** Update File: cfg/real.json\n@@\n-{"scripts":{"test":"echo ok"}}\n+${EVIL}\n`) },
  },
  { name: "patch-delete the target", tool: "apply_patch", args: { patch: patch("*** Delete File: cfg/real.json\n") } },
  { name: "write through a link to package.json", tool: "write_file", args: { path: "alias", content: EVIL } },
  {
    name: "move a file over the target",
    tool: "move_path",
    args: { source: "lib/b.txt", destination: "cfg/real.json", overwrite: true },
  },
  { name: "move the target away", tool: "move_path", args: { source: "cfg/real.json", destination: "lib/p.json" } },
  { name: "move the folder holding the target", tool: "move_path", args: { source: "cfg", destination: "cfg3" } },
  { name: "delete the target", tool: "delete_path", args: { path: "cfg/real.json" } },
  { name: "delete the folder holding the target", tool: "delete_path", args: { path: "cfg", recursive: true } },
  { name: "write the absolute link's target", tool: "write_file", args: { path: "cfg/deno.real", content: "{}\n" } },
  { name: "plant core.fsmonitor through .git", tool: "write_file", args: { path: "gitdir/config", content: EVIL } },
  { name: "create a hook through .git", tool: "write_file", args: { path: "gitdir/hooks/pre-commit", content: "x" } },
  { name: "create the hooks folder through .git", tool: "create_directory", args: { path: "gitdir/hooks" } },
  { name: "move the git folder away", tool: "move_path", args: { source: "gitdir", destination: "g2" } },
  { name: "delete the git folder", tool: "delete_path", args: { path: "gitdir", recursive: true } },
  {
    name: "move the folder holding a protected link",
    tool: "move_path",
    args: { source: "sub", destination: "lib/sub" },
  },
  { name: "delete the folder holding a protected link", tool: "delete_path", args: { path: "sub", recursive: true } },
  {
    name: "make what a dangling protected link leads to",
    tool: "write_file",
    args: { path: "later/pkg.json", content: EVIL },
  },
  {
    name: "patch-add what a dangling protected link leads to",
    tool: "apply_patch",
    args: { patch: patch(`*** Add File: later/pkg.json\n+${EVIL}\n`) },
  },
];
