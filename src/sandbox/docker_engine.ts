/**
 * A small client for the Docker Engine API over its Unix socket, with the
 * runtime's own HTTP client (`node:http` with `socketPath` works on Node, Bun
 * and Deno's node compatibility layer). JSON in, JSON out; no streaming here
 * (the relay process streams a command's output, see `container_relay.ts`).
 *
 * @module
 */
import * as http from "node:http";
import { WorkspaceError } from "../core/errors.ts";

/** The Engine API version every request names: Engine 25.0 speaks 1.44. */
export const ENGINE_API_VERSION = "1.44";

/** The oldest engine accepted: 25.0.5 stops internal networks forwarding DNS from the host (CVE-2024-29018). */
export const MIN_ENGINE_VERSION = "25.0.5";

/** The daemon's socket when `DOCKER_HOST` is not set. */
export const DEFAULT_DOCKER_SOCKET = "/var/run/docker.sock";

// Milliseconds an Engine API call may take before the sandbox gives up on it;
// creating a container on a loaded two-core machine takes well under a second.
export const ENGINE_REQUEST_TIMEOUT_MS = 30_000;

// Bytes of an Engine API answer read at most (an inspect is a few KB).
const ENGINE_RESPONSE_MAX_BYTES = 4_194_304;

/** An answer of the Engine API. */
export interface EngineResponse {
  status: number;
  /** The parsed JSON body, or `undefined` when the body was empty or not JSON. */
  body: unknown;
}

/**
 * The socket path named by `DOCKER_HOST` (`unix:///path`), or the default.
 *
 * @param dockerHost The value of `DOCKER_HOST`, if any.
 * @returns The socket path, or `null` for a daemon that is not on a local Unix socket (`tcp://`, `ssh://`, …).
 */
export function socketFromDockerHost(dockerHost: string | undefined): string | null {
  if (dockerHost === undefined || dockerHost === "") return DEFAULT_DOCKER_SOCKET;
  if (dockerHost.startsWith("unix://")) return dockerHost.slice("unix://".length);
  return null;
}

/**
 * The numbers of an engine version: `26.1.5+dfsg1` → `[26, 1, 5]`, `25.0.5-ce` → `[25, 0, 5]`.
 *
 * @param version The engine's `Version` string.
 * @returns Major, minor and patch, or `null` when the string does not start with them.
 *
 * @example Reading the engine's version
 * ```ts
 * import { MIN_ENGINE_VERSION, parseEngineVersion } from "@paddock/tools/sandbox";
 * parseEngineVersion("26.1.5+dfsg1"); // [26, 1, 5]
 * parseEngineVersion(MIN_ENGINE_VERSION); // [25, 0, 5]
 * parseEngineVersion("unknown"); // null
 * ```
 */
export function parseEngineVersion(version: string): [number, number, number] | null {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (match === null) return null;
  return [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)];
}

/**
 * Whether `version` is at least `minimum` (both as the engine spells them).
 *
 * @param version The engine's `Version`.
 * @param minimum The oldest acceptable version.
 * @returns `false` also when `version` cannot be parsed.
 */
export function engineVersionAtLeast(version: string, minimum: string = MIN_ENGINE_VERSION): boolean {
  const have = parseEngineVersion(version);
  const want = parseEngineVersion(minimum) as [number, number, number];
  if (have === null) return false;
  for (let i = 0; i < 3; i++) if (have[i] !== want[i]) return have[i] > want[i];
  return true;
}

/** A failure to talk to the engine at all: it does not answer, or the socket is missing. */
export function engineUnavailable(detail: string): WorkspaceError {
  return new WorkspaceError("SANDBOX_UNAVAILABLE", `Cannot start the sandbox: the Docker Engine ${detail}`, {
    hint: "start dockerd (or set DOCKER_HOST=unix:///path/to/docker.sock); without an engine nothing runs",
  });
}

/** Engine API calls over one Unix socket. */
export class EngineClient {
  /** The daemon's socket path. */
  readonly socketPath: string;

  /** @param socketPath The daemon's socket. */
  constructor(socketPath: string) {
    this.socketPath = socketPath;
  }

  /**
   * Sends one request and reads the whole JSON answer.
   *
   * @param method The HTTP method.
   * @param path The path, without the `/v1.xx` prefix (added unless `unversioned`).
   * @param body A JSON body.
   * @param options `unversioned` for `/version` and `/_ping`, which every engine answers.
   * @returns Status and parsed body.
   * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` when the engine does not answer.
   */
  request(
    method: string,
    path: string,
    body?: unknown,
    options: { unversioned?: boolean } = {},
  ): Promise<EngineResponse> {
    const data = body === undefined ? undefined : new TextEncoder().encode(JSON.stringify(body));
    return new Promise((resolve, reject) => {
      const req = http.request({
        socketPath: this.socketPath,
        method,
        path: options.unversioned ? path : `/v${ENGINE_API_VERSION}${path}`,
        // One connection per call: nothing is left open between commands.
        agent: false,
        headers: data === undefined
          ? {}
          : { "content-type": "application/json", "content-length": String(data.length) },
        timeout: ENGINE_REQUEST_TIMEOUT_MS,
      }, (res) => {
        const chunks: Uint8Array[] = [];
        let size = 0;
        res.on("data", (chunk: Uint8Array) => {
          size += chunk.length;
          if (size <= ENGINE_RESPONSE_MAX_BYTES) chunks.push(chunk);
        });
        res.on("error", () => reject(engineUnavailable("ended an answer early")));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown;
          try {
            parsed = text === "" ? undefined : JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      });
      req.on("timeout", () => req.destroy(new Error("timeout")));
      req.on("error", (error: NodeJS.ErrnoException) => {
        const detail = error.message === "timeout"
          ? `did not answer within ${ENGINE_REQUEST_TIMEOUT_MS} ms`
          : error.code === "ENOENT"
          ? "socket does not exist"
          : error.code === "EACCES" || error.code === "EPERM" || /NotCapable|PermissionDenied/.test(String(error.name))
          ? "socket may not be opened by this process (permission denied)"
          : "does not answer on its socket";
        reject(engineUnavailable(detail));
      });
      req.end(data);
    });
  }
}

/** The engine's message in an error answer (`{"message": …}`), cut short, without host paths. */
export function engineMessage(response: EngineResponse): string {
  const message = (response.body as { message?: unknown } | undefined)?.message;
  const text = typeof message === "string" ? message : `status ${response.status}`;
  return text.replace(/(^|[\s'"(=])\/[^\s'"]+/g, "$1<path>").slice(0, 200);
}
