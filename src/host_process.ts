/**
 * The host seam's process types: what to spawn, the running child and its
 * output streams, and the launch of a script with the host runtime.
 *
 * @module
 */

/** A stream of output bytes from a child process. */
export interface ByteReader {
  /** The next chunk, or `null` at the end of the stream. */
  read(): Promise<Uint8Array | null>;
  /** Stops reading and releases the stream. */
  cancel(): Promise<void>;
}

/** A child's standard input, when it was spawned with `stdin: "pipe"`. */
export interface ByteWriter {
  /** Writes `data`; rejects when the child closed its end (the process ended). */
  write(data: Uint8Array): Promise<void>;
  /** Closes the pipe (the child reads end of file). */
  close(): Promise<void>;
}

/** How a process ended. */
export interface ExitStatus {
  /** The exit code, or `null` when a signal ended it. */
  code: number | null;
  /** The signal that ended it (`SIGKILL`, …), or `null`. */
  signal: string | null;
}

/** What to spawn. The host always starts it in its own process group, no shell; stdin closed unless asked. */
export interface SpawnRequest {
  /** The program (an absolute path) and its arguments. */
  argv: string[];
  /** The working directory (an absolute host path). */
  cwd: string;
  /** The complete environment; nothing of the parent's is added. */
  env: Record<string, string>;
  /** `"pipe"` gives the child a stdin pipe ({@link HostChild.stdin}); background processes take input. @default "null" */
  stdin?: "null" | "pipe";
}

/** A running child process. */
export interface HostChild {
  /** Its process id (also its process group id). */
  readonly pid: number;
  /** Its standard output. */
  readonly stdout: ByteReader;
  /** Its standard error. */
  readonly stderr: ByteReader;
  /** Its standard input, when spawned with `stdin: "pipe"`; else `undefined`. */
  readonly stdin?: ByteWriter;
  /** Resolves when the leader exits. */
  readonly exited: Promise<ExitStatus>;
  /** Sends `signal` to the whole process group; "no such process" is ignored. */
  killGroup(signal: "SIGTERM" | "SIGKILL"): void;
}

/** What {@link Host.scriptLaunch} needs to run a CommonJS file with the host runtime. */
export interface ScriptLaunchRequest {
  /** The script (absolute host path). */
  scriptPath: string;
  /** Where a bootstrap file may be written if the runtime needs one (absolute host path). */
  bootstrapPath: string;
  /** Arguments the script sees as `process.argv.slice(1)`. */
  args: string[];
  /** Paths the child may read and write, or `null` to run with the runtime's full rights. */
  confineTo: string[] | null;
  /**
   * With `confineTo`: the paths the child may write, when narrower than
   * `confineTo` (protected paths excluded); a path the runtime's flags cannot
   * name exactly is left out (not writable). @default confineTo
   */
  writable?: string[];
  /**
   * With `confineTo`: paths below it the child may not read (`read`) or not
   * write (`write`): the workspace's private paths, where the runtime can deny
   * paths (Deno: `--deny-read`, `--deny-write`); a runtime that cannot
   * (Node's and Bun's permission models have no deny list) leaves them
   * readable, and the tool's description says so. @default []
   */
  denied?: { read: string[]; write: string[] };
}

/** The command line for a script, and a bootstrap file to write first if the runtime needs one. */
export interface ScriptLaunch {
  /** The argv to spawn. */
  argv: string[];
  /** Source to write at the request's `bootstrapPath` before spawning, if any. */
  bootstrap?: string;
  /** Variables the runtime needs in the child's environment (e.g. `NO_COLOR`). */
  env?: Record<string, string>;
}
