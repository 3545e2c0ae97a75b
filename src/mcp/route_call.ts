import { invalidArguments } from "../tools/parse_arguments.ts";
import { parsePatch, PATCH_PATH_HEADERS, renamePatchPaths } from "../core/text/parse_patch.ts";
import { APPLY_PATCH_MAX_BYTES } from "../core/limits.ts";
import { utf8ByteLength } from "../core/text/utf8.ts";
import { normalizeWorkspacePath } from "../core/path/normalize_workspace_path.ts";
import type { McpRoot, RootSet } from "./root_set.ts";

/**
 * The path arguments of each built-in tool, by name: what routes a call to
 * one of several roots. `apply_patch` is routed by the paths inside its
 * patch ({@link routePatch}). Tools not listed (`node_process`, `shell`, one's
 * own) run in the default root; `read_multiple_files` routes each of its
 * paths itself; `list_allowed_directories` names no root.
 */
const PATH_ARGUMENTS: Readonly<Record<string, readonly string[]>> = {
  read_file: ["path"],
  write_file: ["path"],
  edit_file: ["path"],
  list_directory: ["path"],
  find_files: ["path"],
  grep: ["path"],
  delete_path: ["path"],
  create_directory: ["path"],
  read_media_file: ["path"],
  directory_tree: ["path"],
  get_file_info: ["path"],
  move_path: ["source", "destination"],
};

/** Tools that answer whatever the client's roots leave in. */
const ROOTLESS = new Set(["list_allowed_directories", "read_multiple_files"]);

/** Result keys holding one workspace path, and keys holding a list of them. */
const PATH_KEYS = new Set(["path", "source", "destination", "resolvedPath"]);
const PATH_LIST_KEYS = new Set(["paths", "files", "applied", "restored"]);

/** Where a call runs, and its arguments with the root prefix taken off. */
export interface RoutedCall {
  /** The root the call's paths name (the default when they name none). */
  root: McpRoot;
  /** The arguments for the tool in that root. */
  arguments: unknown;
  /** The paths the call names, as the tool in that root got them (no `NAME:`). */
  paths?: string[];
}

/**
 * Routes a call to the root its paths name (`NAME:path`; bare paths name
 * the default root). All the paths of one call must name the same root.
 *
 * @param roots The server's roots.
 * @param name The tool's name.
 * @param args The call's arguments (not yet validated: only string path arguments are looked at).
 * @returns The root and the arguments for it.
 * @throws {WorkspaceError} `INVALID_ARGUMENTS` for paths in two roots, `ROOT_NOT_SERVED` for a root the client's roots leave out.
 */
export function routeCall(roots: RootSet, name: string, args: unknown): RoutedCall {
  if (ROOTLESS.has(name)) return { root: roots.defaultRoot, arguments: args };
  const keys = Object.hasOwn(PATH_ARGUMENTS, name) ? PATH_ARGUMENTS[name] : [];
  // Arguments that are not an object: refused by the tool before it touches a file, in whichever root.
  if (typeof args !== "object" || args === null || Array.isArray(args)) return whereverServed(roots, args);
  const record = args as Record<string, unknown>;
  if (name === "apply_patch") return routePatch(roots, record);
  let root: McpRoot | undefined;
  const rewritten: Record<string, unknown> = { ...record };
  let refused = false;
  for (const key of keys) {
    const value = record[key];
    if (typeof value !== "string") {
      refused ||= value !== undefined; // the tool's argument check refuses it
      continue;
    }
    const routed = roots.route(value);
    if (root !== undefined && routed.root !== root) {
      throw invalidArguments(`'${keys.join("' and '")}' name two different folders; a call works in one`);
    }
    root = routed.root;
    rewritten[key] = routed.path;
  }
  if (root === undefined) {
    if (refused) return whereverServed(roots, args);
    roots.route(""); // no path given: the default root, which must be served
    root = roots.defaultRoot;
  }
  const paths = keys.map((key) => rewritten[key]).filter((value): value is string => typeof value === "string");
  return { root, arguments: rewritten, paths };
}

/**
 * Routes an `apply_patch` call by the files its patch names (`*** Update
 * File: docs:guide.md`): all in one root, the patch goes to it with the
 * `NAME:` taken off each path, every other character as sent. A patch that
 * cannot be read, or is over the tool's bound as sent, goes unchanged to the
 * default root (or the first served one), whose tool says why.
 *
 * @param roots The server's roots.
 * @param args The call's arguments.
 * @returns The root and the arguments for it.
 * @throws {WorkspaceError} `INVALID_ARGUMENTS` for files in two roots, or a unified diff of another root's file;
 * `ROOT_NOT_SERVED` for a root the client's roots leave out.
 */
function routePatch(roots: RootSet, args: Record<string, unknown>): RoutedCall {
  const patch = args.patch;
  // Not a string, or over the tool's bound as sent (UTF-16 units never outnumber UTF-8 bytes): refused wherever it
  // goes, and not read here. (Measured before the `NAME:`s come off, which would make it smaller.)
  if (
    typeof patch !== "string" || patch.length > APPLY_PATCH_MAX_BYTES || utf8ByteLength(patch) > APPLY_PATCH_MAX_BYTES
  ) {
    return whereverServed(roots, args);
  }
  // One reading of the patch: each header's path routed as it is met, the patch rewritten for that root.
  const routing = new PatchRouting(roots);
  let refused: unknown = null;
  // As the tool reads them: a header's path is trimmed (`docs: x.md` is `x.md`).
  const inside: string[] = [];
  const route = (path: string): string => {
    try {
      const routed = routing.take(path);
      inside.push(routed.trim());
      return routed;
    } catch (error) {
      refused = error;
      throw error;
    }
  };
  let rewritten: string | null;
  try {
    rewritten = renamePatchPaths(patch, route);
  } catch (error) {
    if (error === refused) throw error;
    return whereverServed(roots, args); // a patch that cannot be read: the tool says why
  }
  if (rewritten === null) return routeUnifiedDiff(roots, args, patch);
  const root = routing.root;
  if (root === undefined) return inDefaultRoot(roots, args);
  // Bare paths, in the default root: the patch as sent.
  if (!routing.prefixed) return { root, arguments: args };
  return { root, arguments: { ...args, patch: rewritten }, paths: inside };
}

// A patch's paths routed one by one: all must be in one root; `prefixed` once one named it (`NAME:path`).
class PatchRouting {
  root: McpRoot | undefined;
  prefixed = false;
  #roots: RootSet;

  constructor(roots: RootSet) {
    this.#roots = roots;
  }

  // The path inside its root.
  take(path: string): string {
    const routed = this.#roots.route(path);
    if (this.root !== undefined && routed.root !== this.root) {
      throw invalidArguments(
        `the patch names files in two folders ('${this.root.name}' and '${routed.root.name}'); a patch works in one`,
      );
    }
    this.root = routed.root;
    this.prefixed ||= routed.path !== path;
    return routed.path;
  }
}

// A call its tool refuses before it touches a file (arguments of the wrong type, a patch that cannot be read or
// is over the bound), the same in every root: the default root, or with that one not served (the client's roots
// leave it out) the first served one, so that the model is told what is wrong with the call rather than
// `ROOT_NOT_SERVED`.
function whereverServed(roots: RootSet, args: unknown): RoutedCall {
  const served = roots.current();
  const root = served.includes(roots.defaultRoot) ? roots.defaultRoot : served[0];
  return root === undefined ? inDefaultRoot(roots, args) : { root, arguments: args };
}

// A call that names no root: the default one, which must be served.
function inDefaultRoot(roots: RootSet, args: unknown): RoutedCall {
  roots.route("");
  return { root: roots.defaultRoot, arguments: args };
}

// A plain unified diff (`--- a/x`, `+++ b/x`) has no header of Codex's format to rewrite: it runs in the default
// root, its paths bare; a `NAME:` in them is refused rather than sent on.
function routeUnifiedDiff(roots: RootSet, args: Record<string, unknown>, patch: string): RoutedCall {
  const paths = parsePatch(patch).operations.flatMap((operation) =>
    operation.kind === "update" && operation.moveTo !== undefined
      ? [operation.path, operation.moveTo]
      : [operation.path]
  );
  const routing = new PatchRouting(roots);
  for (const path of paths) routing.take(path);
  const root = routing.root;
  if (root === undefined) return inDefaultRoot(roots, args);
  if (routing.prefixed) {
    throw invalidArguments(
      `a unified diff can change a file of the default folder only, without a prefix; ` +
        `write it as '*** Begin Patch' / '*** Update File: ${roots.display(root, "path")}'`,
    );
  }
  return { root, arguments: args };
}

/**
 * An error of a call in a root other than the default, with the call's own
 * paths written as the model should use them again: the tool quoted them as
 * its root sees them (`'guide.md'`), which the model would take for the
 * default root's file; they become `'docs:guide.md'` in the message and the
 * hint, and so do `path`-like keys of its details. Other text is left as it
 * is.
 *
 * @param roots The server's roots.
 * @param routed Where the call ran, and its paths there.
 * @param body The error body (parsed JSON).
 * @returns The body with those paths prefixed (the same value for the default root).
 */
export function prefixErrorPaths(roots: RootSet, routed: RoutedCall, body: unknown): unknown {
  if (routed.root.isDefault || typeof body !== "object" || body === null) return body;
  const error = (body as { error?: Record<string, unknown> }).error;
  // An argument error's hint quotes property names ('content'), never a path.
  if (typeof error !== "object" || error === null || error.code === "TOOL_ARGUMENTS_INVALID") return body;
  // Each path as the tool shows it (normalized, "." for the folder itself), quoted, and what replaces it.
  const replacements = new Map<string, string>();
  for (const path of routed.paths ?? []) {
    let segments: string[];
    try {
      segments = normalizeWorkspacePath(path);
    } catch {
      continue; // refused by the grammar: the message names no such path
    }
    const display = segments.length === 0 ? "." : segments.join("/");
    // A name of punctuation alone ('-') could be a quoted mark of the hint's own: left alone.
    if (display !== "." && !/[\p{L}\p{N}]/u.test(display)) continue;
    const shown = roots.display(routed.root, display);
    replacements.set(`'${display}'`, `'${shown}'`);
    // As written, where the tool quotes it so (`'./'` for the folder itself).
    if (path !== display) replacements.set(`'${path}'`, `'${shown}'`);
    // A patch header the hint suggests (`'*** Update File: x.md'`).
    for (const header of PATCH_PATH_HEADERS) replacements.set(`'${header}${display}'`, `'${header}${shown}'`);
  }
  // Longest first, so that `'don't.md'` is taken whole before `'t.md'` could match inside it.
  const quoted = [...replacements.keys()].sort((a, b) => b.length - a.length);
  // Only the first line: what follows is the file's own text (the nearest lines of a hunk not found).
  const rewrite = (text: unknown): unknown => {
    if (typeof text !== "string") return text;
    const end = text.indexOf("\n") < 0 ? text.length : text.indexOf("\n");
    // One pass, left to right: text already rewritten is never looked at again.
    let out = "";
    let at = 0;
    while (at < end) {
      const quote = text.indexOf("'", at);
      if (quote < 0 || quote >= end) break;
      out += text.slice(at, quote);
      const found = quoted.find((candidate) => text.startsWith(candidate, quote) && quote + candidate.length <= end);
      out += found === undefined ? "'" : replacements.get(found);
      at = found === undefined ? quote + 1 : quote + found.length;
    }
    return out + text.slice(at);
  };
  const out: Record<string, unknown> = { ...error, message: rewrite(error.message) };
  if (error.hint !== undefined) out.hint = rewrite(error.hint);
  if (error.details !== undefined) out.details = prefixResultPaths(roots, routed.root, error.details);
  return { ...body, error: out };
}

/**
 * A result's workspace paths written as the model should use them again:
 * with the root's `NAME:` prefix, for a root other than the default.
 *
 * @param roots The server's roots.
 * @param root The root the call ran in.
 * @param value The result (parsed JSON).
 * @returns The result with its paths prefixed (the same value for the default root).
 */
export function prefixResultPaths(roots: RootSet, root: McpRoot, value: unknown): unknown {
  if (root.isDefault) return value;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== "object" || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      if (key === "error") out[key] = child;
      else if (PATH_KEYS.has(key) && typeof child === "string") out[key] = roots.display(root, child);
      else if (PATH_LIST_KEYS.has(key) && Array.isArray(child)) {
        out[key] = child.map((item) => (typeof item === "string" ? roots.display(root, item) : walk(item)));
      } else out[key] = walk(child);
    }
    return out;
  };
  return walk(value);
}
