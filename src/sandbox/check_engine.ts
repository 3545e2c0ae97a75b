/**
 * The container sandbox's checks of an engine before anything runs on it:
 * its version, where it runs, whether it can enforce an egress allowlist,
 * and whether the image is there. Each refusal has a stable code.
 *
 * @module
 */
import * as os from "node:os";
import { WorkspaceError } from "../core/errors.ts";
import { type EngineClient, engineMessage, engineVersionAtLeast, MIN_ENGINE_VERSION } from "./docker_engine.ts";

function unavailable(detail: string, hint?: string): WorkspaceError {
  return new WorkspaceError(
    "SANDBOX_UNAVAILABLE",
    `Cannot start the sandbox: ${detail}`,
    hint === undefined ? {} : { hint },
  );
}

// This machine's host name; `undefined` (and so "not this machine") when the runtime may not read it.
function localHostname(): string | undefined {
  try {
    return os.hostname();
  } catch {
    return undefined; // Deno without --allow-sys=hostname
  }
}

/**
 * Checks that the engine can run the sandbox as configured.
 *
 * @param client The engine.
 * @param options The image; `egress` when the sandbox uses `network: { allow }`.
 * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` (no answer, no version, the image is missing),
 *   `SANDBOX_ENGINE_UNSUPPORTED` (older than 25.0.5, on another machine),
 *   `SANDBOX_EGRESS_UNSUPPORTED` (with egress: Docker Desktop, a rootless engine).
 */
export async function checkEngine(client: EngineClient, options: { image: string; egress: boolean }): Promise<void> {
  const version = await client.request("GET", "/version", undefined, { unversioned: true });
  const body = (version.body ?? {}) as { Version?: unknown; Platform?: { Name?: unknown } };
  if (version.status !== 200 || typeof body.Version !== "string") {
    throw unavailable(`the Docker Engine did not report its version (${engineMessage(version)})`);
  }
  if (!engineVersionAtLeast(body.Version, MIN_ENGINE_VERSION)) {
    throw new WorkspaceError(
      "SANDBOX_ENGINE_UNSUPPORTED",
      `Cannot start the sandbox: Docker Engine ${body.Version.slice(0, 40)} is older than ${MIN_ENGINE_VERSION}`,
      { hint: "upgrade the engine: before 25.0.5 internal networks forward DNS from the host (CVE-2024-29018)" },
    );
  }
  const info = await client.request("GET", "/info");
  const facts = (info.body ?? {}) as { Name?: unknown; OperatingSystem?: unknown; SecurityOptions?: unknown };
  const desktop = /docker desktop/i.test(`${body.Platform?.Name ?? ""} ${facts.OperatingSystem ?? ""}`) ||
    facts.Name === "docker-desktop";
  const rootless = Array.isArray(facts.SecurityOptions) &&
    facts.SecurityOptions.some((entry) => String(entry).includes("name=rootless"));
  if (options.egress && (desktop || rootless)) {
    throw new WorkspaceError(
      "SANDBOX_EGRESS_UNSUPPORTED",
      `Cannot start the sandbox: network: { allow } cannot be enforced on ${
        desktop ? "Docker Desktop" : "a rootless engine"
      }`,
      {
        hint: desktop
          ? 'containers run in a VM there, so the host has no address on an internal network; use network: "none" or Docker Engine on Linux'
          : 'a rootless engine\'s bridge lives in its own network namespace; use network: "none" or a rootful engine',
      },
    );
  }
  if (!desktop && typeof facts.Name === "string" && facts.Name !== localHostname()) {
    throw new WorkspaceError(
      "SANDBOX_ENGINE_UNSUPPORTED",
      "Cannot start the sandbox: the Docker Engine runs on another machine (its host name is not this one's)",
      {
        hint:
          "the workspace is bind-mounted from this machine, so the engine must run here (Deno: --allow-sys=hostname lets the names be compared)",
      },
    );
  }
  const image = await client.request("GET", `/images/${encodeURIComponent(options.image)}/json`);
  if (image.status === 404) {
    throw unavailable(
      `image '${options.image}' is not on the engine`,
      "build or load it first; the sandbox never pulls. " +
        "For a small Node image: bash shared/docker/setup-engine.sh up (builds paddock/sandbox-node:local), " +
        "or docker build -t <name> . from a Dockerfile FROM an image you have",
    );
  }
  if (image.status !== 200) throw unavailable(`cannot inspect image '${options.image}': ${engineMessage(image)}`);
}
