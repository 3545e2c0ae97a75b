/**
 * What `node_process` reports of a script's output: the model sees
 * no temp-file path and no stack frames of Paddock's launcher. Other paths
 * the script prints (its `process.cwd()`, the root) stay as printed: the seed's
 * contract is that the script runs in the canonical root and can say so.
 *
 * @module
 */
import { pathPattern } from "../text/path_pattern.ts";

/** The name a script's temp file is shown under in its output. */
export const SCRIPT_DISPLAY_NAME = "<script>";

/** The absolute host paths to hide in a script's output. */
export interface ScriptOutputNames {
  /** The temp script. */
  scriptPath: string;
  /** The bootstrap file, if the runtime needed one. */
  bootstrapPath?: string;
}

// Stack frames (and require-stack entries) that belong to the launcher: the
// `-e` loader (Node), the bootstrap (Deno), the runtimes' module loaders.
const LAUNCHER_FRAME = /^\s+at .*(node:internal\/|node:module:|ext:core\/|\[eval\])/;
const LAUNCHER_STACK_ENTRY = /^(- |\s+')(.*[/\\])?\[eval\]('?,?)$/;

function urlOf(path: string): string {
  return "file://" + encodeURI(path.startsWith("/") ? path : "/" + path.replaceAll("\\", "/"));
}

/**
 * Rewrites a script's stdout or stderr for the model: the temp script's
 * absolute path (also as a `file://` URL) becomes `<script>`, and stack
 * frames of the launcher — the bootstrap, the `-e` loader, the runtimes'
 * module-loader internals — are dropped. A script that encodes a path (or
 * prints only part of it) can still show it: this keeps reports clean, it is
 * not a secrecy boundary.
 *
 * @param text The captured output.
 * @param names The paths to hide.
 * @returns The output as reported.
 */
export function sanitizeScriptOutput(text: string, names: ScriptOutputNames): string {
  if (text === "") return text;
  const launcherFiles = names.bootstrapPath === undefined ? [] : [names.bootstrapPath, urlOf(names.bootstrapPath)];
  const kept: string[] = [];
  for (const line of text.split("\n")) {
    const ours = LAUNCHER_FRAME.test(line) || LAUNCHER_STACK_ENTRY.test(line) ||
      (/^\s+at /.test(line) && launcherFiles.some((file) => line.includes(file)));
    if (!ours) kept.push(line);
    // Node prints an error's own properties after its last frame (`at … {`): keep the brace.
    else if (line.endsWith(" {") && kept.length > 0) kept[kept.length - 1] += " {";
  }
  let out = kept.join("\n");
  for (const script of [urlOf(names.scriptPath), names.scriptPath]) {
    out = out.replace(new RegExp(pathPattern(script), "g"), SCRIPT_DISPLAY_NAME);
  }
  return out;
}
