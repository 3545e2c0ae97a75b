import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { paddockCommand, REPO } from "./paddock_command.ts";
import { waitFor } from "./process.ts";
import type { RuntimeName } from "./runtime.ts";

// deno-lint-ignore no-explicit-any
type Body = any;

/** A `paddock mcp` server started as a process, spoken to line by line over its stdio, its session initialized. */
export interface StdioServerProcess {
  /** The process. */
  child: ChildProcessWithoutNullStreams;
  /** Writes one JSON-RPC message (a line) on its stdin. */
  send(message: unknown): void;
  /** Sends a `tools/call` of `name` with `args`, under the request id `id`. */
  call(id: string, name: string, args: unknown): void;
  /** The reply with request id `id`, once it is on stdout (waited for at most 60 s; stderr in the error). */
  reply(id: string): Promise<Body>;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Resolves with its exit code once it exited. */
  exited: Promise<number | null>;
}

/**
 * Starts `paddock mcp ARGS` under `on` and initializes its session (the `initialize` answered, then
 * `notifications/initialized` sent).
 *
 * @example const server = await startStdioServer("node", ["--root", dir]); server.call("a", "process_list", {});
 */
export async function startStdioServer(on: RuntimeName, args: string[]): Promise<StdioServerProcess> {
  const { command, args: argv } = paddockCommand(on, ["mcp", ...args]);
  const child = spawn(command, argv, { cwd: REPO, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin.on("error", () => {});
  let out = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  const send = (message: unknown): void => void child.stdin.write(JSON.stringify(message) + "\n");
  const replies = new Map<string, Body>();
  const reply = async (id: string): Promise<Body> => {
    await waitFor(() => {
      for (const line of out.split("\n")) {
        if (line.includes(`"id":"${id}"`)) replies.set(id, JSON.parse(line));
      }
      return replies.has(id);
    }, 60_000).catch((error) => {
      throw new Error(`no reply to ${id}: ${err}`, { cause: error });
    });
    return replies.get(id);
  };
  const call = (id: string, name: string, args: unknown): void =>
    send({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
  send({
    jsonrpc: "2.0",
    id: "init",
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  await reply("init");
  send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { child, send, call, reply, stderr: () => err, exited };
}
