import process from "node:process";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const source = (file: string) => fileURLToPath(new URL(file, import.meta.url));

/**
 * Soaks, race loops and big-tree checks: not in `npm test` (vitest.config.ts),
 * run by `npm run test:soak` (vitest.soak.config.ts) under Node, Deno and Bun,
 * which `.ci/run` runs after `npm test`. Every other `test/**\/*.test.ts` file,
 * new ones too, is in the behaviour suite.
 */
export const SOAK_FILES: string[] = [
  // The adversary of issue 9, bounded: 15 attempts per tool × swap level × host of the runtime.
  "test/race.test.ts",
  // One swap before each host call of every tool, every level, both modes, every host: exhaustive.
  "test/single_swap.test.ts",
  // The race fixture's own checks (every tool's undisturbed run on every race host passes every check).
  "test/race_harness.test.ts",
  // A 5,000-file, 500,000-line tree grepped through `paddock mcp` (progress, cancel, ping order).
  "test/mcp_search.test.ts",
];

/**
 * Files that test a host-independent layer (no host, no disk, no process, no
 * runtime API: pure text and path grammar, pattern compilers, the shell-policy
 * parser, the agent loop on the memory host, static checks of the sources and
 * manifests). `npm test` runs them in its Node pass only (scripts/test.sh sets
 * PADDOCK_SUITE_PASSES); a plain `vitest run` runs them on any runtime.
 */
export const HOST_INDEPENDENT_FILES: string[] = [
  "test/apply_edits.test.ts", // pure text edits
  "test/unified_diff.test.ts", // pure diff text
  "test/path_grammar.test.ts", // normalizeWorkspacePath: the path grammar
  "test/shell_policy.test.ts", // the shell-policy parser
  "test/search_patterns.test.ts", // glob and line-matcher compilers
  "test/linear_matching.test.ts", // the same compilers' linear-time bound
  "test/ignore_prefilter.test.ts", // .gitignore prefilter against the `ignore` package
  "test/ignore_prefilter_whitespace.test.ts",
  "test/folder_ignores.test.ts",
  "test/read_line_window.test.ts", // line windows over a fake HostFile
  "test/run_process_output.test.ts", // output capture over a fake spawn
  "test/agent_executor.test.ts", // the agent loop on the memory host
  "test/seed_example.test.ts", // the seed example on a MemoryWorkspace
  "test/seeds/seed_002_agent_executor.test.ts",
  "test/seeds/seed_002_custom_provider.test.ts", // a provider over an in-memory stand-in
  "test/seeds/seed_002_memory_workspace.test.ts",
  "test/seeds/seed_002_shell_policy.test.ts",
  "test/package_manifest.test.ts", // package.json, deno.json and the sources, read as text
  "test/public_api.test.ts", // the export lists, as the TypeScript compiler sees them
  "test/deno_ffi_deopt.test.ts", // starts Deno itself, whatever runs the suite
];

/**
 * The files that take longest in some pass (most of it waiting on containers,
 * servers and CLIs), longest first: 15-95 s each on the 2-core machine, where
 * the whole pass takes ~100-170 s. They start first, so that a pass does not
 * end with one of them running alone. Without vitest's results cache (a fresh
 * clone, as in CI) vitest starts the largest files first, and several of these
 * are small: sandbox_protected.test.ts was the 25th file to start, the
 * shutdown and loader files later still.
 */
export const LONG_FILES: string[] = [
  "test/sandbox_protected.test.ts",
  "test/mcp_server.test.ts",
  "test/node_process_loader.test.ts",
  "test/subprocess_sandbox.test.ts",
  "test/mcp_shutdown.test.ts",
  "test/cli.test.ts",
  "test/grep_threads.test.ts",
  "test/path_tools_replay.test.ts",
  "test/sandbox_owner.test.ts",
  "test/seeds/seed_004_workspace_tools.test.ts",
];

/** Vitest's order (cached durations, else size), with {@link LONG_FILES} first. */
class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONG_FILES.findIndex((name) => file.moduleId === source(`./${name}`));
      return at === -1 ? LONG_FILES.length : at;
    };
    return sorted.map((file, index) => ({ file, index })).sort((a, b) =>
      rank(a.file) - rank(b.file) || a.index - b.index
    ).map(({ file }) => file);
  }
}

const passes = (process.env.PADDOCK_SUITE_PASSES ?? "").split(",");
const globals = globalThis as { Deno?: unknown; Bun?: unknown };
const onNode = globals.Deno === undefined && globals.Bun === undefined;

export default defineConfig({
  resolve: {
    // Tests may import the package by its own name (as the README's examples do): the sources, not dist/.
    alias: [
      { find: /^@paddock\/tools$/, replacement: source("./mod.ts") },
      { find: /^@paddock\/tools\/host$/, replacement: source("./host.ts") },
      { find: /^@paddock\/tools\/node$/, replacement: source("./node.ts") },
      { find: /^@paddock\/tools\/testing$/, replacement: source("./testing.ts") },
      { find: /^@paddock\/tools\/ai-sdk$/, replacement: source("./src/adapters/ai_sdk.ts") },
      { find: /^@paddock\/tools\/openai$/, replacement: source("./src/adapters/openai.ts") },
      { find: /^@paddock\/tools\/anthropic$/, replacement: source("./src/adapters/anthropic.ts") },
      { find: /^@paddock\/tools\/sandbox$/, replacement: source("./sandbox.ts") },
      { find: /^@paddock\/tools\/patch$/, replacement: source("./src/patch.ts") },
      { find: /^@paddock\/tools\/extend$/, replacement: source("./src/extend.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    exclude: [
      ...configDefaults.exclude,
      ...SOAK_FILES,
      ...(!onNode && passes.includes("node") ? HOST_INDEPENDENT_FILES : []),
    ],
    // Under Node, `paddock` is started from the sources compiled once, not through tsx (test/helpers/build_cli.ts).
    globalSetup: ["test/helpers/build_cli.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores, but most of a file's time is spent waiting on a child process
    // (a shell, a container, a server): four forks keep both cores busy. The
    // files share each fork's module cache (no test mocks modules, stubs
    // globals or leaves process.env changed), which saves ~0.6 s of import per
    // file. Measured on the 2-core machine, quiet: Node pass 77 → 47 s, Deno
    // 50 → 30 s, Bun 47 → 26 s.
    pool: "forks",
    maxWorkers: 4,
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
  },
});
