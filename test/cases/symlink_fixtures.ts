import type { ErrorCode } from "../../src/core/errors.ts";
import type { Tree } from "../helpers/fixture.ts";

/**
 * The symlink fixture every tool replays: links that leave the workspace,
 * chains, loops and dangling links, and links that stay inside.
 */
export const SYMLINK_TREE: Tree = [
  "d/",
  "d/f.txt=inside",
  "file-out => @outside/secret.txt",
  "dir-out => @outside",
  "abs-out => /etc",
  "rel-out => ../outside/secret.txt",
  "deep-rel-out => d/../../outside",
  "chain1 => chain2",
  "chain2 => chain3",
  "chain3 => d/f.txt",
  "chain-out1 => chain-out2",
  "chain-out2 => file-out",
  "loop1 => loop2",
  "loop2 => loop1",
  "self => self",
  "dangling => missing.txt",
  "dangling-out => @outside/missing.txt",
  "in-file => d/f.txt",
  "in-dir => d",
  "abs-in => @root/d/f.txt",
  "d/up => ../d/f.txt",
];

/** A path through the symlink fixture and the code a tool reports for it (when it follows links). */
export interface SymlinkCase {
  name: string;
  path: string;
  /** Expected error code when a tool reads through the link; `null` = allowed. */
  read: ErrorCode | null;
  /** Expected error code when a tool writes through the link; `null` = allowed. */
  write: ErrorCode | null;
}

export const SYMLINK_CASES: readonly SymlinkCase[] = [
  { name: "file link out", path: "file-out", read: "PATH_ESCAPES_WORKSPACE", write: "PATH_ESCAPES_WORKSPACE" },
  { name: "relative file link out", path: "rel-out", read: "PATH_ESCAPES_WORKSPACE", write: "PATH_ESCAPES_WORKSPACE" },
  {
    name: "directory link out, existing file",
    path: "dir-out/secret.txt",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "directory link out, new file",
    path: "dir-out/new.txt",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "absolute link to /etc",
    path: "abs-out/passwd",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
  },
  {
    name: "link out through a folder and '..'",
    path: "deep-rel-out/secret.txt",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
  },
  { name: "chain ending outside", path: "chain-out1", read: "PATH_ESCAPES_WORKSPACE", write: "PATH_ESCAPES_WORKSPACE" },
  { name: "loop", path: "loop1", read: "SYMLINK_LOOP", write: "SYMLINK_LOOP" },
  { name: "self loop", path: "self", read: "SYMLINK_LOOP", write: "SYMLINK_LOOP" },
  { name: "dangling inside", path: "dangling", read: "DANGLING_SYMLINK", write: "DANGLING_SYMLINK" },
  { name: "dangling outside", path: "dangling-out", read: "PATH_ESCAPES_WORKSPACE", write: "PATH_ESCAPES_WORKSPACE" },
  { name: "chain staying inside", path: "chain1", read: null, write: null },
  { name: "file link inside", path: "in-file", read: null, write: null },
  { name: "folder link inside", path: "in-dir/f.txt", read: null, write: null },
  { name: "absolute link inside", path: "abs-in", read: null, write: null },
  { name: "link with '..' staying inside", path: "d/up", read: null, write: null },
];
