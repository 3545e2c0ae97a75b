/**
 * The relay: a small CommonJS program the host spawns in place of the
 * command, so a container command fits the {@link Sandbox} seam (a command
 * line the host runs in its own process group, with bounded output and a
 * kill on timeout). It talks to the Engine API over the Unix socket, splits
 * Docker's multiplexed stream into its own stdout and stderr, and exits with
 * the container's exit status:
 *
 * - `run <container>`: attach to a created container, register a
 *   `wait?condition=removed` (the container is made with `AutoRemove`, so
 *   the engine removes it as soon as it ends, even if nobody is left to ask),
 *   start it, and exit with the status the wait reports;
 * - `exec <exec-id>`: start an exec in a running container and read its
 *   `ExitCode` from the exec's inspect.
 *
 * The multiplexed stream (no TTY) is a sequence of frames: an 8-byte header —
 * byte 0 the stream (1 stdout, 2 stderr), bytes 1–3 zero, bytes 4–7 the
 * payload length, big-endian — then the payload. Frames may be split across
 * or joined within network chunks; the demuxer keeps a partial header.
 *
 * Killing the relay does not stop the container: the sandbox's `cleanup`
 * removes it (see `subprocess_sandbox.ts`). Exit statuses follow `docker
 * run`: 125 when the engine refuses, 126 when the program cannot run, 127
 * when it is not found, else the command's own (128 + n for a signal).
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ENGINE_API_VERSION } from "./docker_engine.ts";

/** The relay's source, written to a private folder and run with the host runtime. */
export const RELAY_SOURCE: string = String.raw`"use strict";
const http = require("node:http");
const [socketPath, api, mode, id] = process.argv.slice(-4);

function fail(status, message) {
  process.stderr.write("paddock sandbox: " + message + "\n");
  process.exit(status);
}

function open(method, path, body) {
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request({
      socketPath, method, path: "/v" + api + path, agent: false,
      headers: data === undefined ? {} : { "content-type": "application/json", "content-length": data.length },
    }, resolve);
    req.on("error", reject);
    req.end(data);
  });
}

async function call(method, path, body) {
  const res = await open(method, path, body);
  const chunks = [];
  for await (const chunk of res) chunks.push(chunk);
  const text = Buffer.concat(chunks).toString("utf8");
  let parsed;
  try { parsed = text === "" ? undefined : JSON.parse(text); } catch { parsed = undefined; }
  return { status: res.statusCode, body: parsed, text };
}

// Frames to stdout (1) and stderr (2); a stdin frame (0) cannot occur without stdin.
function demux(res) {
  const header = Buffer.alloc(8);
  let have = 0;
  let remaining = 0;
  let stream = 1;
  // Backpressure: while either output is full, the engine's stream waits.
  const full = { 1: false, 2: false };
  return new Promise((resolve, reject) => {
    const write = (part) => {
      const which = stream === 2 ? 2 : 1;
      const out = which === 2 ? process.stderr : process.stdout;
      if (!out.write(part) && !full[which]) {
        full[which] = true;
        res.pause();
        out.once("drain", () => {
          full[which] = false;
          if (!full[1] && !full[2]) res.resume();
        });
      }
    };
    res.on("data", (chunk) => {
      let offset = 0;
      while (offset < chunk.length) {
        if (remaining === 0) {
          const take = Math.min(8 - have, chunk.length - offset);
          chunk.copy(header, have, offset, offset + take);
          have += take;
          offset += take;
          if (have < 8) return;
          have = 0;
          stream = header[0];
          remaining = header.readUInt32BE(4);
          continue;
        }
        const take = Math.min(remaining, chunk.length - offset);
        write(chunk.subarray(offset, offset + take));
        remaining -= take;
        offset += take;
      }
    });
    res.on("end", resolve);
    res.on("close", resolve);
    res.on("error", reject);
  });
}

function startFailure(response) {
  const message = (response.body && response.body.message) || ("status " + response.status);
  if (/executable file not found|no such file or directory/i.test(message)) fail(127, "command not found: " + message);
  if (/permission denied/i.test(message)) fail(126, "command cannot run: " + message);
  fail(125, "the engine refused to start the container: " + message);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function body(res) {
  const chunks = [];
  for await (const chunk of res) chunks.push(chunk);
  try { return JSON.parse(Buffer.concat(chunks).toString("utf8")); } catch { return undefined; }
}

async function run() {
  const res = await open("POST", "/containers/" + id + "/attach?stream=1&stdout=1&stderr=1");
  if (res.statusCode !== 200) fail(125, "cannot attach to the container (status " + res.statusCode + ")");
  const output = demux(res);
  // The engine answers a wait's headers at once, so once they are here the
  // wait is registered; it ends when the container (AutoRemove) is gone.
  const waiting = await open("POST", "/containers/" + id + "/wait?condition=removed");
  if (waiting.statusCode !== 200) fail(125, "cannot wait for the container (status " + waiting.statusCode + ")");
  const waited = body(waiting);
  const started = await call("POST", "/containers/" + id + "/start");
  if (started.status !== 204 && started.status !== 304) {
    res.destroy();
    startFailure(started);
  }
  await output;
  const result = await waited;
  const code = result && result.StatusCode;
  if (typeof code !== "number") fail(125, "the engine did not report an exit status");
  process.exitCode = code;
}

async function exec() {
  const res = await open("POST", "/exec/" + id + "/start", { Detach: false, Tty: false });
  if (res.statusCode !== 200) {
    const chunks = [];
    for await (const chunk of res) chunks.push(chunk);
    let body;
    try { body = JSON.parse(Buffer.concat(chunks).toString("utf8")); } catch { body = undefined; }
    startFailure({ status: res.statusCode, body });
  }
  await demux(res);
  // The stream ends when the pipes close; the exit is reported a moment later.
  for (let i = 0; i < 200; i++) {
    const inspected = await call("GET", "/exec/" + id + "/json");
    const info = inspected.body || {};
    if (inspected.status !== 200) fail(125, "cannot read the command's exit status");
    if (!info.Running && typeof info.ExitCode === "number") {
      process.exitCode = info.ExitCode;
      return;
    }
    await sleep(10);
  }
  fail(125, "the engine did not report an exit status");
}

(mode === "run" ? run() : exec()).catch((error) => fail(125, "lost the Docker Engine: " + (error && error.code || "error")));
`;

function runtimeName(): "node" | "deno" | "bun" {
  if (typeof (globalThis as { Deno?: unknown }).Deno === "object") return "deno";
  if (typeof (process.versions as Record<string, string | undefined>).bun === "string") return "bun";
  return "node";
}

/**
 * The relay's command lines for one engine socket: the script is written
 * once into a private temp folder; Deno runs it with the socket as its only
 * permission.
 */
export class RelayLauncher {
  private readonly socket: string;
  private readonly runtime: string;
  private dir: string | undefined;

  /**
   * @param socket The engine's socket.
   * @param runtime The runtime executable that runs the relay.
   */
  constructor(socket: string, runtime: string) {
    this.socket = socket;
    this.runtime = runtime;
  }

  /**
   * The relay's argv.
   *
   * @param mode `run` a created container, or `exec` an exec.
   * @param id The container's or the exec's id.
   * @returns What the host spawns.
   */
  argv(mode: "run" | "exec", id: string): string[] {
    if (this.dir === undefined) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-container-"));
      fs.chmodSync(dir, 0o700);
      fs.writeFileSync(path.join(dir, "relay.cjs"), RELAY_SOURCE, { mode: 0o644 });
      this.dir = dir;
    }
    const socket = this.socket;
    const prefix = runtimeName() === "deno"
      ? [
        this.runtime,
        "run",
        "--quiet",
        "--no-config",
        "--no-lock",
        "--no-prompt",
        `--allow-read=${socket}`,
        `--allow-write=${socket}`,
        `--allow-net=unix:${socket}`,
      ]
      : [this.runtime];
    return [...prefix, path.join(this.dir, "relay.cjs"), socket, ENGINE_API_VERSION, mode, id];
  }

  /** @returns The relay's environment: nothing of the caller's (Deno: `NO_COLOR`). */
  env(): Record<string, string> {
    return runtimeName() === "deno" ? { NO_COLOR: "1" } : {};
  }

  /** Removes the script's folder. */
  close(): void {
    if (this.dir !== undefined) fs.rmSync(this.dir, { recursive: true, force: true });
    this.dir = undefined;
  }
}
