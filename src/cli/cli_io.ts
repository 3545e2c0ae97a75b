/** What the command needs from its process, so it can be run in tests. */
export interface CliIo {
  /** Writes to stdout. */
  stdout(text: string): void;
  /** Writes to stderr. */
  stderr(text: string): void;
  /** Whether stdout is a terminal. */
  stdoutIsTTY: boolean;
  /** The environment. */
  env: Record<string, string | undefined>;
}
