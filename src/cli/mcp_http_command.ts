import * as fs from "node:fs";
import process from "node:process";
import type { Workspace } from "../core/fs/workspace.ts";
import { serveHttp } from "../mcp/serve_http.ts";
import type { PaddockMcpServerOptions } from "../mcp/server_types.ts";
import { httpAuthOf, parseHttpAddress } from "./mcp_http_flags.ts";
import { UsageError } from "./usage_error.ts";

/**
 * `paddock mcp --http HOST:PORT`: serves the tools over Streamable HTTP
 * until SIGTERM, SIGINT or SIGHUP; then every session ends (its background
 * processes killed, its per-session folder removed unless `--keep`).
 *
 * @param flags The parsed `mcp` flags.
 * @param options The server's options, as the stdio server would get them (its roots: each session's own).
 * @param log Where diagnostics go.
 * @returns When the server has stopped.
 * @throws {UsageError} For a bad address, token or folder.
 */
export async function serveHttpCommand(
  flags: Map<string, string[]>,
  options: PaddockMcpServerOptions,
  log: (line: string) => void,
): Promise<void> {
  const address = parseHttpAddress(flags.get("http")![0]);
  const auth = httpAuthOf(flags);
  const { root, roots = [], ...server } = options;
  // Each session opens its own workspace over each folder (its own tool state): the paths are what is kept.
  const opened = (root === undefined ? [] : [root, ...roots]) as Workspace[];
  const rootPaths = opened.map((workspace) => workspace.root);
  // Checked by mcpCommand (parsePrivatePatterns); with --root-per-session there is no opened root to take them from.
  const privatePaths = [...(flags.get("private") ?? [])];
  await Promise.all(opened.map((workspace) => workspace.close()));
  const perSessionDir = flags.get("root-per-session")?.[0];
  let rootPerSession: { dir: string; keep: boolean } | undefined;
  if (perSessionDir !== undefined) {
    let dir: string;
    try {
      dir = fs.realpathSync(perSessionDir);
    } catch (error) {
      throw new UsageError(
        `--root-per-session '${perSessionDir}' cannot be opened (${(error as { code?: string }).code})`,
      );
    }
    if (!fs.statSync(dir).isDirectory()) throw new UsageError(`--root-per-session '${perSessionDir}' is not a folder`);
    rootPerSession = { dir, keep: flags.has("keep") };
  }
  let running;
  try {
    running = await serveHttp({
      server,
      roots: rootPaths,
      privatePaths,
      ...(rootPerSession === undefined ? {} : { rootPerSession }),
      host: address.host,
      port: address.port,
      allowRemote: flags.has("allow-remote"),
      auth,
      allowedHosts: flags.get("allowed-host") ?? [],
      allowedOrigins: flags.get("allowed-origin") ?? [],
      log,
    });
  } catch (error) {
    if (error instanceof Error && /^refusing|EADDRINUSE|EACCES/.test(error.message)) {
      throw new UsageError(error.message);
    }
    throw error;
  }
  if (auth.kind === "none") log("warning: --insecure-no-auth: any process on this machine can call the tools");
  log(
    `listening on ${running.url} (${
      auth.kind === "oauth" ? "OAuth access tokens" : auth.kind === "token" ? "bearer token" : "no token"
    })`,
  );
  // A stop signal ends every session, then the server; a second one exits at once.
  await new Promise<void>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) process.exit(128 + (signal === "SIGHUP" ? 1 : signal === "SIGINT" ? 2 : 15));
      stopping = true;
      log(`${signal}: ending ${running.sessions} session(s)`);
      void running.close().then(() => {
        for (const name of SIGNALS) process.off(name, stop);
        resolve();
      });
    };
    for (const name of SIGNALS) process.on(name, stop);
  });
}

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;
