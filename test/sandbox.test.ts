import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { createNodeProcessTool, createShellTool, isWorkspaceError, type WorkspaceError } from "../mod.ts";
import { BubblewrapSandbox, createCredentialBroker, SandboxShell } from "../sandbox.ts";
import { type DiskFixture, diskFixture, leftovers, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { onBun } from "./helpers/runtime.ts";
import { clientAnswers, clientCommand, sandboxSkipNote, sandboxSkipReason, sh } from "./helpers/sandbox.ts";

const skip = sandboxSkipReason !== undefined;
const LIMITS = { timeoutMs: 15_000, maxOutputBytes: 65_536 };
const HOME_SECRET = "SECRET-in-the-agent-home";
// No route out: ENETUNREACH (Bun reports every refused connect as ECONNREFUSED).
const UNREACHABLE = expect.stringMatching(/^(ENETUNREACH|ECONNREFUSED)$/);

async function listen(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return (server.address() as net.AddressInfo).port;
}

async function expectUnavailable(promise: Promise<unknown>): Promise<WorkspaceError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(isWorkspaceError(error, "SANDBOX_UNAVAILABLE")).toBe(true);
  return error as WorkspaceError;
}

describe("BubblewrapSandbox and SandboxShell", () => {
  let fx: DiskFixture;
  let sandbox: BubblewrapSandbox;
  const cleanups: Array<() => Promise<void> | void> = [];

  beforeEach(async () => {
    fx = await diskFixture(["inside.txt=hello", "escape => @outside/secret.txt", "outdir => @outside"]);
    sandbox = new BubblewrapSandbox();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    await sandbox.close();
    fx.cleanup();
  });

  test.skipIf(skip)(`a command cannot write outside the workspace${sandboxSkipNote}`, async () => {
    const hostTmp = path.join(os.tmpdir(), `paddock-sandbox-probe-${process.pid}-${Date.now()}`);
    const shell = new SandboxShell(sandbox, { cwd: fx.root });
    const result = await shell.exec({
      command: [
        `echo pwned > ${sh(path.join(fx.outside, "new.txt"))}`,
        `echo pwned > ${sh(path.join(fx.outside, "secret.txt"))}`,
        `echo pwned > ${sh(path.join(fx.parent, "beside.txt"))}`,
        "echo pwned > escape",
        "echo pwned > outdir/new.txt",
        "touch /usr/paddock-pwned /etc/paddock-pwned",
        `echo scratch > ${sh(hostTmp)}`,
        "echo ok > made-inside.txt",
      ].join("; "),
      ...LIMITS,
    });
    expect(result.exitCode).toBe(0); // the last command, inside the workspace, worked
    expect(fs.readFileSync(fx.abs("made-inside.txt"), "utf8")).toBe("ok\n");
    expect(fs.readdirSync(fx.outside)).toEqual(["secret.txt"]);
    expect(fs.readFileSync(path.join(fx.outside, "secret.txt"), "utf8")).toBe(OUTSIDE_SECRET);
    expect(fs.readdirSync(fx.parent).sort()).toEqual(["outside", "workspace"]);
    expect(fs.existsSync("/usr/paddock-pwned")).toBe(false);
    expect(fs.existsSync("/etc/paddock-pwned")).toBe(false);
    expect(fs.existsSync(hostTmp)).toBe(false); // /tmp inside is private
    expect(result.stderr).toMatch(/No such file|Read-only file system|Permission denied/);
  });

  test.skipIf(skip)(`a secret in a home folder outside the workspace cannot be read${sandboxSkipNote}`, async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-home-"));
    cleanups.push(() => fs.rmSync(home, { recursive: true, force: true }));
    fs.mkdirSync(path.join(home, ".ssh"));
    fs.writeFileSync(path.join(home, ".ssh", "id_ed25519"), HOME_SECRET);
    const shell = new SandboxShell(sandbox, { cwd: fx.root, env: { HOME: home } });
    const result = await shell.exec({
      command: `cat ${sh(path.join(home, ".ssh", "id_ed25519"))}; ls ${sh(home)}; ls /root /home; echo "HOME=$HOME"`,
      ...LIMITS,
    });
    expect(result.stdout).not.toContain(HOME_SECRET);
    expect(result.stdout).toContain("HOME=/tmp\n");
    expect(result.stderr).toMatch(/No such file/);
  });

  test.skipIf(skip)(
    `a link in the workspace pointing out of it cannot be read by a command${sandboxSkipNote}`,
    async () => {
      const shell = new SandboxShell(sandbox, { cwd: fx.root });
      const result = await shell.exec({ command: "cat inside.txt; cat escape; ls outdir/", ...LIMITS });
      expect(result.stdout).toBe("hello");
      expect(result.stdout + result.stderr).not.toContain(OUTSIDE_SECRET);
      expect(result.stderr).toMatch(/escape: No such file[^]*outdir\/.*No such file/);
      expect(result.exitCode).not.toBe(0);
    },
  );

  test.skipIf(skip)(
    `node_process with the sandbox option cannot read a link pointing out${sandboxSkipNote}`,
    async () => {
      // Bun has no permission model; the sandbox alone confines it there.
      const permissions = onBun ? "inherit" : "workspace";
      const tool = createNodeProcessTool(fx.workspace, { sandbox, permissions, timeoutMs: 15_000 });
      const source = `const fs = require("fs");
for (const name of ["inside.txt", "escape"]) {
  try { console.log(name, fs.readFileSync(name, "utf8")); } catch (error) { console.log(name, error.code); }
}`;
      const result = await tool.execute({ source });
      expect(result.stdout).toBe("inside.txt hello\nescape ENOENT\n");
      expect(leftovers(fx.root)).toEqual([]);
    },
  );

  test.skipIf(skip || onBun)(
    `without the sandbox the runtime's permission model alone still reads that link (the hole the sandbox closes)${
      onBun ? " [skipped: Bun has no permission model]" : sandboxSkipNote
    }`,
    async () => {
      const tool = createNodeProcessTool(fx.workspace, { timeoutMs: 15_000 });
      const result = await tool.execute({ source: `console.log(require("fs").readFileSync("escape", "utf8"))` });
      expect(result.stdout).toBe(`${OUTSIDE_SECRET}\n`);
    },
  );

  test.skipIf(skip)(
    `with network "none" there is only loopback and no host is reachable${sandboxSkipNote}`,
    async () => {
      const server = net.createServer((socket) => socket.end("hi"));
      const port = await listen(server);
      cleanups.push(() => void server.close());
      const shell = new SandboxShell(sandbox, { cwd: fx.root });
      const result = await shell.exec({
        command: clientCommand(fx.root, ["interfaces", `direct:127.0.0.1:${port}`, "direct:192.0.2.1:80"]),
        ...LIMITS,
      });
      expect(result.stderr).toBe("");
      expect(clientAnswers(result.stdout)).toEqual({
        interfaces: "lo",
        [`direct:127.0.0.1:${port}`]: "ECONNREFUSED", // the sandbox's own loopback, not the host's
        "direct:192.0.2.1:80": UNREACHABLE,
      });
    },
  );

  test.skipIf(skip)(
    `with an allowlist only the proxy leads out, and it refuses other hosts${sandboxSkipNote}`,
    async () => {
      const requests: string[] = [];
      const upstream = http.createServer((req, res) => {
        requests.push(`${req.method} ${req.url}`);
        res.end(`upstream-ok ${req.url}`);
      });
      const port = await listen(upstream);
      cleanups.push(() => void upstream.close());
      const allowed = new BubblewrapSandbox({ network: { allow: ["localhost"], allowPrivate: ["localhost"] } });
      cleanups.push(() => allowed.close());
      const shell = new SandboxShell(allowed, { cwd: fx.root });
      const probes = [
        `get:http://localhost:${port}/hello`,
        "get:http://not-allowed.example/",
        "connect:not-allowed.example:443",
        `get:http://127.0.0.1:${port}/by-address`,
        `direct:127.0.0.1:${port}`,
        "direct:192.0.2.1:80",
        "interfaces",
      ];
      const result = await shell.exec({ command: clientCommand(fx.root, probes), ...LIMITS });
      expect(result.stderr).toBe("");
      expect(clientAnswers(result.stdout)).toEqual({
        [probes[0]]: "200 upstream-ok /hello",
        [probes[1]]: "403 Host 'not-allowed.example' is not on the allowlist",
        [probes[2]]: "403",
        [probes[3]]: "403 Host '127.0.0.1' is not on the allowlist",
        [probes[4]]: "ECONNREFUSED",
        [probes[5]]: UNREACHABLE,
        interfaces: "lo",
      });
      expect(requests).toEqual(["GET /hello"]);
    },
  );

  test.skipIf(skip)(`a credential broker can be the sandbox's only way out${sandboxSkipNote}`, async () => {
    const upstream = http.createServer((_req, res) => res.end("via-broker"));
    const port = await listen(upstream);
    cleanups.push(() => void upstream.close());
    const broker = await createCredentialBroker({ allow: ["localhost"], allowPrivate: ["localhost"] });
    cleanups.push(() => broker.close());
    const brokered = new BubblewrapSandbox({ network: { proxy: broker } });
    cleanups.push(() => brokered.close());
    const shell = new SandboxShell(brokered, { cwd: fx.root });
    const probes = [`get:http://localhost:${port}/`, "get:http://elsewhere.example/"];
    const result = await shell.exec({
      command: `${clientCommand(fx.root, probes)}; echo "$PADDOCK_BROKER_URL"`,
      ...LIMITS,
    });
    expect(clientAnswers(result.stdout)).toEqual({
      [probes[0]]: "200 via-broker",
      [probes[1]]: "403 Host 'elsewhere.example' is not on the allowlist",
    });
    expect(result.stdout).toContain("http://127.0.0.1:3128/__broker/\n");
  });

  test.skipIf(skip)(`the shell tool runs its commands through a SandboxShell${sandboxSkipNote}`, async () => {
    const tool = createShellTool(new SandboxShell(sandbox, { cwd: fx.root }), { needsApproval: false });
    const result = await tool.execute({ command: `cat inside.txt; cat ${sh(path.join(fx.outside, "secret.txt"))}` });
    expect(result).toMatchObject({ exitCode: 1, signal: null, stdout: "hello" });
    expect(JSON.stringify(result)).not.toContain(OUTSIDE_SECRET);
  });

  test.skipIf(skip)(`the whole process group is killed on timeout${sandboxSkipNote}`, async () => {
    const shell = new SandboxShell(sandbox, { cwd: fx.root });
    // Had the call waited for the `sleep 30`, the test's 10 s bound would end it: no clock is read here.
    const result = await shell.exec({
      command: "(sleep 0.6; echo late > late.txt) & sleep 30",
      timeoutMs: 300,
      maxOutputBytes: 1_024,
    });
    expect(result.timedOut).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(fs.existsSync(fx.abs("late.txt"))).toBe(false);
  }, 10_000);

  test.skipIf(skip)(`output beyond the limit keeps the start and the end${sandboxSkipNote}`, async () => {
    const shell = new SandboxShell(sandbox, { cwd: fx.root });
    const result = await shell.exec({ command: "seq 1 20000", timeoutMs: 15_000, maxOutputBytes: 100 });
    expect(result.stdoutTruncated).toBe(true);
    expect(result.stdout.startsWith("1\n2\n3\n")).toBe(true);
    expect(result.stdout.endsWith("19999\n20000\n")).toBe(true);
  });

  test("a missing bwrap gives SANDBOX_UNAVAILABLE and nothing runs unsandboxed", async () => {
    const missing = new BubblewrapSandbox({ bwrapPath: "/nonexistent" });
    const error = await expectUnavailable(missing.check());
    if (process.platform === "linux") expect(error.message).toBe("Cannot start the sandbox: bwrap was not found");
    expect(error.message).not.toContain("/nonexistent");
    const shell = new SandboxShell(missing, { cwd: fx.root });
    await expectUnavailable(shell.exec({ command: "echo ran > ran.txt", ...LIMITS }));
    const tool = createNodeProcessTool(fx.workspace, { sandbox: missing, permissions: "inherit" });
    await expectUnavailable(tool.execute({ source: `require("fs").writeFileSync("ran.txt", "ran")` }));
    expect(fs.existsSync(fx.abs("ran.txt"))).toBe(false);
    expect(leftovers(fx.root)).toEqual([]);
  });

  test.skipIf(process.platform !== "linux")(
    `a bwrap that cannot create namespaces gives SANDBOX_UNAVAILABLE with its reason${
      process.platform === "linux" ? "" : ` [skipped: bubblewrap runs only on Linux, not ${process.platform}]`
    }`,
    async () => {
      // A stand-in for bwrap on a kernel that blocks unprivileged user namespaces.
      const fake = path.join(fx.outside, "bwrap");
      fs.writeFileSync(
        fake,
        `#!/bin/sh\n[ "$1" = --help ] && exit 0\necho "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces. See ${fake}" >&2\nexit 1\n`,
        { mode: 0o755 },
      );
      const blocked = new BubblewrapSandbox({ bwrapPath: fake });
      const error = await expectUnavailable(blocked.check());
      expect(error.message).toBe(
        "Cannot start the sandbox: bwrap cannot create the sandbox (No permissions to create new namespace, likely because " +
          "the kernel does not allow non-privileged user namespaces. See <path>)",
      );
      expect(error.hint).toMatch(/user namespaces/);
      await expectUnavailable(
        new SandboxShell(blocked, { cwd: fx.root }).exec({ command: "echo ran > ran.txt", ...LIMITS }),
      );
      expect(fs.existsSync(fx.abs("ran.txt"))).toBe(false);
    },
  );

  test("giving both an allowlist and a proxy is refused", async () => {
    const broker = await createCredentialBroker();
    cleanups.push(() => broker.close());
    expect(() => new BubblewrapSandbox({ network: { allow: ["x.example"], proxy: broker } as never })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENTS" }),
    );
  });
});
