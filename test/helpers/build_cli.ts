/**
 * vitest's global setup: under Node, the sources are compiled once (type
 * stripping only, `tsc --noCheck`, the same emit as `npm run build`) into
 * `.cache/test-dist/`, and `PADDOCK_TEST_CLI` names its `cli.js`, so that the
 * tests that start `paddock` under Node (`paddockCommand`) run it as JavaScript
 * rather than through tsx's loader: measured on the 2-core machine, a server
 * answers `initialize` in 0.7 s of wall and ~0.9 s of CPU against 1.3 s and
 * ~2.0 s, and the protocol tests start dozens. Deno and Bun run the
 * TypeScript sources themselves.
 *
 * @module
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import process from "node:process";
import { REPO } from "./paddock_command.ts";
import { runtime } from "./runtime.ts";

/** Where the compiled sources go (git-ignored). */
const OUT = path.join(REPO, ".cache", "test-dist");

/** Compiles the sources for the Node pass (about 5 s). */
export default function setup(): void {
  if (runtime !== "node") return;
  execFileSync(process.execPath, [
    path.join(REPO, "node_modules", "typescript", "bin", "tsc"),
    "-p",
    path.join(REPO, "tsconfig.json"),
    "--noCheck",
    "--outDir",
    OUT,
  ], { stdio: "inherit" });
  process.env.PADDOCK_TEST_CLI = path.join(OUT, "cli.js");
}
