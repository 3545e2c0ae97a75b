import type { ErrorCode } from "../../src/core/errors.ts";

/** One hostile path and the argument error every path-taking tool must report for it. */
export interface HostilePathCase {
  /** What the row attacks. */
  name: string;
  path: string;
  code: ErrorCode;
  /** The exact hint the refusal carries, where the row pins one (the `..` rows). */
  hint?: string;
}

/** The `..` refusal's hint: the path without '..', or that it would leave the root (parent_segment_hint.ts). */
const RULE = "paths start at the workspace root and may not hold '..'";
const without = (path: string) => `write '${path}' (the path without '..'): ${RULE}`;
const ABOVE = `'..' here would leave the workspace, which no tool can reach: ${RULE}; name a file inside it`;

const long = "a".repeat(256);

/**
 * Hostile workspace paths, refused by the path grammar before any side
 * effect. Every tool that takes a path replays this table on every host; a new
 * attack is one new row.
 */
export const HOSTILE_PATHS: readonly HostilePathCase[] = [
  { name: "empty", path: "", code: "INVALID_RELATIVE_PATH" },
  { name: "NUL byte", path: "a\0b", code: "INVALID_RELATIVE_PATH" },
  { name: "POSIX parent", path: "../outside/secret.txt", code: "INVALID_RELATIVE_PATH", hint: ABOVE },
  { name: "POSIX parent in the middle", path: "a/../../x", code: "INVALID_RELATIVE_PATH", hint: ABOVE },
  {
    name: "POSIX parent after a folder that exists",
    path: "d/../f",
    code: "INVALID_RELATIVE_PATH",
    hint: without("f"),
  },
  {
    name: "parent inside the root (#43)",
    path: "src/../run.sh",
    code: "INVALID_RELATIVE_PATH",
    hint: without("run.sh"),
  },
  { name: "parent after two folders", path: "a/b/../c/./d", code: "INVALID_RELATIVE_PATH", hint: without("a/c/d") },
  { name: "parent back to the root", path: "d/..", code: "INVALID_RELATIVE_PATH", hint: without(".") },
  {
    name: "parent through a link (never resolved)",
    path: "link/../f",
    code: "INVALID_RELATIVE_PATH",
    hint: without("f"),
  },
  {
    name: "parent whose rest the grammar refuses too (no suggestion)",
    path: "d/../CON",
    code: "INVALID_RELATIVE_PATH",
    hint: `${RULE}; write the path from the workspace root`,
  },
  { name: "lone parent", path: "..", code: "INVALID_RELATIVE_PATH", hint: ABOVE },
  { name: "Windows parent", path: "..\\outside\\secret.txt", code: "INVALID_RELATIVE_PATH", hint: ABOVE },
  { name: "mixed separators parent", path: "a\\..\\../x", code: "INVALID_RELATIVE_PATH", hint: ABOVE },
  {
    name: "Windows parent inside the root",
    path: "src\\..\\run.sh",
    code: "INVALID_RELATIVE_PATH",
    hint: without("run.sh"),
  },
  { name: "POSIX absolute", path: "/etc/passwd", code: "INVALID_RELATIVE_PATH" },
  { name: "POSIX absolute root", path: "/", code: "INVALID_RELATIVE_PATH" },
  {
    name: "home tilde (a shell expands it; the grammar must not create a folder named '~')",
    path: "~/.ssh/id_rsa",
    code: "INVALID_RELATIVE_PATH",
  },
  { name: "lone tilde", path: "~", code: "INVALID_RELATIVE_PATH" },
  { name: "Windows root-relative", path: "\\Windows\\win.ini", code: "INVALID_RELATIVE_PATH" },
  { name: "drive absolute", path: "C:\\Windows\\win.ini", code: "INVALID_RELATIVE_PATH" },
  { name: "drive absolute forward", path: "c:/x", code: "INVALID_RELATIVE_PATH" },
  { name: "drive-relative", path: "C:x", code: "INVALID_RELATIVE_PATH" },
  { name: "UNC backslash", path: "\\\\server\\share\\x", code: "INVALID_RELATIVE_PATH" },
  { name: "UNC forward", path: "//server/share/x", code: "INVALID_RELATIVE_PATH" },
  { name: "device namespace", path: "\\\\.\\PhysicalDrive0", code: "INVALID_RELATIVE_PATH" },
  { name: "long path namespace", path: "\\\\?\\C:\\x", code: "INVALID_RELATIVE_PATH" },
  { name: "NT object namespace", path: "\\??\\C:\\x", code: "INVALID_RELATIVE_PATH" },
  { name: "alternate data stream", path: "f:secret", code: "INVALID_RELATIVE_PATH" },
  { name: "ADS default stream", path: "d/f::$DATA", code: "INVALID_RELATIVE_PATH" },
  { name: "device name", path: "CON", code: "INVALID_RELATIVE_PATH" },
  { name: "device name lower case", path: "nul", code: "INVALID_RELATIVE_PATH" },
  { name: "device name mixed case with extension", path: "d/Aux.txt", code: "INVALID_RELATIVE_PATH" },
  { name: "device name with two extensions", path: "prn.tar.gz", code: "INVALID_RELATIVE_PATH" },
  { name: "COM port", path: "com1", code: "INVALID_RELATIVE_PATH" },
  { name: "LPT port with extension", path: "LPT9.log", code: "INVALID_RELATIVE_PATH" },
  { name: "COM superscript", path: "COM¹", code: "INVALID_RELATIVE_PATH" },
  { name: "console input", path: "CONIN$", code: "INVALID_RELATIVE_PATH" },
  { name: "device name before trailing space", path: "nul .txt", code: "INVALID_RELATIVE_PATH" },
  { name: "trailing dot", path: "f.", code: "INVALID_RELATIVE_PATH" },
  { name: "trailing dots", path: "d/...", code: "INVALID_RELATIVE_PATH" },
  { name: "trailing space", path: "f ", code: "INVALID_RELATIVE_PATH" },
  { name: "folder with trailing space", path: "d /f", code: "INVALID_RELATIVE_PATH" },
  {
    name: "lone surrogate (stored as U+FFFD, a second spelling of another name)",
    path: "x\uD800.txt",
    code: "INVALID_RELATIVE_PATH",
  },
  { name: "over-long segment", path: long, code: "PATH_TOO_LONG" },
  { name: "over-long path", path: Array(900).fill("abcd").join("/"), code: "PATH_TOO_LONG" },
];

/** Paths the grammar accepts, with the segments it gives. */
export const NORMALIZED_PATHS: readonly { path: string; segments: string[] }[] = [
  { path: ".", segments: [] },
  { path: "./", segments: [] },
  { path: "a", segments: ["a"] },
  { path: "a/b/c.txt", segments: ["a", "b", "c.txt"] },
  { path: "a\\b\\c.txt", segments: ["a", "b", "c.txt"] },
  { path: "./a//b/./c", segments: ["a", "b", "c"] },
  { path: "a/", segments: ["a"] },
  { path: ".hidden", segments: [".hidden"] },
  { path: "..a", segments: ["..a"] },
  { path: "a..b", segments: ["a..b"] },
  { path: "console.log", segments: ["console.log"] },
  { path: "con_file", segments: ["con_file"] },
  { path: "COM0", segments: ["COM0"] },
  { path: "naïve/日本語.txt", segments: ["naïve", "日本語.txt"] },
  { path: "a".repeat(255), segments: ["a".repeat(255)] },
  { path: Array(819).fill("abcd").join("/"), segments: Array(819).fill("abcd") },
];
