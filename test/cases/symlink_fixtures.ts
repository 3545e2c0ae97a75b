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
  // A target ending in '/' (or '/.') must lead to a folder (POSIX, Go's os.Root: ENOTDIR).
  "file-slash => d/f.txt/",
  "file-slash-dot => d/f.txt/.",
  "link-slash => in-file/",
  "chain-slash => file-slash",
  "dir-slash => d/",
];

/** The file every link that stays inside ends at, and what the fixture writes in it. */
export const LINKED_FILE = "d/f.txt";
export const LINKED_CONTENT = "inside";

/**
 * A path through the symlink fixture: the code each kind of call reports for
 * it, and its effect columns (after Go's `ltarget`): which entry the path
 * names and where it leads. The replay (test/cases/tool_replay.ts) derives
 * from them what must exist, be gone or be unchanged afterwards; outside the
 * workspace nothing ever changes.
 */
export interface SymlinkCase {
  name: string;
  path: string;
  /** Code when a tool reads through the path (read_file); `null` = allowed, it reads {@link target}. */
  read: ErrorCode | null;
  /** Code when a tool writes through the path (write_file, edit_file); `null` = allowed, it changes {@link target}. */
  write: ErrorCode | null;
  /** Code of delete_path on the path; `null` = it removes {@link entry} (a final link itself, never what it names). */
  delete: ErrorCode | null;
  /** Code of move_path from the path; `null` = {@link entry} moves (a link as a link), unless its target read from the new place would leave the workspace. */
  moveFrom: ErrorCode | null;
  /** Code of move_path onto the path (without overwrite): every path here is taken, or behind a link out. */
  moveOnto: ErrorCode;
  /** The entry the path names, its final link not followed; `null` when reaching it leaves the workspace. */
  entry: string | null;
  /** Where the path leads once every link is followed (Go's `ltarget`), when that is inside; else `null`. */
  target: string | null;
}

export const SYMLINK_CASES: readonly SymlinkCase[] = [
  {
    name: "file link out",
    path: "file-out",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: null,
    moveFrom: "PATH_ESCAPES_WORKSPACE", // the moved link would still point outside
    moveOnto: "ALREADY_EXISTS",
    entry: "file-out",
    target: null,
  },
  {
    name: "relative file link out",
    path: "rel-out",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: null,
    moveFrom: "PATH_ESCAPES_WORKSPACE",
    moveOnto: "ALREADY_EXISTS",
    entry: "rel-out",
    target: null,
  },
  {
    name: "directory link out, existing file",
    path: "dir-out/secret.txt",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: "PATH_ESCAPES_WORKSPACE",
    moveFrom: "PATH_ESCAPES_WORKSPACE",
    moveOnto: "PATH_ESCAPES_WORKSPACE",
    entry: null,
    target: null,
  },
  {
    name: "directory link out, new file",
    path: "dir-out/new.txt",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: "PATH_ESCAPES_WORKSPACE",
    moveFrom: "PATH_ESCAPES_WORKSPACE",
    moveOnto: "PATH_ESCAPES_WORKSPACE",
    entry: null,
    target: null,
  },
  {
    name: "absolute link to /etc",
    path: "abs-out/passwd",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: "PATH_ESCAPES_WORKSPACE",
    moveFrom: "PATH_ESCAPES_WORKSPACE",
    moveOnto: "PATH_ESCAPES_WORKSPACE",
    entry: null,
    target: null,
  },
  {
    name: "link out through a folder and '..'",
    path: "deep-rel-out/secret.txt",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: "PATH_ESCAPES_WORKSPACE",
    moveFrom: "PATH_ESCAPES_WORKSPACE",
    moveOnto: "PATH_ESCAPES_WORKSPACE",
    entry: null,
    target: null,
  },
  {
    name: "chain ending outside",
    path: "chain-out1",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: null,
    moveFrom: null, // its target 'chain-out2' stays inside
    moveOnto: "ALREADY_EXISTS",
    entry: "chain-out1",
    target: null,
  },
  {
    name: "loop",
    path: "loop1",
    read: "SYMLINK_LOOP",
    write: "SYMLINK_LOOP",
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "loop1",
    target: null,
  },
  {
    name: "self loop",
    path: "self",
    read: "SYMLINK_LOOP",
    write: "SYMLINK_LOOP",
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "self",
    target: null,
  },
  {
    name: "dangling inside",
    path: "dangling",
    read: "DANGLING_SYMLINK",
    write: "DANGLING_SYMLINK",
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "dangling",
    target: null,
  },
  {
    name: "dangling outside",
    path: "dangling-out",
    read: "PATH_ESCAPES_WORKSPACE",
    write: "PATH_ESCAPES_WORKSPACE",
    delete: null,
    moveFrom: "PATH_ESCAPES_WORKSPACE",
    moveOnto: "ALREADY_EXISTS",
    entry: "dangling-out",
    target: null,
  },
  {
    name: "chain staying inside",
    path: "chain1",
    read: null,
    write: null,
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "chain1",
    target: LINKED_FILE,
  },
  {
    name: "file link inside",
    path: "in-file",
    read: null,
    write: null,
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "in-file",
    target: LINKED_FILE,
  },
  {
    name: "folder link inside",
    path: "in-dir/f.txt",
    read: null,
    write: null,
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: LINKED_FILE, // the walk follows the folder link: the path names the file itself
    target: LINKED_FILE,
  },
  {
    name: "absolute link inside",
    path: "abs-in",
    read: null,
    write: null,
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "abs-in",
    target: LINKED_FILE,
  },
  {
    name: "link with '..' staying inside",
    path: "d/up",
    read: null,
    write: null,
    delete: null,
    moveFrom: "PATH_ESCAPES_WORKSPACE", // '../d/f.txt' read from the root leaves it
    moveOnto: "ALREADY_EXISTS",
    entry: "d/up",
    target: LINKED_FILE,
  },
  {
    name: "link to a file, its target ending in '/'",
    path: "file-slash",
    read: "NOT_A_DIRECTORY",
    write: "NOT_A_DIRECTORY",
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "file-slash",
    target: null,
  },
  {
    name: "link to a file, its target ending in '/.'",
    path: "file-slash-dot",
    read: "NOT_A_DIRECTORY",
    write: "NOT_A_DIRECTORY",
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "file-slash-dot",
    target: null,
  },
  {
    name: "link to a link to a file, its target ending in '/'",
    path: "link-slash",
    read: "NOT_A_DIRECTORY",
    write: "NOT_A_DIRECTORY",
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "link-slash",
    target: null,
  },
  {
    name: "chain ending in a link whose target ends in '/'",
    path: "chain-slash",
    read: "NOT_A_DIRECTORY",
    write: "NOT_A_DIRECTORY",
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: "chain-slash",
    target: null,
  },
  {
    name: "link to a folder, its target ending in '/'",
    path: "dir-slash/f.txt",
    read: null,
    write: null,
    delete: null,
    moveFrom: null,
    moveOnto: "ALREADY_EXISTS",
    entry: LINKED_FILE,
    target: LINKED_FILE,
  },
  // The caller's own trailing '/' means the same (Go's os.Root: Open("file/") is ENOTDIR).
  {
    name: "a file named with a trailing '/'",
    path: "d/f.txt/",
    read: "NOT_A_DIRECTORY",
    write: "NOT_A_DIRECTORY",
    delete: "NOT_A_DIRECTORY",
    moveFrom: "NOT_A_DIRECTORY",
    moveOnto: "NOT_A_DIRECTORY", // a file never moves onto a name ending in '/' (rename(2): ENOTDIR)
    entry: LINKED_FILE,
    target: null,
  },
  {
    name: "a link to a file named with a trailing '/'",
    path: "in-file/",
    read: "NOT_A_DIRECTORY",
    write: "NOT_A_DIRECTORY",
    delete: "NOT_A_DIRECTORY",
    moveFrom: "NOT_A_DIRECTORY",
    moveOnto: "NOT_A_DIRECTORY", // a file never moves onto a name ending in '/' (rename(2): ENOTDIR)
    entry: "in-file",
    target: null,
  },
];

/**
 * `move_path {source, destination, overwrite: true}` onto a destination
 * ending in `/` (or `/.`) on {@link SYMLINK_TREE}: such a destination names a
 * folder, so a file or link never moves there and nothing is replaced (Linux
 * `rename(2)`, node:fs and Go's `os.Root` say `ENOTDIR`; `EBUSY` for
 * `link/.`). A folder moves onto a missing name, never onto a file or a link.
 */
export interface SlashDestinationCase {
  name: string;
  /** What moves: a file of the replay tree, or the folder `d`. */
  source: string;
  destination: string;
  /** The code; `null`: the source moves to the destination's name (nothing else changes). */
  code: ErrorCode | null;
}

export const SLASH_DESTINATION_CASES: readonly SlashDestinationCase[] = [
  { name: "a link to a file", source: "src.txt", destination: "in-file/", code: "NOT_A_DIRECTORY" },
  { name: "a link to a folder", source: "src.txt", destination: "in-dir/", code: "NOT_A_DIRECTORY" },
  { name: "a link to an absolute path outside", source: "src.txt", destination: "abs-out/", code: "NOT_A_DIRECTORY" },
  { name: "a file", source: "src.txt", destination: "d/f.txt/", code: "NOT_A_DIRECTORY" },
  { name: "a file, with '/.'", source: "src.txt", destination: "d/f.txt/.", code: "NOT_A_DIRECTORY" },
  { name: "a link to a link", source: "src.txt", destination: "chain1/", code: "NOT_A_DIRECTORY" },
  { name: "a link to a link, with '/.'", source: "src.txt", destination: "chain1/.", code: "NOT_A_DIRECTORY" },
  { name: "a missing name, a file moving", source: "src.txt", destination: "new/", code: "NOT_A_DIRECTORY" },
  { name: "a link to a file, a folder moving", source: "d", destination: "in-file/", code: "NOT_A_DIRECTORY" },
  { name: "a file, a folder moving", source: "d", destination: "src.txt/", code: "NOT_A_DIRECTORY" },
  { name: "a missing name, a folder moving", source: "d", destination: "new/", code: null },
];
