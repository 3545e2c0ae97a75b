#!/usr/bin/env node
/**
 * The `paddock` command: `paddock mcp` (an MCP server over stdio), `paddock
 * call TOOL JSON` (one tool call) and `paddock demo`. Installed as the npm
 * package's `bin`; under Deno, `deno run -A jsr:@paddock/tools/cli mcp`.
 *
 * @example Serving a project to an MCP client
 * ```sh
 * npx -y @paddock/tools mcp --root ./project
 * ```
 *
 * @module
 */
import process from "node:process";
import { runCli } from "./src/cli/main.ts";

// A reader that stops early (`paddock demo | head`) is not an error: later
// output is dropped and the command still finishes (and cleans up).
let stdoutGone = false;
process.stdout.on("error", (error: Error & { code?: string }) => {
  if (error.code === "EPIPE") stdoutGone = true;
});

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: (text) => void (stdoutGone || process.stdout.write(text)),
  stderr: (text) => void process.stderr.write(text),
  stdoutIsTTY: process.stdout.isTTY === true,
  env: process.env,
});
