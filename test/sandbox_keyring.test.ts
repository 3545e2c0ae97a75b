// A sandboxed command cannot reach the agent's keyrings (issue 39, item 1). The agent's session keyring
// is inherited across exec and possessed, so without a filter any command, whatever uid it runs as, reads
// a key the agent added. The bubblewrap sandbox runs every command under a seccomp program
// (src/sandbox/_seccomp_filter.ts) refusing add_key, request_key and keyctl with EPERM, as Docker's
// default profile does. First the program itself, run by a small BPF interpreter on every call number of
// every architecture it knows; then the real thing, with the agent's own session keyring.
import * as fs from "node:fs";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../sandbox.ts";
import {
  AUDIT_ARCH,
  KEYRING_SYSCALLS,
  keyringSeccompProgram,
  SECCOMP_DENY,
  X32_SYSCALL_BIT,
} from "../src/sandbox/_seccomp_filter.ts";
import { runProcess } from "../src/core/process/run_process.ts";
import { createAutoHost } from "../src/hosts/auto.ts";
import { agentAsUserSkipReason, runAgentAs, unreachableByOthers } from "./helpers/agent_as_user.ts";
import { diskFixture, hasProgram } from "./helpers/fixture.ts";
import { engineSkipReason, SANDBOX_IMAGE, sandboxSkipReason } from "./helpers/sandbox.ts";

const ALLOW = 0x7fff_0000;
const KILL_PROCESS = 0x8000_0000;

/**
 * Runs a classic BPF program over `seccomp_data` {nr, arch}: the instructions the program may hold (ld
 * abs word, jeq/jset k, ret k), anything else throws. Counts the steps so a loop would show.
 */
function runFilter(bytes: Uint8Array, nr: number, arch: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const data = new DataView(new ArrayBuffer(16));
  data.setUint32(0, nr >>> 0, true);
  data.setUint32(4, arch >>> 0, true);
  let accumulator = 0;
  for (let pc = 0, steps = 0; pc < bytes.length / 8; pc++, steps++) {
    if (steps > bytes.length / 8) throw new Error("the program ran longer than its length");
    const code = view.getUint16(pc * 8, true);
    const jt = view.getUint8(pc * 8 + 2);
    const jf = view.getUint8(pc * 8 + 3);
    const k = view.getUint32(pc * 8 + 4, true);
    if (code === 0x20) accumulator = data.getUint32(k, true); // BPF_LD | BPF_W | BPF_ABS
    else if (code === 0x15) pc += accumulator === k ? jt : jf; // BPF_JMP | BPF_JEQ | BPF_K
    else if (code === 0x45) pc += (accumulator & k) !== 0 ? jt : jf; // BPF_JMP | BPF_JSET | BPF_K
    else if (code === 0x06) return k; // BPF_RET | BPF_K
    else throw new Error(`unexpected instruction ${code.toString(16)} at ${pc}`);
  }
  throw new Error("the program fell off its end");
}

describe("the keyring seccomp program", () => {
  const program = keyringSeccompProgram();

  test("refuses exactly add_key, request_key and keyctl with EPERM on every architecture it knows", () => {
    let calls = 0;
    for (const { arch, numbers } of KEYRING_SYSCALLS) {
      for (let nr = 0; nr < 1024; nr++) {
        calls++;
        expect({ arch, nr, action: runFilter(program, nr, arch) }).toEqual({
          arch,
          nr,
          action: numbers.includes(nr) ? SECCOMP_DENY : ALLOW,
        });
      }
    }
    expect(calls).toBe(4 * 1024);
    expect(SECCOMP_DENY).toBe(0x0005_0001); // SECCOMP_RET_ERRNO | EPERM
  });

  test("refuses the whole x32 ABI and kills a process of an architecture it does not know", () => {
    for (const nr of [0, 1, 59, 248, 249, 250, 512, 547]) {
      expect(runFilter(program, X32_SYSCALL_BIT | nr, AUDIT_ARCH.X86_64)).toBe(SECCOMP_DENY);
    }
    for (const arch of [0, 0x8000_0016, /* s390x */ 0xc000_00f3, /* riscv64 */ 0xc000_0015 /* ppc64le */]) {
      expect(runFilter(program, 250, arch)).toBe(KILL_PROCESS);
      expect(runFilter(program, 0, arch)).toBe(KILL_PROCESS);
    }
  });
});

const SECRET = "paddock-keyring-secret-39";
const OWNER = 4242;
const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
const LIMITS = { timeoutMs: 60_000, maxOutputBytes: 65_536 };
const SLOW = 120_000;
const note = (reason: string | undefined): string => (reason === undefined ? "" : ` [skipped: ${reason}]`);
const keyctlSkip = sandboxSkipReason ?? (hasProgram("keyctl") ? undefined : "keyctl is not installed (keyutils)");

/**
 * The command a sandbox runs: find the agent's key, read it, list the session keyring, add a key, ask
 * for one; each line ends in its exit status.
 */
const KEYRING_PROBE = [
  "id=$(keyctl search @s user paddock-probe); echo search=$?",
  'keyctl print "$id"; echo print=$?',
  "keyctl show @s; echo show=$?",
  "keyctl add user paddock-inner x @s; echo add=$?",
  "keyctl request user paddock-probe; echo request=$?",
  "grep '^Seccomp:' /proc/self/status",
].join("\n");

/** Every keyring call failed with EPERM, and the secret never showed. */
function expectRefused(output: string): void {
  expect(output).not.toContain(SECRET);
  for (const step of ["search", "print", "show", "add", "request"]) expect(output).toMatch(new RegExp(`${step}=1\\b`));
  expect(output).toContain("Operation not permitted");
  expect(output).toMatch(/Seccomp:\s+2/);
}

/**
 * Runs `argv` as an agent with a session keyring of its own holding the secret would (`keyctl session
 * -`, then the key added to it).
 */
async function inSessionWithKey(argv: readonly string[], env: Record<string, string>): Promise<string> {
  // Through the host's spawn, as the sandbox's commands are (Deno's node:child_process rewrites argv).
  const add = 'keyctl add user paddock-probe "$0" @s >/dev/null && exec "$@"';
  const result = await runProcess(createAutoHost(), {
    argv: ["keyctl", "session", "-", "/bin/sh", "-c", add, SECRET, ...argv],
    cwd: "/",
    env,
    ...LIMITS,
  });
  return result.stdout.text + result.stderr.text;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(keyctlSkip !== undefined)(`bubblewrap: the agent's keyring is out of reach${note(keyctlSkip)}`, () => {
  test("outside the sandbox the same probe reads the key (the test sees what a command would)", async () => {
    const output = await inSessionWithKey(["/bin/sh", "-c", KEYRING_PROBE], { PATH: "/usr/bin:/bin" });
    expect(output).toContain(SECRET);
    expect(output).toMatch(/print=0/);
  });

  const cases = [
    { name: "the caller's own uid", owner: undefined, skip: undefined },
    {
      name: `a root caller over a workspace of uid ${OWNER} (setpriv)`,
      owner: OWNER,
      // bwrap started as that uid binds the runtime from where it is installed.
      skip: asRoot ? unreachableByOthers(process.execPath) : "not root",
    },
  ];
  for (const { name, owner, skip } of cases) {
    test.skipIf(skip !== undefined)(`as ${name}: every keyring call fails with EPERM${note(skip)}`, async () => {
      const fx = await diskFixture(["inside.txt=hello"]);
      cleanups.push(() => fx.cleanup());
      if (owner !== undefined) {
        fs.chmodSync(fx.parent, 0o711);
        fs.chownSync(fx.root, owner, owner);
      }
      const sandbox = new BubblewrapSandbox();
      cleanups.push(() => sandbox.close());
      const wrapped = await sandbox.wrap({
        argv: ["/bin/sh", "-c", `echo uid=$(id -u)\n${KEYRING_PROBE}`],
        cwd: fx.root,
        env: { PATH: "/usr/bin:/bin" },
        writable: [fx.root],
      });
      const output = await inSessionWithKey(wrapped.argv, wrapped.env);
      expect(output).toContain(`uid=${owner ?? process.getuid?.()}`);
      expectRefused(output);
    }, SLOW);
  }

  const agentSkip = agentAsUserSkipReason(asRoot, hasProgram("setpriv"));
  test.skipIf(agentSkip !== undefined)(
    `an agent running as uid ${OWNER} with a session keyring: every keyring call fails with EPERM${note(agentSkip)}`,
    async () => {
      const fx = await diskFixture(["inside.txt=hello"]);
      cleanups.push(() => fx.cleanup());
      fs.chmodSync(fx.parent, 0o711);
      fs.chownSync(fx.root, OWNER, OWNER);
      const add = 'keyctl add user paddock-probe "$0" @s >/dev/null && exec "$@"';
      const ran = await runAgentAs(
        OWNER,
        `${fx.parent}-home`,
        { root: fx.root, command: `echo uid=$(id -u)\n${KEYRING_PROBE}` },
        ["keyctl", "session", "-", "/bin/sh", "-c", add, SECRET],
      );
      expect(ran.uid).toBe(OWNER);
      expect(ran.result.stdout).toContain(`uid=${OWNER}`);
      expectRefused(ran.result.stdout + ran.result.stderr);
    },
    SLOW,
  );

  test(
    "a script the runtime runs inside (as node_process does) cannot read the agent's key through keyctl either",
    async () => {
      const fx = await diskFixture(["inside.txt=hello"]);
      cleanups.push(() => fx.cleanup());
      const sandbox = new BubblewrapSandbox();
      cleanups.push(() => sandbox.close());
      const script = path.join(fx.root, "probe.cjs");
      fs.writeFileSync(
        script,
        `const { spawnSync } = require("node:child_process");
const run = spawnSync("/bin/sh", ["-c", ${JSON.stringify(KEYRING_PROBE)}], { encoding: "utf8" });
console.log(run.stdout + run.stderr);`,
      );
      const runtimeArgs = typeof (globalThis as { Deno?: unknown }).Deno !== "undefined"
        ? [process.execPath, "run", "-A", "--no-config", "--no-lock", "--cached-only", script]
        : [process.execPath, script];
      const wrapped = await sandbox.wrap({
        argv: runtimeArgs,
        cwd: fx.root,
        env: { PATH: "/usr/bin:/bin" },
        writable: [fx.root],
      });
      expectRefused(await inSessionWithKey(wrapped.argv, wrapped.env));
    },
    SLOW,
  );
});

describe.skipIf(engineSkipReason !== undefined)(
  `containers run under the engine's default seccomp profile${note(engineSkipReason)}`,
  () => {
    test(
      "a container command runs with a seccomp filter (Docker's default profile refuses the keyring calls)",
      async () => {
        const fx = await diskFixture(["inside.txt=hello"]);
        cleanups.push(() => fx.cleanup());
        const sandbox = new SubprocessSandbox({ image: SANDBOX_IMAGE, network: "none" });
        cleanups.push(async () => await sandbox.close());
        const result = await new SandboxShell(sandbox, { cwd: fx.root }).exec({
          command: "grep '^Seccomp:' /proc/self/status",
          ...LIMITS,
        });
        expect(result.stdout).toMatch(/^Seccomp:\s+2$/m);
      },
      SLOW,
    );
  },
);
