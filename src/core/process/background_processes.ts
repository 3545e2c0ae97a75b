import { WorkspaceError } from "../errors.ts";
import { MAX_BACKGROUND_PROCESSES, MAX_KEPT_OUTPUTS } from "../limits.ts";
import { KeptOutput } from "./kept_output.ts";
import {
  type BackgroundLauncher,
  BackgroundProcess,
  type BackgroundProcessInfo,
  type BackgroundProcessSpec,
} from "./background_process.ts";

/**
 * The background processes of one workspace: what `shell` and `node_process`
 * start with `background: true`, and what `process_output`, `process_input`,
 * `process_kill` and `process_list` reach by id. At most
 * {@link MAX_BACKGROUND_PROCESSES} run at once; a process that ended stays
 * until its last output is read (the oldest such are forgotten when more end
 * than that). {@link BackgroundProcesses.killAll} ends them all; closing the
 * workspace does.
 */
export class BackgroundProcesses {
  readonly #processes = new Map<string, BackgroundProcess>();
  readonly #kept = new Map<string, KeptOutput>();
  readonly #max: number;
  #next = 1;
  #starting = 0;
  #killAlls = 0;

  /**
   * Makes an empty table.
   *
   * @param max Processes running at once. @default MAX_BACKGROUND_PROCESSES
   */
  constructor(max: number = MAX_BACKGROUND_PROCESSES) {
    this.#max = max;
  }

  /** How many are running (or starting). */
  get running(): number {
    return this.#starting + [...this.#processes.values()].filter((proc) => !proc.exited).length;
  }

  /**
   * Starts a process in the background.
   *
   * @param spec What it is.
   * @param launch Starts it (the tool's own spawn, in its sandbox and environment).
   * @returns The process, running.
   * @throws {WorkspaceError} `TOO_MANY_BACKGROUND_PROCESSES` when the limit is reached (nothing started);
   *   whatever `launch` throws.
   */
  async start(spec: BackgroundProcessSpec, launch: BackgroundLauncher): Promise<BackgroundProcess> {
    if (this.running >= this.#max) {
      throw new WorkspaceError(
        "TOO_MANY_BACKGROUND_PROCESSES",
        `Cannot start another background process: ${this.#max} are running already`,
        { hint: "end one with process_kill (process_list lists them), or wait until one exits" },
      );
    }
    this.#starting++;
    const id = `p${this.#next++}`;
    const proc = new BackgroundProcess(id, spec, this.#keepAs(id, spec.tool, spec.sanitize));
    const killAlls = this.#killAlls;
    try {
      const control = await launch(proc.sink);
      this.#processes.set(proc.id, proc);
      proc.attach(control, () => this.#forgetOldExited());
      // The workspace closed while this one was starting: it ends too (its last output stays readable).
      if (this.#killAlls !== killAlls) await proc.kill();
      return proc;
    } finally {
      this.#starting--;
    }
  }

  /**
   * The process with this id.
   *
   * @param id Its id.
   * @returns The process.
   * @throws {WorkspaceError} `PROCESS_NOT_FOUND` for an id not started here, or one whose last output was read.
   */
  get(id: string): BackgroundProcess {
    const proc = this.#processes.get(id);
    if (proc === undefined) {
      throw new WorkspaceError("PROCESS_NOT_FOUND", `No background proc '${clip(id)}'`, {
        hint: "process_list lists the background processes; one that exited is gone once its last output was read",
      });
    }
    return proc;
  }

  /** Forgets a proc that ended (its last output was read). */
  forget(id: string): void {
    if (this.#processes.get(id)?.exited === true) this.#processes.delete(id);
  }

  /** Every proc known, oldest first. */
  list(): BackgroundProcessInfo[] {
    return [...this.#processes.values()].map((proc) => proc.info());
  }

  /**
   * Starts keeping the whole output of a foreground command, under a new id
   * (`process_output` pages and searches it by that id).
   *
   * @param tool The tool that runs it.
   * @param rewrite Rewrites text before it is shown. @default identity
   * @returns The record its output goes to.
   */
  keep(tool: string, rewrite?: (text: string) => string): KeptOutput {
    return this.#keepAs(`p${this.#next++}`, tool, rewrite);
  }

  /**
   * The kept output of a command, running or ended.
   *
   * @param id Its id.
   * @returns The record.
   * @throws {WorkspaceError} `PROCESS_NOT_FOUND` for an id never used here, or one forgotten since.
   */
  kept(id: string): KeptOutput {
    const kept = this.#kept.get(id);
    if (kept === undefined) {
      throw new WorkspaceError("PROCESS_NOT_FOUND", `No kept output for '${clip(id)}'`, {
        hint:
          `the output of the last ${MAX_KEPT_OUTPUTS} commands is kept (the oldest forgotten first); run the command again to see its output`,
      });
    }
    return kept;
  }

  /** Ends every process's group and waits until each ended; the table stays usable, its kept outputs forgotten. */
  async killAll(): Promise<void> {
    this.#killAlls++;
    await Promise.all([...this.#processes.values()].map((proc) => proc.kill()));
    this.#processes.clear();
    this.#kept.clear();
  }

  // At most MAX_KEPT_OUTPUTS records: the oldest ended one goes first, else the oldest.
  #keepAs(id: string, tool: string, rewrite?: (text: string) => string): KeptOutput {
    const kept = new KeptOutput(id, tool, undefined, rewrite);
    this.#kept.set(id, kept);
    while (this.#kept.size > MAX_KEPT_OUTPUTS) {
      const records = [...this.#kept.values()];
      const oldest = records.find((record) => record.exit !== undefined) ?? records[0];
      this.#kept.delete(oldest.id);
    }
    return kept;
  }

  // Ended processes whose output nobody read are kept up to the limit, the oldest forgotten first.
  #forgetOldExited(): void {
    const exited = [...this.#processes.values()].filter((proc) => proc.exited);
    for (const proc of exited.slice(0, Math.max(0, exited.length - this.#max))) {
      this.#processes.delete(proc.id);
    }
  }
}

const TABLES = new WeakMap<object, BackgroundProcesses>();

/**
 * The background-process table of a workspace (or of any object standing
 * for one, such as a shell provider): one per owner, shared by every tool
 * over it.
 *
 * @param owner The workspace.
 * @returns Its table, made on first use.
 */
export function backgroundProcessesOf(owner: object): BackgroundProcesses {
  let table = TABLES.get(owner);
  if (table === undefined) TABLES.set(owner, table = new BackgroundProcesses());
  return table;
}

/**
 * Kills every background process of `owner` (its whole process group) and
 * waits until each ended: what closing a workspace, or an MCP session, does.
 *
 * @param owner The workspace.
 * @returns When they all ended.
 */
export async function killBackgroundProcesses(owner: object): Promise<void> {
  await TABLES.get(owner)?.killAll();
}

function clip(id: string): string {
  return id.length > 64 ? `${id.slice(0, 64)}…` : id;
}
