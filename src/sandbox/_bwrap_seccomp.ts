// Hands the keyring seccomp program (_seccomp_filter.ts) to bwrap on every runtime. bwrap reads it from
// a descriptor (`--seccomp FD`), and Deno's `Command` passes no descriptor but the three standard ones, so
// the command line starts with a shell that opens the program on SECCOMP_FD and execs bwrap (the same
// process: pid, signals and exit status are bwrap's, as before).
//
// The program lives in a file with no name: written into a private folder (0700), opened, then unlinked
// with its folder, so nothing is left on disk even when the sandbox is never closed. The shell opens it
// again through `/proc/<agent pid>/fd/<n>`, which a child of the agent may read (same user, or root).
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { keyringSeccompProgram, SECCOMP_HOST_ARCHES } from "./_seccomp_filter.ts";
import { unavailable } from "./_sandbox_unavailable.ts";

/** The descriptor bwrap reads the program from (bwrap closes it before the command starts). */
export const SECCOMP_FD = 9;

/** Opens `$1` on SECCOMP_FD and runs the rest in place of the shell. */
const OPEN_AND_EXEC = `program=$1; shift; exec "$@" ${SECCOMP_FD}<"$program"`;

// The launcher, made once per process: the program is the same for every sandbox, and its descriptor is
// never closed (closing it could let a command line still to be spawned open another file of that number).
let launcher: readonly string[] | undefined;

/**
 * The argv prefix that opens the program on SECCOMP_FD: put it before bwrap (and before a `setpriv`
 * prefix, so the file is opened by the caller). The first call writes the program into a nameless file
 * held open by this process.
 *
 * @returns `/bin/sh -c … /proc/<pid>/fd/<n>`.
 * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` on another architecture, or when the file cannot be made.
 */
export function seccompLauncher(): readonly string[] {
  if (launcher !== undefined) return launcher;
  if (!SECCOMP_HOST_ARCHES.includes(process.arch)) {
    throw unavailable(
      `the sandbox's keyring filter has no system call numbers for ${process.arch}`,
      "run the agent on x86_64 or aarch64, or use the container sandbox",
    );
  }
  try {
    launcher = writeLauncher();
  } catch {
    throw unavailable(
      "the keyring filter could not be written to the temporary folder",
      "let the runtime write its temporary folder (Deno: --allow-write, and --allow-env for TMPDIR)",
    );
  }
  return launcher;
}

/** Writes the program into a nameless file and returns the launcher that opens it. */
function writeLauncher(): readonly string[] {
  // 1. A private folder, so nobody else can swap the file between write and open.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-seccomp-"));
  let fd: number;
  try {
    fs.chmodSync(dir, 0o700);
    const file = path.join(dir, "keyring.bpf");
    // 2. Written once, exclusively, then opened for reading only.
    fs.writeFileSync(file, keyringSeccompProgram(), { mode: 0o400, flag: "wx" });
    fd = fs.openSync(file, "r");
  } finally {
    // 3. No name left: the open descriptor keeps the bytes.
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return Object.freeze(["/bin/sh", "-c", OPEN_AND_EXEC, "paddock-seccomp", `/proc/${process.pid}/fd/${fd}`]);
}
