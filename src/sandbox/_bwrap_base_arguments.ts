// The bwrap arguments every command of a bubblewrap sandbox shares: the
// namespaces and the filesystem view.
import * as fs from "node:fs";
import type { BubblewrapSandboxOptions } from "./bubblewrap_sandbox_options.ts";
import { SECCOMP_FD } from "./_bwrap_seccomp.ts";
import { SANDBOX_ETC_ENTRIES, SANDBOX_SYSTEM_PATHS } from "./sandbox_paths.ts";

/**
 * The host paths the base arguments show whose entries are judged for hiding (_bwrap_masks.ts): the
 * system folders that are folders here, the `/etc` entries and the extra read-only paths that exist. The
 * runtime's executable is left as it is: it is shown on purpose, to be run.
 */
export function shownRoots(options: Pick<BubblewrapSandboxOptions, "readOnly">): string[] {
  const roots: string[] = [];
  for (const dir of SANDBOX_SYSTEM_PATHS) {
    if (fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() === true) roots.push(dir);
  }
  for (const entry of [...SANDBOX_ETC_ENTRIES, ...(options.readOnly ?? [])]) {
    if (fs.statSync(entry, { throwIfNoEntry: false }) !== undefined) roots.push(entry);
  }
  return roots;
}

/**
 * The bwrap arguments every command shares.
 *
 * @param disableUserns Whether this bwrap has `--disable-userns`.
 * @param options The runtime and extra read-only paths.
 * @param masks What hides the shown entries other users may not read (_bwrap_masks.ts).
 */
export function baseArguments(
  disableUserns: boolean,
  options: Pick<BubblewrapSandboxOptions, "runtimePath" | "readOnly">,
  masks: readonly string[],
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
  // After the binds they cover: what other users may not read is hidden.
  args.push(...masks);
  // The keyring calls refused (_bwrap_seccomp.ts opens the program on this descriptor).
  args.push("--seccomp", String(SECCOMP_FD));
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
