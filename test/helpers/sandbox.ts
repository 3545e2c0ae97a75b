import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_DOCKER_SOCKET, socketFromDockerHost } from "../../src/sandbox/docker_engine.ts";
import { hasProgram } from "./fixture.ts";
import { runtime } from "./runtime.ts";

/**
 * Why the OS sandbox tests cannot run on this machine, or `undefined` when
 * they can. Only the platform and a missing `bwrap` skip; on Linux with bwrap
 * installed every sandbox test runs (and a broken sandbox fails them).
 */
export const sandboxSkipReason: string | undefined = process.platform !== "linux"
  ? `bubblewrap runs only on Linux, not ${process.platform}`
  : !hasProgram("bwrap")
  ? "bwrap is not installed (apt-get install bubblewrap)"
  : undefined;

/** Appended to a sandbox test's name: the reason it is skipped, if it is. */
export const sandboxSkipNote: string = sandboxSkipReason === undefined ? "" : ` [skipped: ${sandboxSkipReason}]`;

/** The Docker Engine socket the container sandbox tests drive: from `DOCKER_HOST`, else the default. */
export const ENGINE_SOCKET: string = socketFromDockerHost(process.env.DOCKER_HOST) ?? DEFAULT_DOCKER_SOCKET;

/** The image the container sandbox tests run: `PADDOCK_SANDBOX_IMAGE`, else the locally built one. */
export const SANDBOX_IMAGE: string = process.env.PADDOCK_SANDBOX_IMAGE ?? "paddock/sandbox-node:local";

/**
 * Why the container sandbox tests cannot run here, or `undefined` when they
 * can. The engine is the one `.ci/run` starts with
 * `bash ../shared/docker/setup-engine.sh up` (Docker Engine 26.1.5 and a
 * locally built image); the tests skip only where no engine can run: not
 * Linux, or no daemon socket here.
 */
export const engineSkipReason: string | undefined = process.platform !== "linux"
  ? `the container sandbox is tested on Linux only, not ${process.platform}`
  : !fs.existsSync(ENGINE_SOCKET)
  ? `no Docker Engine socket at ${ENGINE_SOCKET} (start one: bash ../shared/docker/setup-engine.sh up)`
  : undefined;

/** Quotes one word for a POSIX shell. */
export function sh(word: string): string {
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}

/**
 * A small CommonJS client run inside the sandbox by the test's own runtime.
 * Each argument is one probe, printed as one line:
 * `interfaces` → the network interface names; `direct:host:port` → `connected`
 * or the error code; `get:url` → an absolute-form GET through `$HTTP_PROXY`,
 * printed as `status body`; `broker:host:port/path` → a path-form GET to the proxy
 * (`/__broker/host:port/path`), printed as `status body`; `connect:host:port` → the
 * proxy's CONNECT status.
 */
export const CLIENT_SOURCE = `"use strict";
const net = require("node:net");
const os = require("node:os");
const proxy = new URL(process.env.HTTP_PROXY || "http://127.0.0.1:1");
function exchange(request) {
  return new Promise((resolve) => {
    const socket = net.connect(Number(proxy.port), proxy.hostname);
    let data = "";
    socket.on("data", (chunk) => { data += chunk; if (request.startsWith("CONNECT") && data.includes("\\r\\n\\r\\n")) socket.destroy(); });
    socket.on("error", (error) => resolve("error " + error.code));
    socket.on("close", () => resolve(data));
    socket.write(request);
  });
}
async function probe(spec) {
  const [kind, ...rest] = spec.split(":");
  if (kind === "interfaces") return Object.keys(os.networkInterfaces()).sort().join(",");
  if (kind === "direct") {
    return await new Promise((resolve) => {
      const socket = net.connect(Number(rest[1]), rest[0]);
      socket.setTimeout(3000, () => { socket.destroy(); resolve("timeout"); });
      socket.on("connect", () => { socket.destroy(); resolve("connected"); });
      socket.on("error", (error) => resolve(error.code));
    });
  }
  if (kind === "get") {
    const url = new URL(rest.join(":"));
    const raw = await exchange("GET " + url.href + " HTTP/1.1\\r\\nHost: " + url.host + "\\r\\nConnection: close\\r\\n\\r\\n");
    const status = raw.split(" ")[1];
    return status + " " + raw.slice(raw.indexOf("\\r\\n\\r\\n") + 4).trim();
  }
  if (kind === "broker") {
    const target = rest.join(":");
    const raw = await exchange("GET /__broker/" + target + " HTTP/1.1\\r\\nHost: " + proxy.host + "\\r\\nConnection: close\\r\\n\\r\\n");
    const status = raw.split(" ")[1];
    return status + " " + raw.slice(raw.indexOf("\\r\\n\\r\\n") + 4).trim();
  }
  if (kind === "connect") {
    const raw = await exchange("CONNECT " + rest.join(":") + " HTTP/1.1\\r\\nHost: " + rest.join(":") + "\\r\\n\\r\\n");
    return raw.split(" ")[1];
  }
  return "unknown probe";
}
(async () => {
  for (const spec of process.argv.slice(-Number(process.env.PROBES))) console.log(spec + " => " + await probe(spec));
})();
`;

/** Writes the client into `dir` and returns the command line that runs it with `probes`. */
export function clientCommand(dir: string, probes: string[]): string {
  fs.writeFileSync(path.join(dir, "client.cjs"), CLIENT_SOURCE);
  const exe = sh(process.execPath);
  const launcher = runtime === "deno" ? `${exe} run -A --no-config --no-lock --cached-only` : exe;
  return `PROBES=${probes.length} ${launcher} client.cjs ${probes.map(sh).join(" ")}`;
}

/** Parses the client's output into probe → answer. */
export function clientAnswers(stdout: string): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const line of stdout.split("\n")) {
    const at = line.indexOf(" => ");
    if (at > 0) answers[line.slice(0, at)] = line.slice(at + 4);
  }
  return answers;
}
