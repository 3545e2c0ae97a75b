import { execFile, execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createNodeProcessTool, createShellTool, isWorkspaceError, type WorkspaceError } from "../mod.ts";
import {
  createCredentialBroker,
  createEgressProxy,
  type EgressLogEntry,
  parseEngineVersion,
  SandboxShell,
  SubprocessSandbox,
  type SubprocessSandboxOptions,
} from "../sandbox.ts";
import { RelayLauncher } from "../src/sandbox/container_relay.ts";
import { EngineClient, socketFromDockerHost } from "../src/sandbox/docker_engine.ts";
import { type DiskFixture, diskFixture, hasProgram, OUTSIDE_SECRET } from "./helpers/fixture.ts";
import { startHttpsUpstream } from "./helpers/https_upstream.ts";
import { onBun, onDeno, skipNote } from "./helpers/runtime.ts";
import {
  CLIENT_SOURCE,
  clientAnswers,
  ENGINE_SOCKET as SOCKET,
  engineSkipReason,
  SANDBOX_IMAGE as IMAGE,
  sh,
} from "./helpers/sandbox.ts";

// The major version of the `node` on PATH, the one the sandbox image ships.
function imageNodeMajor(): string | null {
  try {
    return execFileSync("node", ["-p", "process.versions.node.split('.')[0]"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
}

// The engine and image these tests drive, and when they skip: test/helpers/sandbox.ts.
const noEngine = engineSkipReason !== undefined;
const note = noEngine ? ` [skipped: ${engineSkipReason}]` : "";
const LIMITS = { timeoutMs: 30_000, maxOutputBytes: 65_536 };
const SLOW = 90_000;
const SECRET = "sk-live-CONTAINER-secret-0123456789";

const engine = new EngineClient(SOCKET);
const uid = typeof process.getuid === "function" ? process.getuid() : 1000;

// Everything a test makes carries its own label, so counting is parallel-safe.
function testLabel(): Record<string, string> {
  return { "dev.paddock.test": `${process.pid}-${Math.random().toString(36).slice(2)}` };
}

async function containersWith(labels: Record<string, string>): Promise<number> {
  const [[name, value]] = Object.entries(labels);
  const filters = encodeURIComponent(JSON.stringify({ label: [`${name}=${value}`] }));
  const response = await engine.request("GET", `/containers/json?all=1&filters=${filters}`);
  return (response.body as unknown[]).length;
}

async function networkExists(name: string): Promise<boolean> {
  return (await engine.request("GET", `/networks/${name}`)).status === 200;
}

async function rejection(promise: Promise<unknown>): Promise<WorkspaceError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(Error);
  return error as WorkspaceError;
}

async function listen(server: net.Server, host: string): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, host, () => resolve()));
  return (server.address() as net.AddressInfo).port;
}

// The probe client of the bubblewrap tests, run by the image's own node.
function probeCommand(dir: string, probes: string[]): string {
  fs.writeFileSync(path.join(dir, "client.cjs"), CLIENT_SOURCE);
  return `PROBES=${probes.length} node client.cjs ${probes.map(sh).join(" ")}`;
}

describe.skipIf(noEngine)(`SubprocessSandbox on a Docker Engine${note}`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  let fx: DiskFixture;

  async function setup(tree: string[], options: Partial<SubprocessSandboxOptions> = {}) {
    fx = await diskFixture(tree);
    // A root caller's commands run as the workspace's owner: here uid 1000 (test/sandbox_owner.test.ts covers 0 and 4242).
    if (uid === 0) execFileSync("chown", ["-R", "1000:1000", fx.root]);
    const labels = testLabel();
    const sandbox = new SubprocessSandbox({ image: IMAGE, labels, ...options });
    cleanups.push(async () => {
      await sandbox.close();
      expect(await containersWith(labels)).toBe(0);
      fx.cleanup();
    });
    return { sandbox, labels, shell: new SandboxShell(sandbox, { cwd: fx.root }) };
  }

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  test(
    "a fresh container: the workspace is writable and shared, nothing else is, a secret outside is unreadable, no root and no capabilities",
    async () => {
      const { shell, labels } = await setup(["inside.txt=hello", "escape => @outside/secret.txt"]);
      const result = await shell.exec({
        command: [
          "pwd",
          "cat inside.txt; echo",
          "echo made-inside > made.txt && echo wrote-workspace",
          "for f in /etc/x /x /usr/x /home/x; do (echo x > $f) 2>/dev/null && echo wrote $f; done",
          `cat escape 2>/dev/null || echo link-unreadable`,
          `cat ${sh(path.join(fx.outside, "secret.txt"))} 2>/dev/null || echo outside-unreadable`,
          "echo uid=$(id -u)",
          "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb)' /proc/self/status",
          "grep NoNewPrivs /proc/self/status",
          "echo to-stderr >&2",
          "exit 7",
        ].join("\n"),
        ...LIMITS,
      });
      expect(result.exitCode).toBe(7);
      expect(result.stderr).toBe("to-stderr\n");
      const lines = result.stdout.split("\n");
      expect(lines.slice(0, 3)).toEqual(["/workspace", "hello", "wrote-workspace"]);
      expect(result.stdout).not.toContain("wrote /");
      expect(lines).toContain("link-unreadable");
      expect(lines).toContain("outside-unreadable");
      expect(result.stdout).not.toContain(OUTSIDE_SECRET);
      expect(lines).toContain(`uid=${uid === 0 ? 1000 : uid}`);
      expect(lines.filter((line) => line.startsWith("Cap"))).toHaveLength(5);
      for (const line of lines.filter((line) => line.startsWith("Cap"))) expect(line).toMatch(/:\s+0{16}$/);
      expect(result.stdout).toMatch(/NoNewPrivs:\s+1/);
      expect(fs.readFileSync(path.join(fx.root, "made.txt"), "utf8")).toBe("made-inside\n");
      expect(await containersWith(labels)).toBe(0);
    },
    SLOW,
  );

  test("the pids and memory limits hold, and output is cut as the bubblewrap shell cuts it", async () => {
    const { shell, labels } = await setup([], { pidsLimit: 24, memoryBytes: 64 * 1024 * 1024 });
    const forks = await shell.exec({
      command: "for i in $(seq 1 40); do sleep 5 & done; echo started-all",
      ...LIMITS,
    });
    // The 25th process cannot start: the shell reports the failed fork and gives up.
    expect(forks.stderr).toMatch(/fork|resource temporarily unavailable/i);
    expect(forks.stdout).not.toContain("started-all");
    const memory = await shell.exec({ command: "node -e 'Buffer.alloc(256 * 1024 * 1024).fill(1)'", ...LIMITS });
    expect(memory.exitCode).toBe(137);
    const big = await shell.exec({
      command: "head -c 10485760 /dev/zero | tr '\\0' a; echo end",
      timeoutMs: 30_000,
      maxOutputBytes: 1_000,
    });
    expect(big.stdoutTruncated).toBe(true);
    expect(big.stdout.startsWith("aaa")).toBe(true);
    expect(big.stdout.endsWith("end\n")).toBe(true);
    expect(big.exitCode).toBe(0);
    expect(await containersWith(labels)).toBe(0);
  }, SLOW);

  test(
    "timeout, abort, a daemon holding the pipes, and a caller that never cleans up leave no container behind",
    async () => {
      const { shell, labels, sandbox } = await setup([]);
      const daemon = await shell.exec({ command: "sleep 60 & echo left-a-daemon", ...LIMITS });
      expect(daemon).toMatchObject({ exitCode: 0, stdout: "left-a-daemon\n", timedOut: false });
      expect(await containersWith(labels)).toBe(0);
      const timedOut = await shell.exec({ command: "echo before; sleep 60", timeoutMs: 1_500, maxOutputBytes: 1_000 });
      expect(timedOut.timedOut).toBe(true);
      expect(await containersWith(labels)).toBe(0);
      const controller = new AbortController();
      const aborted = shell.exec({ command: "sleep 60", ...LIMITS, signal: controller.signal });
      setTimeout(() => controller.abort(), 800);
      expect((await rejection(aborted)).name).toBe("AbortError");
      expect(await containersWith(labels)).toBe(0);
      // The relay alone, its cleanup never called (as if the caller had died): the engine removes the container.
      const wrapped = await sandbox.wrap({
        argv: ["/bin/sh", "-c", "echo alone"],
        cwd: fx.root,
        env: {},
        writable: [fx.root],
      });
      const [program, ...args] = wrapped.argv;
      expect(execFileSync(program, args, { env: wrapped.env, encoding: "utf8" })).toBe("alone\n");
      expect(await containersWith(labels)).toBe(0);
    },
    SLOW,
  );

  test(
    "reuse: commands share one container through exec; leftovers die, a timeout replaces it, idleness ends it, close() removes it",
    async () => {
      const { sandbox, shell, labels } = await setup([], { reuse: true, idleTimeoutMs: 2_000 });
      const first = await shell.exec({ command: "echo $$ > /tmp/first; sleep 60 & echo started", ...LIMITS });
      expect(first).toMatchObject({ exitCode: 0, stdout: "started\n" });
      expect(await containersWith(labels)).toBe(1);
      const second = await shell.exec({
        command:
          "cat /tmp/first >/dev/null && echo same-container; cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^sleep$'",
        ...LIMITS,
      });
      // Only the keeper's own sleep is left: the first command's daemon was killed.
      expect(second.stdout).toBe("same-container\n1\n");
      const timedOut = await shell.exec({ command: "sleep 60", timeoutMs: 1_000, maxOutputBytes: 1_000 });
      expect(timedOut.timedOut).toBe(true);
      expect(await containersWith(labels)).toBe(0);
      // A command longer than the idle timeout keeps the container; idle past it, the container ends by itself.
      const third = await shell.exec({ command: "sleep 4; test -e /tmp/first || echo new-container", ...LIMITS });
      expect(third.stdout).toBe("new-container\n");
      expect(await containersWith(labels)).toBe(1);
      for (let waited = 0; waited < 15_000 && await containersWith(labels) > 0; waited += 250) {
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(await containersWith(labels)).toBe(0);
      const fourth = await shell.exec({ command: "echo after-idle", ...LIMITS });
      expect(fourth.stdout).toBe("after-idle\n");
      await sandbox.close();
      expect(await containersWith(labels)).toBe(0);
    },
    SLOW,
  );

  test.skipIf(!hasProgram("openssl"))(
    `network: none reaches nothing; { allow } with a broker reaches only the proxy, which injects credentials the container never sees${
      skipNote(!hasProgram("openssl"), "openssl is not installed to make a test certificate")
    }`,
    async () => {
      const { shell, labels, sandbox: none } = await setup([]);
      // The broker's upstreams, on loopback: plain HTTP, and HTTPS for the path form.
      const { server: secure, port: securePort, cert, dir } = await startHttpsUpstream(
        "paddock-container-tls-",
        (req, res) => {
          res.end(req.headers["authorization"] === `Bearer ${SECRET}` ? "credentials-injected" : "no-credentials");
        },
      );
      const plain = http.createServer((_req, res) => res.end("plain-upstream"));
      const plainPort = await listen(plain, "127.0.0.1");
      const logs: EgressLogEntry[] = [];
      const broker = await createCredentialBroker({
        rules: { localhost: { Authorization: () => `Bearer ${SECRET}` } },
        allowPrivate: ["localhost", "127.0.0.1"],
        upstreamCa: cert,
        log: (entry) => logs.push(entry),
      });
      const networkName = `paddock-test-${Math.random().toString(36).slice(2, 10)}`;
      const egress = new SubprocessSandbox({
        image: IMAGE,
        labels,
        network: { allow: ["127.0.0.1"] },
        broker,
        networkName,
      });
      const onGateway = net.createServer((socket) => socket.end());
      cleanups.push(async () => {
        await egress.close();
        expect(await networkExists(networkName)).toBe(false);
        await broker.close();
        for (const server of [secure, plain, onGateway]) await new Promise((resolve) => server.close(resolve));
        fs.rmSync(dir, { recursive: true, force: true });
      });
      const egressShell = new SandboxShell(egress, { cwd: fx.root, env: { VISIBLE: "yes" } });

      const first = await egressShell.exec({ command: `${probeCommand(fx.root, ["interfaces"])}; env`, ...LIMITS });
      expect(clientAnswers(first.stdout)["interfaces"]).toBe("eth0,lo");
      const inspected = (await engine.request("GET", `/networks/${networkName}`)).body as {
        Internal: boolean;
        IPAM: { Config: Array<{ Gateway: string }> };
      };
      expect(inspected.Internal).toBe(true);
      const gateway = inspected.IPAM.Config[0].Gateway;
      expect(first.stdout).toContain(`HTTP_PROXY=http://${gateway}:`);
      expect(first.stdout).toContain(`NO_PROXY=${gateway}\n`);
      expect(first.stdout).toContain("VISIBLE=yes");
      // A service on the host's bridge-facing address (the gateway of our own network).
      const gatewayPort = await listen(onGateway, gateway);

      const isolated = await shell.exec({
        command: probeCommand(fx.root, ["interfaces", `direct:${gateway}:${gatewayPort}`]),
        ...LIMITS,
      });
      expect(clientAnswers(isolated.stdout)).toEqual({
        interfaces: "lo",
        [`direct:${gateway}:${gatewayPort}`]: "ENETUNREACH",
      });

      const probes = [
        `get:http://127.0.0.1:${plainPort}/`,
        `get:http://localhost:${plainPort}/`,
        "get:http://denied.example/",
        `broker:localhost:${securePort}/user`,
        "connect:denied.example:443",
        `direct:${gateway}:${gatewayPort}`,
      ];
      const out = await egressShell.exec({
        command: `${probeCommand(fx.root, probes)}; env; echo routes:; tail -n +2 /proc/net/route | cut -f2`,
        ...LIMITS,
      });
      const answers = clientAnswers(out.stdout);
      expect(answers[probes[0]]).toBe("200 plain-upstream"); // the sandbox's own allow, on the broker
      expect(answers[probes[1]]).toBe("200 plain-upstream"); // a rule host of the broker
      expect(answers[probes[2]]).toMatch(/^403 /);
      expect(answers[probes[3]]).toBe("200 credentials-injected");
      expect(answers[probes[4]]).toBe("403");
      expect(answers[probes[5]]).toBe("connected"); // the documented caveat: the gateway address is reachable
      // No route past the bridge: the only route is the network's own subnet, no default (00000000).
      const routes = out.stdout.slice(out.stdout.indexOf("routes:\n") + 8).trim().split("\n");
      expect(routes).toHaveLength(1);
      expect(routes[0]).not.toBe("00000000");
      for (const text of [out.stdout, out.stderr, first.stdout, JSON.stringify(logs)]) {
        expect(text).not.toContain(SECRET);
      }
      expect(logs.some((entry) => entry.form === "broker" && entry.injected?.includes("authorization"))).toBe(true);

      // The sandbox's allow is its listener's only: the broker's loopback listener still refuses 127.0.0.1.
      const loopback = await new Promise<number>((resolve, reject) => {
        const { port } = new URL(broker.url);
        http.get({ host: "127.0.0.1", port: Number(port), path: `http://127.0.0.1:${plainPort}/` }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        }).on("error", reject);
      });
      expect(loopback).toBe(403);
      await none.close();
      await egress.close();
      expect(await networkExists(networkName)).toBe(false);
      expect(await containersWith(labels)).toBe(0);
    },
    SLOW,
  );

  test("the seed's examples run with only the image name changed", async () => {
    const { labels } = await setup([]);
    // Seed: `new SubprocessSandbox({ image: 'node:20-alpine', network: 'none' })` and a SandboxShell with env and inheritEnv.
    const sandbox = new SubprocessSandbox({ image: IMAGE, network: "none", labels });
    const shell = new SandboxShell(sandbox, {
      cwd: fx.root,
      env: { NODE_ENV: "test" }, // set for every command
      inheritEnv: ["CI"], // copied from the host environment
    });
    const tool = createShellTool(shell, { needsApproval: false });
    const out = await tool.execute({ command: "echo $NODE_ENV; node -e 'console.log(typeof process.version)'" });
    expect(out).toMatchObject({ exitCode: 0, stdout: "test\nstring\n" });
    // Seed: the broker example, with `{ allow: ['registry.npmjs.org'] }` (nothing here contacts it).
    const token = "ghp_example";
    const broker = await createCredentialBroker({
      rules: { "api.github.com": { authorization: () => `Bearer ${token}` } },
    });
    const egress = new SubprocessSandbox({ image: IMAGE, network: { allow: ["registry.npmjs.org"] }, broker, labels });
    const egressTool = createShellTool(new SandboxShell(egress, { cwd: fx.root }), { needsApproval: false });
    const env = await egressTool.execute({ command: "env | grep -c -i '^https\\?_proxy=http://'" });
    expect(env.stdout).toBe("4\n");
    await sandbox.close();
    await egress.close();
    await broker.close();
  }, SLOW);

  test.skipIf(onDeno)(
    `node_process runs its script in the container (the host's runtime becomes the image's node)${
      onDeno ? " [skipped: Deno launches scripts with deno-only flags; the image has node]" : ""
    }`,
    async () => {
      // An explicit `user` wins over the workspace's owner (for a root caller: root without capabilities).
      const user = uid === 0 ? "0:0" : `${uid}:${process.getgid?.() ?? uid}`;
      const { sandbox, labels } = await setup([], { user });
      if (uid === 0) fs.chownSync(fx.root, 0, 0); // without capabilities even root writes only what it owns
      // Node's permission flags name the workspace by its host path; they are rewritten to /workspace too.
      // The image's node is the machine's (setup-engine.sh copies the `node` on PATH): under another Node
      // major (CI's Node 22 and 24 runs) the host runtime's flags (`--permission` from 22) do not exist
      // there, so the script runs under the container's confinement alone.
      const sameNode = onBun ? false : imageNodeMajor() === process.versions.node.split(".")[0];
      const tool = createNodeProcessTool(fx.workspace, {
        sandbox,
        timeoutMs: 20_000,
        permissions: sameNode ? "workspace" : "inherit",
      });
      const result = await tool.execute({
        source:
          "require('fs').writeFileSync('from-script.txt', 'ok'); console.log(process.cwd(), process.argv.slice(1).join(','))",
        arguments: ["a b", "c"],
      });
      expect(result.stderr).toBe("");
      expect(result.stdout).toBe("/workspace a b,c\n");
      expect(fs.readFileSync(path.join(fx.root, "from-script.txt"), "utf8")).toBe("ok");
      expect(await containersWith(labels)).toBe(0);
    },
    SLOW,
  );
});

// A stand-in Engine API on a Unix socket, for the refusals no real engine here can show.
interface StubFacts {
  version?: string;
  platform?: string;
  name?: string;
  operatingSystem?: string;
  securityOptions?: string[];
  image?: boolean;
  network?: { Internal: boolean };
}

async function stubEngine(facts: StubFacts): Promise<{ socket: string; requests: string[]; close(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-stub-engine-"));
  const socket = path.join(dir, "docker.sock");
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const url = (req.url ?? "").replace(/^\/v1\.\d+/, "");
    requests.push(`${req.method} ${url}`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (url === "/version") {
      return json(200, { Version: facts.version ?? "26.1.5+dfsg1", Platform: { Name: facts.platform ?? "" } });
    }
    if (url === "/info") {
      return json(200, {
        Name: facts.name ?? os.hostname(),
        OperatingSystem: facts.operatingSystem ?? "Debian GNU/Linux 12 (bookworm)",
        SecurityOptions: facts.securityOptions ?? ["name=seccomp,profile=builtin"],
      });
    }
    if (url.startsWith("/images/")) {
      return facts.image === false ? json(404, { message: "no such image" }) : json(200, {});
    }
    if (url.startsWith("/networks/") && req.method === "GET") {
      return facts.network === undefined
        ? json(404, { message: "not found" })
        : json(200, { Id: "n1", ...facts.network });
    }
    json(500, { message: "the stub does not run containers" });
  });
  await new Promise<void>((resolve) => server.listen(socket, () => resolve()));
  return {
    socket,
    requests,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

describe.skipIf(process.platform === "win32")(
  `SubprocessSandbox refusals (a stub Engine API) and the gateway listener's peer check${
    skipNote(
      process.platform === "win32",
      "the stub Engine API needs a Unix socket path; Windows listens on named pipes",
    )
  }`,
  () => {
    test("engine versions parse as numbers before any suffix", () => {
      expect(parseEngineVersion("26.1.5+dfsg1")).toEqual([26, 1, 5]);
      expect(parseEngineVersion("25.0.5-ce")).toEqual([25, 0, 5]);
      expect(parseEngineVersion("20.10.24+dfsg1")).toEqual([20, 10, 24]);
      expect(parseEngineVersion("dev")).toBeNull();
      expect(socketFromDockerHost("tcp://10.0.0.1:2375")).toBeNull();
      expect(socketFromDockerHost("unix:///run/user/1000/docker.sock")).toBe("/run/user/1000/docker.sock");
    });

    test("each refusal has its code, and comes before any container or network is made", async () => {
      const cases: Array<[StubFacts, SubprocessSandboxOptions["network"], string, RegExp]> = [
        [
          { version: "20.10.24+dfsg1" },
          "none",
          "SANDBOX_ENGINE_UNSUPPORTED",
          /20\.10\.24\+dfsg1 is older than 25\.0\.5/,
        ],
        [{ version: "25.0.4" }, "none", "SANDBOX_ENGINE_UNSUPPORTED", /older than 25\.0\.5/],
        [
          { platform: "Docker Desktop 4.30.0 (149282)" },
          { allow: ["x.example"] },
          "SANDBOX_EGRESS_UNSUPPORTED",
          /Docker Desktop/,
        ],
        [
          { securityOptions: ["name=seccomp,profile=builtin", "name=rootless"] },
          { allow: ["x.example"] },
          "SANDBOX_EGRESS_UNSUPPORTED",
          /rootless/,
        ],
        [{ name: "build-server-7" }, "none", "SANDBOX_ENGINE_UNSUPPORTED", /another machine/],
        [{ image: false }, "none", "SANDBOX_UNAVAILABLE", /image 'paddock\/missing:1' is not on the engine/],
        [{ network: { Internal: false } }, { allow: ["x.example"] }, "SANDBOX_EGRESS_UNSUPPORTED", /not internal/],
      ];
      for (const [facts, network, code, message] of cases) {
        const stub = await stubEngine(facts);
        const sandbox = new SubprocessSandbox({
          image: "paddock/missing:1",
          network,
          socketPath: stub.socket,
          networkName: "shared-net",
        });
        try {
          const error = await rejection(
            sandbox.wrap({ argv: ["/bin/sh", "-c", "true"], cwd: "/tmp", env: {}, writable: ["/tmp"] }),
          );
          expect(isWorkspaceError(error, code as WorkspaceError["code"]), `${JSON.stringify(facts)}: ${error.message}`)
            .toBe(true);
          expect(error.message).toMatch(message);
          expect(stub.requests.filter((line) => line.startsWith("POST"))).toEqual([]);
        } finally {
          await sandbox.close();
          await stub.close();
        }
      }
      // A rootless engine is fine without egress: nothing is refused up to creating the container.
      const stub = await stubEngine({ securityOptions: ["name=rootless"] });
      const sandbox = new SubprocessSandbox({ image: "paddock/missing:1", socketPath: stub.socket });
      try {
        await sandbox.check();
      } finally {
        await sandbox.close();
        await stub.close();
      }
    });

    test("a proxy listener with clients drops a peer outside the subnet before reading a byte", async () => {
      const proxy = createEgressProxy({});
      const outside = await proxy.listen({ host: "127.0.0.1", port: 0, clients: "10.0.0.0/8" });
      const inside = await proxy.listen({ host: "127.0.0.1", port: 0, clients: "127.0.0.0/8" });
      const exchange = (port: number) =>
        new Promise<string>((resolve) => {
          const socket = net.connect(port, "127.0.0.1");
          let data = "";
          socket.on("data", (chunk) => (data += chunk));
          socket.on("error", () => resolve(`error ${data}`));
          socket.on("close", () => resolve(data));
          socket.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        });
      try {
        expect((await exchange(outside.port as number)).replace(/^error /, "")).toBe("");
        expect(await exchange(inside.port as number)).toMatch(/^HTTP\/1\.1 400 /);
        await expect(proxy.listen({ host: "127.0.0.1", clients: "10.0.0.0/33" })).rejects.toMatchObject({
          code: "INVALID_ARGUMENTS",
        });
      } finally {
        await proxy.close();
      }
    });

    test("the relay splits Docker's 8-byte frames however the chunks fall, and exits with the command's status", async () => {
      const frame = (stream: number, text: string) => {
        const payload = new TextEncoder().encode(text);
        const header = new Uint8Array(8);
        header[0] = stream;
        new DataView(header.buffer).setUint32(4, payload.length);
        return [...header, ...payload];
      };
      // Two stdout frames, an empty frame, a stderr frame, a large frame; sent in 1-, 3- and 7-byte pieces.
      const big = "x".repeat(70_000);
      const bytes = Uint8Array.from([
        ...frame(1, "hello "),
        ...frame(1, "world\n"),
        ...frame(1, ""),
        ...frame(2, "oops\n"),
        ...frame(1, big),
      ]);
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-stub-relay-"));
      const socket = path.join(dir, "docker.sock");
      const server = http.createServer(async (req, res) => {
        if (req.url?.endsWith("/exec/e1/start")) {
          res.writeHead(200, { "content-type": "application/vnd.docker.raw-stream" });
          const sizes = [1, 3, 7];
          for (let at = 0, i = 0; at < bytes.length; i++) {
            const size = at < 64 ? sizes[i % 3] : 65_536;
            res.write(bytes.subarray(at, at + size));
            at += size;
            if (at < 64) await new Promise((resolve) => setTimeout(resolve, 1));
          }
          res.end();
        } else if (req.url?.endsWith("/exec/e1/json")) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ Running: false, ExitCode: 42 }));
        } else {
          res.writeHead(404).end();
        }
      });
      await new Promise<void>((resolve) => server.listen(socket, () => resolve()));
      const launcher = new RelayLauncher(socket, process.execPath);
      try {
        const [program, ...args] = launcher.argv("exec", "e1");
        const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
          execFile(
            program,
            args,
            { env: { ...process.env, ...launcher.env() }, maxBuffer: 1 << 20 },
            (error, stdout, stderr) => {
              resolve({ code: error === null ? 0 : (error as { code?: number }).code ?? null, stdout, stderr });
            },
          );
        });
        expect(result).toEqual({ code: 42, stdout: `hello world\n${big}`, stderr: "oops\n" });
      } finally {
        launcher.close();
        await new Promise((resolve) => server.close(resolve));
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    test("an engine that does not answer is SANDBOX_UNAVAILABLE", async () => {
      const sandbox = new SubprocessSandbox({
        image: IMAGE,
        socketPath: path.join(os.tmpdir(), `paddock-no-engine-${process.pid}.sock`),
      });
      const error = await rejection(sandbox.check());
      expect(isWorkspaceError(error, "SANDBOX_UNAVAILABLE")).toBe(true);
      expect(error.message).toMatch(/Docker Engine/);
      expect(error.message).not.toContain(os.tmpdir());
      await sandbox.close();
    });
  },
);
