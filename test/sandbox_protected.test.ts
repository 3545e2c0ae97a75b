import { execFileSync, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import { afterAll, afterEach, describe, expect, test } from "vitest";
import { createNodeProcessTool, createShellTool, executeToolCall } from "../mod.ts";
import { createMcpRegistry } from "../src/mcp/create_mcp_registry.ts";
import { toolAnnotations } from "../src/mcp/tool_annotations.ts";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../sandbox.ts";
import type { Sandbox } from "../src/core/process/command_sandbox.ts";
import { DEFAULT_PROTECTED_PATHS } from "../src/core/fs/protected_paths.ts";
import {
  attackSource,
  PROTECTED_ABSENT,
  PROTECTED_ORIGINALS,
  PROTECTED_TREE,
  PROTECTED_WRITE_CASES,
  type ProtectedWriteCase,
} from "./cases/protected_writes.ts";
import { type DiskFixture, diskFixture, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { onDeno, skipNote } from "./helpers/runtime.ts";
import { engineSkipReason, SANDBOX_IMAGE as IMAGE, sandboxSkipReason } from "./helpers/sandbox.ts";
import { runsEveryContainerRow } from "./helpers/suite_pass.ts";

// The container backend runs where `.ci/run` (or `bash ../shared/docker/setup-engine.sh up`) started an engine.
const uid = typeof process.getuid === "function" ? process.getuid() : 1000;
const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 65_536 };
const SLOW = 60_000;

/** The attacks the binds alone stop: the rows of the tables below. */
const BIND_ROWS = PROTECTED_WRITE_CASES.filter((row) => row.bindsStopIt);

/**
 * Whether a container table runs `row` in this pass: every row but the first
 * in the Node pass of `npm test` only. All rows send the same request from the
 * host (one tree, the default protected paths, one sandbox): what depends on
 * the runtime (the protected-path check's walk, the Engine API client, the
 * relay) does the same work for each, and only the command inside the
 * container differs, which the image's shell or node runs whatever the
 * suite's runtime (suite_pass.ts).
 */
const runsContainerRow = (row: ProtectedWriteCase) => runsEveryContainerRow || row === BIND_ROWS[0];
const CONTAINER_ROW_NOTE = skipNote(
  !runsEveryContainerRow,
  "the row differs from the first only inside the container: npm test's Node pass runs it",
);

const BACKENDS: ReadonlyArray<
  {
    name: string;
    skip: string | undefined;
    container: boolean;
    make: () => Sandbox;
    prepare?: (root: string) => void;
  }
> = [
  { name: "bubblewrap", skip: sandboxSkipReason, container: false, make: () => new BubblewrapSandbox() },
  ...[false, true].map((reuse) => ({
    name: reuse ? "container (reuse)" : "container",
    skip: engineSkipReason,
    container: true,
    make: () => new SubprocessSandbox({ image: IMAGE, reuse }),
    // A root caller's commands run as uid 1000, which must be able to write the workspace.
    prepare: (root: string) => {
      if (uid === 0) execFileSync("chown", ["-R", "1000:1000", root]);
    },
  })),
];

let fixture: DiskFixture | undefined;
afterEach(() => {
  fixture?.cleanup();
  fixture = undefined;
});

for (const backend of BACKENDS) {
  describe.skipIf(backend.skip !== undefined)(
    `a sandboxed shell (${backend.name}) sees protected paths read-only${
      backend.skip ? ` [skipped: ${backend.skip}]` : ""
    }`,
    () => {
      const sandbox = backend.make();
      afterAll(async () => await sandbox.close?.());

      async function shellIn(tree: readonly string[], protectedPaths: readonly string[] = DEFAULT_PROTECTED_PATHS) {
        fixture = await diskFixture(tree);
        backend.prepare?.(fixture.root);
        const shell = createShellTool(new SandboxShell(sandbox, { cwd: fixture.root, protectedPaths }), {
          needsApproval: false,
        });
        return { fx: fixture, run: (command: string) => shell.execute({ command, timeout_ms: LIMITS.timeoutMs }) };
      }

      for (const row of BIND_ROWS) {
        const runs = !backend.container || runsContainerRow(row);
        test.runIf(runs)(
          `${row.name}: fails, bytes unchanged${runs ? "" : CONTAINER_ROW_NOTE}`,
          async () => {
            const { fx, run } = await shellIn(PROTECTED_TREE);
            const result = await run(row.sh);
            expect(result.exitCode).not.toBe(0);
            for (const [file, bytes] of Object.entries(PROTECTED_ORIGINALS)) {
              expect(fs.readFileSync(fx.abs(file), "utf8")).toBe(bytes);
            }
            for (const name of PROTECTED_ABSENT) expect(fs.existsSync(fx.abs(name))).toBe(false);
            expect(fs.existsSync(fx.abs("lib/hl"))).toBe(false);
          },
          SLOW,
        );
      }

      test("without protected paths the same command changes package.json (what the binds prevent)", async () => {
        const { fx, run } = await shellIn(PROTECTED_TREE, []);
        expect((await run(PROTECTED_WRITE_CASES[0].sh)).exitCode).toBe(0);
        expect(fs.readFileSync(fx.abs("package.json"), "utf8")).toContain("pwned");
      }, SLOW);

      test("the rest stays writable, and everything is readable", async () => {
        const { fx, run } = await shellIn(PROTECTED_TREE);
        const result = await run(
          "echo new > lib/new.txt && echo x > src/a.txt && mkdir -p top/d && cat package.json .git/config",
        );
        expect(result.exitCode).toBe(0);
        expect(result.stdout).toContain('"echo ok"');
        expect(fs.readFileSync(fx.abs("lib/new.txt"), "utf8")).toBe("new\n");
      }, SLOW);

      test(
        "a protected name that is a link: the file it leads to inside is read-only (the link itself can be replaced)",
        async () => {
          const { fx, run } = await shellIn(["package.json => config/pkg.json", 'config/pkg.json={"scripts":{}}']);
          expect((await run("printf x > config/pkg.json")).exitCode).not.toBe(0);
          expect((await run("printf x > package.json")).exitCode).not.toBe(0);
          expect(fs.readFileSync(fx.abs("config/pkg.json"), "utf8")).toBe('{"scripts":{}}');
          expect((await run("rm package.json && printf x > package.json")).exitCode).toBe(0); // the gap the README states
        },
        SLOW,
      );

      test("a protected name that is a link pointing out is not bound (nothing outside shows up)", async () => {
        const { run } = await shellIn([...PROTECTED_TREE, ".npmrc => @outside/secret.txt"]);
        const result = await run("cat .npmrc; echo status=$?");
        expect(result.stdout + result.stderr).not.toContain(OUTSIDE_SECRET);
        expect(result.stdout).toMatch(/status=1/);
      }, SLOW);

      test("a folder swapped for a link between the check and the mount: the check inside runs nothing", async () => {
        fixture = await diskFixture(PROTECTED_TREE);
        backend.prepare?.(fixture.root);
        const fx = fixture;
        fs.writeFileSync(`${fx.outside}/package.json`, OUTSIDE_SECRET);
        const command = await sandbox.wrap({
          argv: ["/bin/sh", "-c", "cat sub/package.json; echo RAN"],
          cwd: fx.root,
          env: { PATH: "/usr/bin:/bin" },
          writable: [fx.root],
          pinned: [fx.abs("sub")],
          readOnly: [fx.abs("sub/package.json"), fx.abs("package.json")],
        });
        try {
          // The swap an adversary in the workspace would make in that instant: sub now leads outside.
          fs.renameSync(fx.abs("sub"), fx.abs("sub-real"));
          fs.symlinkSync(fx.outside, fx.abs("sub"));
          const run = spawnSync(command.argv[0], command.argv.slice(1), {
            cwd: fx.root,
            env: command.env,
            encoding: "utf8",
          });
          expect(run.stdout + run.stderr).not.toContain(OUTSIDE_SECRET);
          expect(run.stdout).not.toContain("RAN");
          expect(run.status).not.toBe(0);
        } finally {
          await command.cleanup?.();
        }
      }, SLOW);

      test("a protected name that does not exist yet can be created (the gap the README states)", async () => {
        const { fx, run } = await shellIn(PROTECTED_TREE);
        const makefile = PROTECTED_WRITE_CASES.find((row) => !row.bindsStopIt)!;
        expect((await run(makefile.sh)).exitCode).toBe(0);
        expect(fs.existsSync(fx.abs("Makefile"))).toBe(true);
        // Next command: it exists now, so it is read-only.
        expect((await run("echo more >> Makefile")).exitCode).not.toBe(0);
        expect(fs.readFileSync(fx.abs("Makefile"), "utf8")).toBe("all:\n\ttouch pwned\n");
      }, SLOW);
    },
  );
}

describe.skipIf(sandboxSkipReason !== undefined)(
  `paddock mcp with a shell allow list in the sandbox: descriptions and hints say what is protected${
    sandboxSkipReason ? ` [skipped: ${sandboxSkipReason}]` : ""
  }`,
  () => {
    const sandbox = new BubblewrapSandbox();
    afterAll(async () => await sandbox.close?.());

    test(
      "shell: protected paths read-only inside, and a write to package.json fails through the registry",
      async () => {
        fixture = await diskFixture(PROTECTED_TREE);
        const registry = createMcpRegistry(fixture.workspace, {
          shell: { mode: "allow", patterns: ["printf"] },
          sandbox,
        });
        const shell = registry.get("shell")!;
        expect(shell.description).toMatch(/OS sandbox \(bubblewrap\).*protected paths .* that exist are read-only/);
        expect(toolAnnotations(shell.name, shell.readOnly, shell.openWorld).openWorldHint).toBe(false);
        const nodeProcess = registry.get("node_process")!;
        expect(nodeProcess.description).toMatch(/protected paths/);
        const result = await executeToolCall(
          registry,
          {
            id: "1",
            name: "shell",
            arguments: { command: "printf x > package.json" },
          },
          undefined,
          { approve: () => true },
        );
        expect(JSON.parse(result.content).exitCode).not.toBe(0);
        expect(fs.readFileSync(fixture.abs("package.json"), "utf8")).toBe(PROTECTED_ORIGINALS["package.json"]);
      },
      SLOW,
    );
  },
);

describe.skipIf(engineSkipReason !== undefined || onDeno)(
  `node_process in the container sandbox (its binds alone: permissions "inherit") cannot change protected paths${
    engineSkipReason
      ? ` [skipped: ${engineSkipReason}]`
      : onDeno
      ? " [skipped: Deno launches scripts with deno-only flags; the image has node]"
      : ""
  }`,
  () => {
    // The script file is the caller's, mode 0600: the container runs as the caller to read it.
    const sandbox = new SubprocessSandbox({
      image: IMAGE,
      user: uid === 0 ? "0:0" : `${uid}:${process.getgid?.() ?? uid}`,
    });
    afterAll(async () => await sandbox.close());

    for (const row of BIND_ROWS) {
      test.runIf(runsContainerRow(row))(
        `${row.name}: refused, bytes unchanged${runsContainerRow(row) ? "" : CONTAINER_ROW_NOTE}`,
        async () => {
          fixture = await diskFixture(PROTECTED_TREE);
          const tool = createNodeProcessTool(fixture.workspace, {
            sandbox,
            permissions: "inherit",
            timeoutMs: 20_000,
            protectedPaths: DEFAULT_PROTECTED_PATHS,
          });
          const result = await tool.execute({ source: attackSource(row) });
          expect(result.stdout).toMatch(/^FAILED /);
          for (const [file, bytes] of Object.entries(PROTECTED_ORIGINALS)) {
            expect(fs.readFileSync(fixture.abs(file), "utf8")).toBe(bytes);
          }
          for (const name of PROTECTED_ABSENT) expect(fs.existsSync(fixture.abs(name))).toBe(false);
        },
        SLOW,
      );
    }
  },
);
