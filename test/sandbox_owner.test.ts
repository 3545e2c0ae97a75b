import { fileURLToPath } from "node:url";
// The sandboxes let a command write its workspace, whoever owns it, and nothing else: as a root caller
// (a workspace of uid 0, and one of another uid) and as a non-root caller, for bubblewrap and containers.
import { execFile, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createNodeProcessTool, isWorkspaceError } from "../mod.ts";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../sandbox.ts";
import type { Sandbox } from "../src/core/process/command_sandbox.ts";
import { type DiskFixture, diskFixture, hasProgram } from "./helpers/fixture.ts";
import { onBun, onDeno } from "./helpers/runtime.ts";
import { ENGINE_SOCKET, engineSkipReason, SANDBOX_IMAGE, sandboxSkipReason } from "./helpers/sandbox.ts";

const uid = typeof process.getuid === "function" ? process.getuid() : -1;
const gid = typeof process.getgid === "function" ? process.getgid() : -1;
const asRoot = uid === 0;
const notRoot = asRoot ? undefined : "the caller is not root: it cannot make a workspace owned by another uid";
const noSetpriv = !hasProgram("setpriv")
  ? "setpriv is not installed (util-linux)"
  : !hasProgram("node")
  ? "no node on PATH to relay the engine's socket"
  : !othersReach(fileURLToPath(new URL("..", import.meta.url)))
  ? "this checkout is inside a folder other users cannot enter (mktemp -d is 0700): uid 4242 could not run the runtime from it"
  : undefined;

/** Whether every folder from `/` down to `dir` lets other users through (o+x). */
function othersReach(dir: string): boolean {
  for (let at = path.resolve(dir);; at = path.dirname(at)) {
    if ((fs.statSync(at).mode & 0o001) === 0) return false;
    if (at === path.dirname(at)) return true;
  }
}
/** The workspace owner the tests give a root caller, and the uid a non-root caller is started as. */
const OWNER = 4242;
const SECOND_OWNER = 4343;
const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 65_536 };
const SLOW = 120_000;

/**
 * Places outside the workspace and `/tmp` a command tries to write (append, so nothing is truncated): the
 * root, system folders and files, `/dev` and its mounts, kernel settings, other homes.
 */
const OUTSIDE_TARGETS: readonly string[] = [
  "/x",
  "/etc/x",
  "/etc/passwd",
  "/etc/hosts",
  "/usr/x",
  "/usr/bin/x",
  "/bin/x",
  "/lib/x",
  "/dev/x",
  "/dev/shm/x",
  "/dev/mqueue/x",
  "/proc/sys/kernel/hostname",
  "/proc/sysrq-trigger",
  "/root/x",
  "/home/x",
  "/var/x",
  "/run/x",
  "/sys/x",
];

// The command every case runs; each line of its output is one fact.
function probeCommand(outside: string): string {
  return [
    "echo made > made.txt && echo wrote-workspace",
    "mkdir sub && echo deep > sub/deep.txt && echo wrote-sub",
    "echo in-tmp > /tmp/t && echo wrote-tmp",
    "echo ids=$(id -u):$(id -g)",
    "grep -E '^Cap(Prm|Eff|Amb)' /proc/self/status",
    `for f in ${
      [...OUTSIDE_TARGETS, path.join(outside, "x")].join(" ")
    }; do (echo x >> "$f") 2>/dev/null && echo "wrote $f"; done`,
    "echo done",
  ].join("\n");
}

// Checks the probe's output and the workspace on the host: the command wrote it as `owner`, nothing else.
function expectConfinedAs(fx: DiskFixture, stdout: string, owner: { uid: number; gid: number }): void {
  const lines = stdout.split("\n");
  expect(lines.slice(0, 3)).toEqual(["wrote-workspace", "wrote-sub", "wrote-tmp"]);
  expect(lines).toContain(`ids=${owner.uid}:${owner.gid}`);
  const caps = lines.filter((line) => line.startsWith("Cap"));
  expect(caps).toHaveLength(3);
  for (const line of caps) expect(line).toMatch(/:\s+0{16}$/);
  // OUTSIDE_TARGETS.length + 1 writes outside attempted, none succeeded.
  expect(lines.filter((line) => line.startsWith("wrote /"))).toEqual([]);
  expect(lines).toContain("done");
  for (const name of ["made.txt", "sub", "sub/deep.txt"]) {
    const stat = fs.lstatSync(path.join(fx.root, name));
    expect({ name, uid: stat.uid, gid: stat.gid }).toEqual({ name, uid: owner.uid, gid: owner.gid });
  }
  expect(fs.readFileSync(path.join(fx.root, "sub/deep.txt"), "utf8")).toBe("deep\n");
  expect(fs.readdirSync(fx.outside)).toEqual(["secret.txt"]);
  expect(fs.readdirSync(fx.parent).sort()).toEqual(["outside", "workspace"]);
}

// A workspace owned by `owner`; its parent traversable, as a user's own folder is for that user.
async function ownedFixture(owner: { uid: number; gid: number }): Promise<DiskFixture> {
  const fx = await diskFixture(["inside.txt=hello"]);
  fs.chmodSync(fx.parent, 0o711);
  fs.chownSync(fx.root, owner.uid, owner.gid);
  fs.chownSync(path.join(fx.root, "inside.txt"), owner.uid, owner.gid);
  return fx;
}

// Lets a non-root child reach the engine: a socket of its own, relayed to the engine's (root-only) socket,
// as membership in the docker group would. The relay runs in the `node` on PATH (a process of its own, so
// the hijacked attach streams are piped by Node's net on every runtime under test).
const RELAY_SOURCE = `
const net = require("node:net");
const fs = require("node:fs");
const [socket, upstreamPath, owner] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(upstreamPath);
  client.pipe(upstream).pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
});
server.listen(socket, () => { fs.chownSync(socket, Number(owner), Number(owner)); console.log("listening"); });
`;

async function engineRelay(dir: string, owner: number): Promise<{ socket: string; close(): void }> {
  const socket = path.join(dir, "engine.sock");
  const child = spawn("node", ["-e", RELAY_SOURCE, socket, ENGINE_SOCKET, String(owner)], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the engine relay ended (${code})`)));
  });
  return { socket, close: () => child.kill("SIGKILL") };
}

// Runs one command as an agent running as uid OWNER would: Bun started through setpriv runs
// test/helpers/sandbox_as_user.ts, which makes the sandbox and the shell itself.
async function runAsOwner(
  backend: string,
  fx: DiskFixture,
  command: string,
): Promise<{ uid: number; result: { exitCode: number; stdout: string; stderr: string } }> {
  const home = fs.mkdtempSync(path.join(fx.parent, "..", "paddock-owner-home-"));
  fs.chownSync(home, OWNER, OWNER);
  const relay = backend === "container" ? await engineRelay(home, OWNER) : undefined;
  try {
    const bun = fs.realpathSync("node_modules/.bin/bun");
    const helper = path.resolve("test/helpers/sandbox_as_user.ts");
    const request = { backend, root: fx.root, command, image: SANDBOX_IMAGE, socketPath: relay?.socket ?? "" };
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        "setpriv",
        [
          "--reuid",
          String(OWNER),
          "--regid",
          String(OWNER),
          "--clear-groups",
          "--",
          bun,
          helper,
          JSON.stringify(request),
        ],
        { env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, TMPDIR: home }, encoding: "utf8", timeout: 90_000 },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      )
    );
    return JSON.parse(stdout.trim().split("\n").at(-1) as string);
  } finally {
    relay?.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

const BACKENDS: ReadonlyArray<{ name: string; skip: string | undefined; make: (reuse?: boolean) => Sandbox }> = [
  { name: "bubblewrap", skip: sandboxSkipReason, make: () => new BubblewrapSandbox() },
  {
    name: "container",
    skip: engineSkipReason,
    make: (reuse = false) => new SubprocessSandbox({ image: SANDBOX_IMAGE, network: "none", reuse }),
  },
];

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function track(fx: DiskFixture, sandbox: Sandbox): void {
  cleanups.push(() => fx.cleanup(), async () => await sandbox.close?.());
}

for (const backend of BACKENDS) {
  const skipNote = (reason: string | undefined) => (reason === undefined ? "" : ` [skipped: ${reason}]`);
  describe.skipIf(backend.skip !== undefined)(
    `the ${backend.name} sandbox writes its workspace, whoever owns it, and nothing else${skipNote(backend.skip)}`,
    () => {
      // bwrap started as the owner binds the runtime's folder: the owner must be able to enter it.
      const ownerSkip = !asRoot
        ? notRoot
        : backend.name === "bubblewrap" && !othersReach(path.dirname(process.execPath))
        ? "the runtime's executable sits in a folder uid 4242 cannot enter (a checkout under mktemp -d, 0700)"
        : undefined;
      test.skipIf(ownerSkip !== undefined)(
        `a root caller, a workspace of uid ${OWNER}: the command runs as ${OWNER}, its files are ${OWNER}'s on the host${
          skipNote(ownerSkip)
        }`,
        async () => {
          const fx = await ownedFixture({ uid: OWNER, gid: OWNER });
          const sandbox = backend.make();
          track(fx, sandbox);
          const result = await new SandboxShell(sandbox, { cwd: fx.root }).exec({
            command: probeCommand(fx.outside),
            ...LIMITS,
          });
          expect(result.stderr).toBe("");
          expectConfinedAs(fx, result.stdout, { uid: OWNER, gid: OWNER });
        },
        SLOW,
      );

      test.skipIf(!asRoot)(
        `a root caller, a root-owned workspace: uid 0 inside with every capability dropped writes only the workspace and /tmp${
          skipNote(notRoot)
        }`,
        async () => {
          const fx = await ownedFixture({ uid: 0, gid: 0 });
          const sandbox = backend.make();
          track(fx, sandbox);
          const result = await new SandboxShell(sandbox, { cwd: fx.root }).exec({
            command: probeCommand(fx.outside),
            ...LIMITS,
          });
          expect(result.stderr).toBe("");
          expectConfinedAs(fx, result.stdout, { uid: 0, gid: 0 });
        },
        SLOW,
      );

      const nonRootSkip = asRoot ? noSetpriv : undefined;
      test.skipIf(nonRootSkip !== undefined)(
        `a non-root caller writes its own workspace as itself, and nothing else${skipNote(nonRootSkip)}`,
        async () => {
          if (asRoot) {
            // The agent itself runs as uid OWNER (setpriv), over a workspace it owns.
            const fx = await ownedFixture({ uid: OWNER, gid: OWNER });
            cleanups.push(() => fx.cleanup());
            const ran = await runAsOwner(backend.name, fx, probeCommand(fx.outside));
            expect(ran.uid).toBe(OWNER);
            expect(ran.result.stderr).toBe("");
            expectConfinedAs(fx, ran.result.stdout, { uid: OWNER, gid: OWNER });
          } else {
            const fx = await ownedFixture({ uid, gid });
            const sandbox = backend.make();
            track(fx, sandbox);
            const result = await new SandboxShell(sandbox, { cwd: fx.root }).exec({
              command: probeCommand(fx.outside),
              ...LIMITS,
            });
            expectConfinedAs(fx, result.stdout, { uid, gid });
          }
        },
        SLOW,
      );

      const nodeSkip = !asRoot
        ? notRoot
        : backend.name === "container" && onDeno
        ? "Deno launches scripts with deno-only flags; the image has node"
        : ownerSkip;
      test.skipIf(nodeSkip !== undefined)(
        `node_process in the sandbox, a root caller, a workspace of uid ${OWNER}: the script's file is ${OWNER}'s${
          skipNote(nodeSkip)
        }`,
        async () => {
          const fx = await ownedFixture({ uid: OWNER, gid: OWNER });
          const sandbox = backend.make();
          track(fx, sandbox);
          // "inherit": the container's node may be another major than the host's (see subprocess_sandbox.test.ts).
          const tool = createNodeProcessTool(fx.root, {
            sandbox,
            timeoutMs: 30_000,
            permissions: onBun || backend.name === "container" ? "inherit" : "workspace",
          });
          const result = await tool.execute({
            source: "require('fs').writeFileSync('from-script.txt', 'ok'); console.log('wrote')",
          });
          expect(result.stderr).toBe("");
          expect(result.stdout).toBe("wrote\n");
          const stat = fs.lstatSync(path.join(fx.root, "from-script.txt"));
          expect([stat.uid, stat.gid]).toEqual([OWNER, OWNER]);
          expect(fs.readdirSync(fx.root).sort()).toEqual(["from-script.txt", "inside.txt"]);
        },
        SLOW,
      );
    },
  );
}

describe.skipIf(sandboxSkipReason !== undefined || !asRoot)(
  `bubblewrap started as a workspace's owner${
    sandboxSkipReason ? ` [skipped: ${sandboxSkipReason}]` : notRoot ? ` [skipped: ${notRoot}]` : ""
  }`,
  () => {
    test("refuses a network allowlist (SANDBOX_UNAVAILABLE), and nothing runs", async () => {
      const fx = await ownedFixture({ uid: OWNER, gid: OWNER });
      const sandbox = new BubblewrapSandbox({ network: { allow: ["registry.npmjs.org"] } });
      track(fx, sandbox);
      const error = await new SandboxShell(sandbox, { cwd: fx.root })
        .exec({ command: "echo ran > ran.txt", ...LIMITS })
        .then(() => null, (caught: unknown) => caught);
      expect(isWorkspaceError(error) && error.code).toBe("SANDBOX_UNAVAILABLE");
      expect(fs.readdirSync(fx.root)).toEqual(["inside.txt"]);
    });
  },
);

describe.skipIf(engineSkipReason !== undefined || !asRoot)(
  `reused containers follow the workspace's owner${
    engineSkipReason ? ` [skipped: ${engineSkipReason}]` : notRoot ? ` [skipped: ${notRoot}]` : ""
  }`,
  () => {
    test(
      "two owners never share a container, and a workspace given to another owner gets a new one",
      async () => {
        const first = await ownedFixture({ uid: OWNER, gid: OWNER });
        const second = await ownedFixture({ uid: SECOND_OWNER, gid: SECOND_OWNER });
        const sandbox = new SubprocessSandbox({ image: SANDBOX_IMAGE, network: "none", reuse: true });
        cleanups.push(() => first.cleanup(), () => second.cleanup(), () => sandbox.close());
        const command = "echo $(id -u):$(hostname) > owner-$(id -u).txt; cat owner-$(id -u).txt";
        const run = (fx: DiskFixture) => new SandboxShell(sandbox, { cwd: fx.root }).exec({ command, ...LIMITS });
        const a = await run(first);
        const b = await run(second);
        const again = await run(first);
        const [aUid, aHost] = a.stdout.trim().split(":");
        const [bUid, bHost] = b.stdout.trim().split(":");
        expect([aUid, bUid]).toEqual([String(OWNER), String(SECOND_OWNER)]);
        expect(bHost).not.toBe(aHost);
        expect(again.stdout).toBe(a.stdout); // the same long-lived container, reused
        // The first workspace changes hands: its commands now run as the new owner, in a new container.
        fs.chownSync(first.root, SECOND_OWNER, SECOND_OWNER);
        const moved = await run(first);
        const [mUid, mHost] = moved.stdout.trim().split(":");
        expect(mUid).toBe(String(SECOND_OWNER));
        expect(mHost).not.toBe(aHost);
        expect(fs.lstatSync(first.abs(`owner-${SECOND_OWNER}.txt`)).uid).toBe(SECOND_OWNER);
        expect(fs.lstatSync(first.abs(`owner-${OWNER}.txt`)).uid).toBe(OWNER);
      },
      SLOW,
    );
  },
);
