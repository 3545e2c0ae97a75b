import { type ChildProcess, spawn } from "node:child_process";
import * as http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { paddockCommand, REPO } from "./paddock_command.ts";
import type { RuntimeName } from "./runtime.ts";

/** A `paddock mcp --http` server started as a process. */
export interface HttpServerProcess {
  /** Its MCP endpoint (`http://127.0.0.1:PORT/mcp`). */
  url: string;
  /** The process. */
  child: ChildProcess;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Stops it (SIGTERM) and waits until it exited; resolves with its exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `paddock mcp --http 127.0.0.1:0 ARGS` under `on` and waits for its
 * "listening on URL" line (loopback only, a port the kernel picks).
 *
 * @param on The runtime the server runs under.
 * @param args More `mcp` arguments (the root, the token file, …).
 * @param env More environment variables. @default {}
 * @returns The running server.
 */
export function startHttpServer(
  on: RuntimeName,
  args: string[],
  env: Record<string, string> = {},
): Promise<HttpServerProcess> {
  const { command, args: argv } = paddockCommand(on, ["mcp", "--http", "127.0.0.1:0", ...args]);
  const child = spawn(command, argv, {
    cwd: REPO,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  let err = "";
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match !== null) {
        resolve({
          url: match[1],
          child,
          stderr: () => err,
          stop: () => {
            // process.kill, not child.kill: under Deno's test runner the latter left the server running.
            if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, "SIGTERM");
            return exited;
          },
        });
      }
    });
    void exited.then((code) => reject(new Error(`paddock mcp --http exited (${code}) before listening:\n${err}`)));
  });
}

/**
 * An MCP client of the TypeScript SDK connected over Streamable HTTP with `token`.
 *
 * @param url The endpoint.
 * @param token The bearer token.
 * @returns The client (its transport's `sessionId` names the session).
 */
export async function httpClient(
  url: string,
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: "paddock-test", version: "1" });
  await client.connect(transport);
  return { client, transport };
}

/** The JSON body of a tool call's result (any: each test reads the fields of the tool it called). */
// deno-lint-ignore no-explicit-any
export async function callJson(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = await client.callTool({ name, arguments: args });
  return JSON.parse((result.content as { text: string }[])[0].text);
}

/** One raw request on loopback (node:http: it sends `Origin` and `Host` as given, on every runtime). */
export function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; chunked?: boolean },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: options.method ?? "POST", headers: options.headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body }));
    });
    // A server answering 413 mid-body may reset the connection after its answer.
    request.on("error", reject);
    if (options.body !== undefined) {
      if (options.chunked) {
        for (let at = 0; at < options.body.length; at += 65_536) request.write(options.body.slice(at, at + 65_536));
      } else request.write(options.body);
    }
    request.end();
  });
}
