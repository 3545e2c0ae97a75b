import * as path from "node:path";
import process from "node:process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runtime, type RuntimeName } from "./runtime.ts";
import { hasOwnPass } from "./suite_pass.ts";

/** The repository's top folder. */
export const REPO: string = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The `cli.ts` entry point. */
export const CLI: string = path.join(REPO, "cli.ts");

/** The tsx loader, by absolute URL, so a command may run in any folder. */
const TSX_LOADER: string = pathToFileURL(path.join(REPO, "node_modules", "tsx", "dist", "loader.mjs")).href;

/** A command line: program and arguments. */
export interface CommandLine {
  command: string;
  args: string[];
}

/**
 * The command line running `paddock ARGS` from the sources under `on`:
 * Node through the tsx loader (or, in a Node run of the suite, from the
 * sources compiled once: `PADDOCK_TEST_CLI`), Deno with `deno run -A`, Bun directly.
 *
 * @param on The runtime to run it with.
 * @param args The paddock arguments.
 */
export function paddockCommand(on: RuntimeName, args: string[]): CommandLine {
  switch (on) {
    case "node": {
      const node = runtime === "node" ? process.execPath : "node";
      // The sources compiled once by the Node pass's global setup (build_cli.ts); else through tsx.
      const compiled = process.env.PADDOCK_TEST_CLI;
      return compiled === undefined
        ? { command: node, args: ["--import", TSX_LOADER, CLI, ...args] }
        : { command: node, args: [compiled, ...args] };
    }
    case "deno":
      return {
        command: runtime === "deno" ? process.execPath : path.join(REPO, "node_modules", ".bin", "deno"),
        args: ["run", "-A", CLI, ...args],
      };
    case "bun":
      return { command: process.execPath, args: [CLI, ...args] };
  }
}

/**
 * The command line running a TypeScript script (`.mts`, anywhere) under `on`,
 * the way {@link paddockCommand} runs the CLI; Deno is given the repository's
 * `deno.json`, for its imports.
 *
 * @param on The runtime to run it with.
 * @param script The script's path.
 * @param args Its arguments.
 */
export function scriptCommand(on: RuntimeName, script: string, args: string[] = []): CommandLine {
  // A script is TypeScript: under Node always through tsx (the compiled CLI is no help here).
  const line = on === "node"
    ? { command: runtime === "node" ? process.execPath : "node", args: ["--import", TSX_LOADER, CLI, ...args] }
    : paddockCommand(on, args);
  const at = line.args.indexOf(CLI);
  const config = on === "deno" ? ["--config", path.join(REPO, "deno.json")] : [];
  return { command: line.command, args: [...line.args.slice(0, at), ...config, script, ...line.args.slice(at + 1)] };
}

/**
 * The runtimes the server runs under in the protocol tests: the suite's own,
 * plus Deno when the suite runs under Node (so a plain `vitest run` already
 * proves the Deno server), except in `npm test`, whose Deno pass runs the
 * same tests against the same Deno server.
 */
export const SERVER_RUNTIMES: RuntimeName[] = runtime === "node" && !hasOwnPass("deno") ? ["node", "deno"] : [runtime];

/**
 * {@link SERVER_RUNTIMES} without the `npm test` exception: the Deno server
 * under a Node client too, for tests the Deno pass cannot run itself (Deno's
 * `child_process` `kill()` does not reach the server's signal handler).
 */
export const SERVER_RUNTIMES_ALWAYS: RuntimeName[] = runtime === "node" ? ["node", "deno"] : [runtime];
