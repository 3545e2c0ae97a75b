import { KeptStream } from "./kept_stream.ts";

/** How a kept command ended. */
export interface KeptExit {
  /** The exit code, or `null` when a signal (or its time limit) ended it. */
  exitCode: number | null;
  /** The signal that ended it, or `null`. */
  signal: string | null;
}

/**
 * The whole output of one command (foreground or background), kept in
 * memory so `process_output` can page and search it by the command's id, while
 * it runs and after it ended: each stream bounded by `KEPT_OUTPUT_MAX_BYTES`
 * (the latest bytes). Forgotten when more than `MAX_KEPT_OUTPUTS` are kept in
 * its workspace (the oldest ended first), or when the workspace closes.
 */
export class KeptOutput {
  /** Its id (the one `process_output` takes). */
  readonly id: string;
  /** The tool that ran it. */
  readonly tool: string;
  /** Standard output. */
  readonly stdout: KeptStream;
  /** Standard error. */
  readonly stderr: KeptStream;
  /** Rewrites text before it is shown (node_process hides its temp file's path). */
  readonly rewrite: ((text: string) => string) | undefined;
  #exit: KeptExit | undefined;

  /**
   * Starts an empty record.
   *
   * @param id Its id.
   * @param tool The tool that runs it.
   * @param limit Bytes kept of each stream.
   * @param rewrite Rewrites text before it is shown. @default identity
   */
  constructor(id: string, tool: string, limit?: number, rewrite?: (text: string) => string) {
    this.id = id;
    this.tool = tool;
    this.stdout = new KeptStream(limit);
    this.stderr = new KeptStream(limit);
    this.rewrite = rewrite;
  }

  /** How it ended, or `undefined` while it runs. */
  get exit(): KeptExit | undefined {
    return this.#exit;
  }

  /** Records how it ended. */
  end(exit: KeptExit): void {
    this.#exit ??= exit;
  }
}
