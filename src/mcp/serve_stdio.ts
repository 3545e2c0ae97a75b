import process from "node:process";
import { oversizedMessageReply } from "./oversized_message_reply.ts";
import { createPaddockMcpServer } from "./server.ts";
import { killBackgroundProcesses } from "../core/process/background_processes.ts";
import type { PaddockMcpServerOptions } from "./server_types.ts";
import { BoundedStdioTransport, type ByteSink, type ByteSource } from "./stdio_transport.ts";

/** The streams {@link serveStdio} serves over: a byte source of messages, and a sink for the replies. */
export interface StdioStreams {
  /** Where the client's messages come from (newline-delimited JSON). */
  stdin: ByteSource;
  /** Where the replies go; its `error` event (a client gone) ends the session. */
  stdout: ByteSink & { on(event: "error", listener: (error: Error) => void): unknown };
}

/**
 * Runs the Paddock MCP server over this process's stdin and stdout until
 * stdin closes (or SIGTERM, SIGINT or SIGHUP arrives) and the calls already
 * read are answered; then its background processes are killed. Only protocol messages go to stdout; diagnostics go to
 * `log` (stderr by default).
 *
 * @param options The root and what to offer.
 * @param log Where diagnostics go. @default a line on stderr
 * @param io The streams it serves over. @default this process's stdin and stdout
 * @returns Resolves when the session has ended.
 *
 * @example Serving the current folder
 * ```ts
 * import { serveStdio } from "@paddock/tools/mcp";
 * await serveStdio({ root: "." });
 * ```
 */
export async function serveStdio(
  options: PaddockMcpServerOptions,
  log: (line: string) => void = (line) => process.stderr.write(`paddock mcp: ${line}\n`),
  io: StdioStreams = { stdin: process.stdin, stdout: process.stdout },
): Promise<void> {
  const transport = new BoundedStdioTransport(io.stdin, io.stdout, { oversizedReply: oversizedMessageReply });
  // Ends grep's warm-up with the session: else the process would stay until the warm-up's bound.
  const session = new AbortController();
  const { server, registry, roots, workspace } = await createPaddockMcpServer({
    ...options,
    warmUp: options.warmUp === true ? session.signal : options.warmUp,
    flowControl: { pause: () => transport.pauseInput(), resume: () => transport.resumeInput() },
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  server.onerror = (error) => log(error.message);
  // The client went away (EPIPE): end the session instead of crashing on an unhandled error.
  io.stdout.on("error", (error: Error) => {
    log(`cannot write to stdout: ${(error as { code?: string }).code ?? error.message}`);
    void transport.close();
  });
  // A stop signal ends the input: calls already read finish (a write ends or removes its temp file)
  // and are answered, then the session ends; a second signal exits at once.
  let stopping = false;
  const stop = (signal: StopSignal) => {
    if (stopping) process.exit(128 + SIGNAL_NUMBERS[signal]);
    stopping = true;
    log(`${signal}: finishing the calls already read`);
    transport.endInput();
  };
  for (const signal of STOP_SIGNALS) process.on(signal, stop);
  await server.connect(transport);
  if (roots.length > 1) {
    log(
      `serving ${roots.length} folders: ${
        roots.map((root) => `${root.name}:${root.isDefault ? " (default)" : ""}`).join(", ")
      }`,
    );
  }
  log(`serving ${registry.list().length} tools (${registry.list().map((tool) => tool.name).join(", ")})`);
  try {
    await closed;
  } finally {
    session.abort();
    for (const signal of STOP_SIGNALS) process.off(signal, stop);
    // The session is over: its background processes (and all they started) end with it.
    await killBackgroundProcesses(workspace);
  }
}

const STOP_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
type StopSignal = typeof STOP_SIGNALS[number];
const SIGNAL_NUMBERS: Record<StopSignal, number> = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };
