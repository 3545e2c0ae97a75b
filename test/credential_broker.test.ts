import * as fs from "node:fs";
import * as http from "node:http";
import type * as https from "node:https";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  BubblewrapSandbox,
  createCredentialBroker,
  type CredentialBroker,
  type EgressLogEntry,
  isPrivateAddress,
  SandboxShell,
} from "../sandbox.ts";
import { hasProgram } from "./helpers/fixture.ts";
import { startHttpsUpstream } from "./helpers/https_upstream.ts";
import { clientAnswers, clientCommand, sandboxSkipNote, sandboxSkipReason } from "./helpers/sandbox.ts";

// The test upstream's certificate is made at test time by openssl (a P-256
// key, CN and SAN localhost / 127.0.0.1, valid one day); without openssl the
// HTTPS tests skip and say so.
const hasOpenssl = hasProgram("openssl");
const opensslNote = hasOpenssl ? "" : " [skipped: openssl is not installed to make a test certificate]";

const SECRET = "sk-live-SECRET-token-0123456789";
const SECOND_SECRET = "SECOND-secret-from-a-function";

interface Echo {
  method: string;
  url: string;
  headers: Record<string, string | string[]>;
}

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(url: string, options: http.RequestOptions = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

// A raw CONNECT through the broker; resolves with the status and, when the
// tunnel opened, what came back after sending `payload` through it.
function connectThrough(
  broker: CredentialBroker,
  target: string,
  payload: string,
): Promise<{ status: number; raw: string; echoed: string }> {
  const { port } = new URL(broker.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let raw = "";
    let echoed = "";
    let open = false;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      if (open) {
        echoed += chunk;
        if (echoed.length >= payload.length) socket.end();
        return;
      }
      raw += chunk;
      const end = raw.indexOf("\r\n\r\n");
      if (end < 0) return;
      const status = Number(raw.split(" ")[1]);
      if (status === 200) {
        open = true;
        echoed = raw.slice(end + 4);
        socket.write(payload);
      }
    });
    socket.on("error", reject);
    socket.on("close", () => resolve({ status: Number(raw.split(" ")[1]), raw, echoed }));
    socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  });
}

describe.skipIf(!hasOpenssl)(`createCredentialBroker${opensslNote}`, () => {
  let dir: string;
  let cert: string;
  let upstream: https.Server;
  let upstreamPort: number;
  let echoServer: net.Server;
  let echoPort: number;
  let broker: CredentialBroker;
  const upstreamRequests: Echo[] = [];
  const logs: EgressLogEntry[] = [];
  const seen: string[] = []; // every error response and env, scanned for secrets at the end

  beforeAll(async () => {
    ({ server: upstream, port: upstreamPort, cert, dir } = await startHttpsUpstream("paddock-broker-", (req, res) => {
      const echo: Echo = { method: req.method ?? "", url: req.url ?? "", headers: req.headers as Echo["headers"] };
      upstreamRequests.push(echo);
      res.setHeader("content-type", "application/json");
      res.setHeader("x-upstream", "yes");
      res.end(JSON.stringify(echo));
    }));
    echoServer = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echoServer.listen(0, "127.0.0.1", () => resolve()));
    echoPort = (echoServer.address() as net.AddressInfo).port;
    broker = await createCredentialBroker({
      rules: { localhost: { Authorization: `Bearer ${SECRET}`, "X-Api-Key": () => SECOND_SECRET } },
      allow: ["*.allowed.example"],
      allowPrivate: ["localhost"],
      upstreamCa: cert,
      log: (entry) => logs.push(entry),
    });
    seen.push(JSON.stringify(broker.env), broker.url);
  });

  afterAll(async () => {
    await broker?.close();
    await new Promise<void>((resolve) => upstream?.close(() => resolve()));
    await new Promise<void>((resolve) => echoServer?.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test("the path form forwards to https://<host>/ with the rule's headers injected", async () => {
    const base = broker.baseUrl(`localhost:${upstreamPort}`);
    expect(base).toBe(`${broker.url}/__broker/localhost:${upstreamPort}`);
    const reply = await request(`${base}/v1/items?q=1`);
    expect(reply.status).toBe(200);
    expect(reply.headers["x-upstream"]).toBe("yes");
    const echo = JSON.parse(reply.body) as Echo;
    expect(echo.method).toBe("GET");
    expect(echo.url).toBe("/v1/items?q=1");
    expect(echo.headers["authorization"]).toBe(`Bearer ${SECRET}`);
    expect(echo.headers["x-api-key"]).toBe(SECOND_SECRET);
    expect(echo.headers["host"]).toBe(`localhost:${upstreamPort}`);
  });

  test("an existing Authorization header is replaced, not forwarded", async () => {
    const reply = await request(`${broker.baseUrl(`localhost:${upstreamPort}`)}/me`, {
      headers: { Authorization: "Bearer client-supplied", "x-api-key": "client-key" },
    });
    const echo = JSON.parse(reply.body) as Echo;
    expect(echo.headers["authorization"]).toBe(`Bearer ${SECRET}`);
    expect(echo.headers["x-api-key"]).toBe(SECOND_SECRET);
    expect(reply.body).not.toContain("client-supplied");
    expect(reply.body).not.toContain("client-key");
  });

  test("hop-by-hop headers are not forwarded", async () => {
    const reply = await request(`${broker.baseUrl(`localhost:${upstreamPort}`)}/hop`, {
      headers: {
        Connection: "keep-alive, X-Drop-Me",
        "Keep-Alive": "timeout=5",
        "X-Drop-Me": "1",
        "Proxy-Authorization": "Basic c2VjcmV0",
        "Proxy-Connection": "keep-alive",
        TE: "trailers",
        "X-Keep-Me": "2",
      },
    });
    const echo = JSON.parse(reply.body) as Echo;
    expect(echo.headers["x-keep-me"]).toBe("2");
    for (const name of ["keep-alive", "x-drop-me", "proxy-authorization", "proxy-connection", "te"]) {
      expect(echo.headers[name]).toBeUndefined();
    }
  });

  test("an unknown host gets 403 before any connection", async () => {
    const before = upstreamRequests.length;
    const reply = await request(`${broker.url}/__broker/unknown.example/x`);
    seen.push(JSON.stringify(reply));
    expect(reply.status).toBe(403);
    expect(reply.body).toBe("Host 'unknown.example' is not on the allowlist\n");
    const apex = await request(`${broker.url}/__broker/allowed.example/x`); // `*.allowed.example` excludes the apex
    seen.push(JSON.stringify(apex));
    expect(apex.status).toBe(403);
    expect(upstreamRequests.length).toBe(before);
    expect(logs.filter((entry) => entry.action === "refused").map((entry) => entry.host)).toEqual(
      expect.arrayContaining(["unknown.example", "allowed.example"]),
    );
  });

  test("a host resolving to a private address is refused unless allowPrivate lists it", async () => {
    const strict = await createCredentialBroker({
      rules: { localhost: { Authorization: `Bearer ${SECRET}` } },
      allow: ["127.0.0.1", "169.254.169.254"],
      upstreamCa: cert,
      log: (entry) => logs.push(entry),
    });
    try {
      const before = upstreamRequests.length;
      for (const host of [`localhost:${upstreamPort}`, `127.0.0.1:${upstreamPort}`, "169.254.169.254"]) {
        const reply = await request(`${strict.url}/__broker/${host}/latest/meta-data/`);
        seen.push(JSON.stringify(reply), JSON.stringify(strict.env));
        expect(reply.status).toBe(403);
        expect(reply.body).toMatch(/resolves to a private, loopback or link-local address/);
      }
      const tunnel = await connectThrough(strict, `127.0.0.1:${echoPort}`, "x");
      seen.push(tunnel.raw);
      expect(tunnel.status).toBe(403);
      expect(upstreamRequests.length).toBe(before);
    } finally {
      await strict.close();
    }
  });

  test("CONNECT is checked against the allowlist and the tunnel passes bytes untouched", async () => {
    const payload = "GET / HTTP/1.1\r\nAuthorization: none-added\r\n\r\nraw bytes \u00e9\n";
    const allowed = await connectThrough(broker, `localhost:${echoPort}`, payload);
    expect(allowed.status).toBe(200);
    expect(allowed.echoed).toBe(payload);
    const refused = await connectThrough(broker, "evil.example:443", payload);
    seen.push(refused.raw);
    expect(refused.status).toBe(403);
    expect(refused.echoed).toBe("");
  });

  test("an upstream failure answers 502 without details", async () => {
    const untrusting = await createCredentialBroker({
      rules: { localhost: { Authorization: `Bearer ${SECRET}` } },
      allowPrivate: ["localhost"],
      log: (entry) => logs.push(entry),
    });
    try {
      const reply = await request(`${untrusting.baseUrl(`localhost:${upstreamPort}`)}/x`); // self-signed: not trusted
      seen.push(JSON.stringify(reply));
      expect(reply.status).toBe(502);
      expect(reply.body).toBe("Cannot reach 'localhost'\n");
    } finally {
      await untrusting.close();
    }
  });

  test.skipIf(sandboxSkipReason !== undefined)(
    `a sandboxed command gets the headers injected through the broker without ever holding them${sandboxSkipNote}`,
    async () => {
      const workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-broker-ws-")));
      const sandbox = new BubblewrapSandbox({ network: { proxy: broker } });
      try {
        const shell = new SandboxShell(sandbox, { cwd: workspace });
        const probe = `broker:localhost:${upstreamPort}/from-sandbox`;
        const result = await shell.exec({
          command: `${clientCommand(workspace, [probe])}; env > env.txt`,
          timeoutMs: 15_000,
          maxOutputBytes: 65_536,
        });
        const answer = clientAnswers(result.stdout)[probe];
        expect(answer.startsWith("200 ")).toBe(true);
        const echo = JSON.parse(answer.slice(4)) as Echo;
        expect(echo.url).toBe("/from-sandbox");
        expect(echo.headers["authorization"]).toBe(`Bearer ${SECRET}`); // the upstream got it …
        const inside = fs.readFileSync(path.join(workspace, "env.txt"), "utf8");
        expect(inside).toContain("PADDOCK_BROKER_URL=http://127.0.0.1:3128/__broker/");
        expect(inside).not.toContain(SECRET); // … the sandbox never held it
        expect(inside).not.toContain(SECOND_SECRET);
        seen.push(inside);
      } finally {
        await sandbox.close();
        fs.rmSync(workspace, { recursive: true, force: true });
      }
    },
  );

  test("the secrets never appear in env, error responses or logs", () => {
    expect(logs.length).toBeGreaterThan(5);
    expect(logs.some((entry) => entry.injected?.includes("authorization"))).toBe(true);
    const scanned = [...seen, JSON.stringify(logs)].join("\n");
    expect(scanned).toContain("unknown.example"); // the scan covers real content
    expect(scanned).not.toContain(SECRET);
    expect(scanned).not.toContain(SECOND_SECRET);
    expect(Object.keys(broker.env).sort()).toEqual(
      ["HTTPS_PROXY", "HTTP_PROXY", "NO_PROXY", "PADDOCK_BROKER_URL", "http_proxy", "https_proxy", "no_proxy"],
    );
  });
});

describe("isPrivateAddress", () => {
  const cases: Array<[string, boolean]> = [
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["8.8.8.8", false],
    ["::1", true],
    ["::", true],
    ["fe80::1", true],
    ["fd00::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:8.8.8.8", false],
    ["2606:4700:4700::1111", false],
    ["not-an-ip", true],
  ];
  test.each(cases)("isPrivateAddress(%s) is %s", (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });
});
