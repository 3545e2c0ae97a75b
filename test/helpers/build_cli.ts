/**
 * vitest's global setup: under Node, the sources are compiled once (type
 * stripping only, `tsc --noCheck`, then bundled as `npm run build` does:
 * `scripts/build_bin.mjs`) into `.cache/test-dist/`, and `PADDOCK_TEST_CLI`
 * names its `bin/cli.js`, the bundle npm's `paddock` bin runs, so that the
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

/** Compiles and bundles the sources for the Node pass (about 6 s). */
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
  execFileSync(process.execPath, [path.join(REPO, "scripts", "build_bin.mjs"), OUT], { stdio: "inherit" });
  process.env.PADDOCK_TEST_CLI = path.join(OUT, "bin", "cli.js");
}
