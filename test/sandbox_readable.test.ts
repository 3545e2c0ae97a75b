// No host file that an unprivileged user could not read is readable inside a sandbox (issue 39, item 2).
// A command may run as uid 0 with no capability (a root caller over a root-owned workspace), yet uid 0
// owns root's files and reads a 0600 one or lists a 0700 folder without any capability. The test walks
// every visible path inside, as the sandbox's user, opening each file and listing each folder (the
// kernel's /proc, /sys, /dev and the workspace aside), then judges on the host each one that opened but
// whose bits inside do not open it to every user: a mismatch is one that `nobody` could not read on the
// host. A folder shown with `readOnly` holds a 0600 key, a 0640 key and a 0700 folder of the command's
// own user, beside a public file (which must stay readable).
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../sandbox.ts";
import type { Sandbox } from "../src/core/process/command_sandbox.ts";
import { agentAsUserSkipReason, runAgentAs, unreachableByOthers } from "./helpers/agent_as_user.ts";
import { type DiskFixture, diskFixture, hasProgram } from "./helpers/fixture.ts";
import { judgeHostWalk, parseWalk, shown, walkerCommand, type WalkReport, walkSkips } from "./helpers/readable_walk.ts";
import { engineSkipReason, SANDBOX_IMAGE, sandboxSkipReason } from "./helpers/sandbox.ts";

const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
const OWNER = 4242;
const LIMITS = { timeoutMs: 150_000, maxOutputBytes: 1_048_576 };
const SLOW = 200_000;
const notRoot = asRoot ? undefined : "the caller is not root: it cannot make files of another uid";
const note = (reason: string | undefined): string => (reason === undefined ? "" : ` [skipped: ${reason}]`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A workspace and, beside it, the `shown` folder of `owner`'s keys; the parent lets others through. */
async function fixtureOf(owner: number): Promise<{ fx: DiskFixture; shownDir: string }> {
  const fx = await diskFixture(["inside.txt=hello"]);
  cleanups.push(() => fx.cleanup());
  fs.chmodSync(fx.parent, 0o711);
  fs.chownSync(fx.root, owner, owner);
  const shownDir = path.join(fx.parent, "shown");
  fs.mkdirSync(path.join(shownDir, "private"), { recursive: true });
  const files: Array<[string, number]> = [["public.txt", 0o644], ["secret.key", 0o600], ["group.key", 0o640], [
    "private/inner.key",
    0o644,
  ]];
  for (const [name, mode] of files) {
    fs.writeFileSync(path.join(shownDir, name), `KEY-${name}`, { mode });
    fs.chmodSync(path.join(shownDir, name), mode);
  }
  fs.chmodSync(path.join(shownDir, "private"), 0o700);
  for (const name of ["", "private", ...files.map(([name]) => name)]) {
    fs.chownSync(path.join(shownDir, name), owner, owner);
  }
  return { fx, shownDir };
}

/** Logs the walk's counts (the numbers the docs quote) and checks the fixture was reached. */
function expectWalked(
  label: string,
  report: WalkReport,
  mismatches: string[],
  atLeast: number,
  shownDir?: string,
): void {
  console.log(
    `${label}: ${report.walked} entries walked, ${report.opened} files opened, ${report.listed} folders listed, ` +
      `${report.candidates.length} not open to all by their bits, ${mismatches.length} mismatches`,
    mismatches.slice(0, 20),
  );
  expect(report.walked).toBeGreaterThan(atLeast); // the system folders (the image) were walked
  if (shownDir !== undefined) {
    const opened = report.candidates.map(shown);
    expect(opened).not.toContain(path.join(shownDir, "secret.key"));
    expect(opened).not.toContain(`${path.join(shownDir, "private")}/`);
  }
}

describe.skipIf(sandboxSkipReason !== undefined)(
  `bubblewrap: nothing nobody could read on the host is readable inside${note(sandboxSkipReason)}`,
  () => {
    const cases: Array<{ name: string; skip: string | undefined; owner: number; uid: number }> = [
      { name: "a root caller over a root-owned workspace (uid 0 inside)", skip: notRoot, owner: 0, uid: 0 },
      // bwrap started as that uid binds the runtime from where it is installed.
      {
        name: `a root caller over a workspace of uid ${OWNER}`,
        skip: notRoot ?? unreachableByOthers(process.execPath),
        owner: OWNER,
        uid: OWNER,
      },
    ];
    for (const { name, skip, owner, uid } of cases) {
      test.skipIf(skip !== undefined)(`${name}: every visible path walked, no mismatch${note(skip)}`, async () => {
        const { fx, shownDir } = await fixtureOf(owner);
        const sandbox = new BubblewrapSandbox({ readOnly: [shownDir] });
        cleanups.push(() => sandbox.close());
        const command = `id -u; ${walkerCommand(fx.root, process.execPath, walkSkips(fx.root))}`;
        const result = await new SandboxShell(sandbox, { cwd: fx.root }).exec({ command, ...LIMITS });
        expect(result.stdout.split("\n")[0]).toBe(String(uid));
        const report = parseWalk(result.stdout, result.stderr);
        // The runtime is bound on purpose (node_process runs it), from wherever it is installed.
        const { mismatches, own } = judgeHostWalk(report, [process.execPath, fs.realpathSync(process.execPath)]);
        expectWalked(`bubblewrap, ${name}`, report, mismatches, 10_000, shownDir);
        console.log("the sandbox's own, not the host's:", own);
        expect(mismatches).toEqual([]);
        // The public file beside the keys is still there to read.
        const check = await new SandboxShell(sandbox, { cwd: fx.root }).exec({
          command: `cat ${shownDir}/public.txt; echo; cat ${shownDir}/secret.key ${shownDir}/group.key ` +
            `${shownDir}/private/inner.key; ls ${shownDir}/private; chmod 644 ${shownDir}/secret.key; echo done`,
          ...LIMITS,
        });
        expect(check.stdout).toBe("KEY-public.txt\ndone\n");
        expect(check.stdout + check.stderr).not.toMatch(/KEY-(secret|group|private)/);
        expect(fs.statSync(path.join(shownDir, "secret.key")).mode & 0o777).toBe(0o600);
      }, SLOW);
    }

    const agentSkip = agentAsUserSkipReason(asRoot, hasProgram("setpriv"));
    test.skipIf(agentSkip !== undefined)(
      `an agent running as uid ${OWNER} (setpriv, Bun over the library): every visible path walked, no mismatch${
        note(agentSkip)
      }`,
      async () => {
        const { fx, shownDir } = await fixtureOf(OWNER);
        const bun = fs.realpathSync("node_modules/.bin/bun");
        const command = `id -u; ${walkerCommand(fx.root, bun, walkSkips(fx.root))}`;
        const ran = await runAgentAs(OWNER, `${fx.parent}-home`, { root: fx.root, command, readOnly: [shownDir] });
        expect(ran.uid).toBe(OWNER);
        expect(ran.result.stdout.split("\n")[0]).toBe(String(OWNER));
        const report = parseWalk(ran.result.stdout, ran.result.stderr);
        const { mismatches, own } = judgeHostWalk(report);
        expectWalked(`bubblewrap, an agent as uid ${OWNER}`, report, mismatches, 10_000, shownDir);
        console.log("the sandbox's own, not the host's:", own);
        expect(mismatches).toEqual([]);
      },
      SLOW,
    );
  },
);

describe.skipIf(engineSkipReason !== undefined)(
  `containers: no host file but the workspace is shown, so none unreadable by nobody is readable${
    note(engineSkipReason)
  }`,
  () => {
    const cases: Array<{ name: string; skip: string | undefined; owner: number }> = [
      { name: "a root caller over a root-owned workspace (uid 0 inside)", skip: notRoot, owner: 0 },
      { name: `a root caller over a workspace of uid ${OWNER}`, skip: notRoot, owner: OWNER },
    ];
    for (const { name, skip, owner } of cases) {
      test.skipIf(skip !== undefined)(
        `${name}: every visible path walked, no host file among them${note(skip)}`,
        async () => {
          const { fx } = await fixtureOf(owner);
          const sandbox: Sandbox = new SubprocessSandbox({ image: SANDBOX_IMAGE, network: "none" });
          cleanups.push(async () => await sandbox.close?.());
          const command = walkerCommand(fx.root, "node", walkSkips("/workspace"));
          const result = await new SandboxShell(sandbox, { cwd: fx.root }).exec({ command, ...LIMITS });
          const report = parseWalk(result.stdout, result.stderr);
          // What is not on the image's own filesystem came from the host (Docker's /etc/hosts, a volume):
          // none of it may be a file nobody could read. The image's own files are not the host's.
          const fromHost = report.candidates.filter((entry) => entry.dev !== report.rootDev).map(shown);
          const imageOnly = report.candidates.filter((entry) => entry.dev === report.rootDev).map(shown);
          expectWalked(`container, ${name}`, report, fromHost, 100); // the image is small (busybox and node)
          console.log(`container, ${name}: the image's own files not open to all yet readable:`, imageOnly);
          expect(fromHost).toEqual([]);
        },
        SLOW,
      );
    }
  },
);
