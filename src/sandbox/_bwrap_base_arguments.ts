// The bwrap arguments every command of a bubblewrap sandbox shares: the
// namespaces and the filesystem view.
import * as fs from "node:fs";
import type { BubblewrapSandboxOptions } from "./bubblewrap_sandbox_options.ts";
import { SANDBOX_ETC_ENTRIES, SANDBOX_SYSTEM_PATHS } from "./sandbox_paths.ts";

/** The bwrap arguments every command shares. */
export function baseArguments(
  disableUserns: boolean,
  options: Pick<BubblewrapSandboxOptions, "runtimePath" | "readOnly">,
): string[] {
  const args = ["--unshare-all", "--new-session", "--die-with-parent", "--cap-drop", "ALL"];
  // Explicit user namespace, so nested ones can be refused (bwrap 0.8+).
  if (disableUserns) args.push("--unshare-user", "--disable-userns");
  args.push("--tmpfs", "/tmp");
  for (const dir of SANDBOX_SYSTEM_PATHS) {
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (stat === undefined) continue;
    if (stat.isSymbolicLink()) args.push("--symlink", fs.readlinkSync(dir), dir);
    else args.push("--ro-bind", dir, dir);
  }
  for (const entry of SANDBOX_ETC_ENTRIES) args.push("--ro-bind-try", entry, entry);
  const runtime = options.runtimePath ?? process.execPath;
  const real = fs.realpathSync(runtime);
  for (const visible of new Set([real, runtime])) {
    if (!SANDBOX_SYSTEM_PATHS.some((dir) => visible.startsWith(`${dir}/`))) args.push("--ro-bind", real, visible);
  }
  for (const extra of options.readOnly ?? []) args.push("--ro-bind", extra, extra);
  // /proc/sys read-only: a uid 0 command (a root caller's) could write its own namespaces' sysctls.
  args.push("--dev", "/dev", "--proc", "/proc", "--ro-bind", "/proc/sys", "/proc/sys");
  return args;
}

/**
 * The last mount arguments of every command, after its binds: bwrap's own
 * `/dev` and root tmpfs made read-only, so that a command (even one running
 * as uid 0, which owns them) writes only the workspace and `/tmp`.
 */
export const SEALED_MOUNTS: readonly string[] = Object.freeze(["--remount-ro", "/dev", "--remount-ro", "/"]);
