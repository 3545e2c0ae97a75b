/**
 * The container backend of {@link Sandbox}: every command runs in a Docker
 * container, driven through the Engine API on its Unix socket (no `docker`
 * CLI). The host spawns a small relay (`container_relay.ts`) in place of the
 * command; it streams the container's output and exits with its status, so
 * `SandboxShell`, the `shell` tool and `node_process` bound time and output
 * exactly as they do for bubblewrap. After the relay ends (normally, on
 * timeout, on abort) the sandbox removes the container.
 *
 * What a command sees, by default (each an option):
 * - the workspace read-write at `/workspace`, the working folder there;
 * - the image's filesystem read-only, a small tmpfs `/tmp` (also `HOME`, `TMPDIR`);
 * - the caller's uid (a root caller: the workspace owner's, see
 *   `defaultContainerUser`), no capabilities, `no-new-privileges`, `/dev`
 *   read-only, a pids, memory and CPU limit;
 * - the environment it was given (the minimal set plus `env` / `inheritEnv`),
 *   with `PATH`, `HOME` and `TMPDIR` set for the container;
 * - no network but loopback, or (`network: { allow }`) only an egress proxy
 *   on an internal bridge network's gateway.
 *
 * @module
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { Sandbox, SandboxedCommand, SandboxWrapRequest } from "../core/process/command_sandbox.ts";
import { WorkspaceError } from "../core/errors.ts";
import { checkEngine } from "./check_engine.ts";
import { closeEgressNetwork, type EgressNetwork, openEgressNetwork } from "./container_network.ts";
import { RelayLauncher } from "./container_relay.ts";
import {
  CONTAINER_IDLE_TIMEOUT_MS,
  CONTAINER_LABEL,
  CONTAINER_PATH,
  CONTAINER_WORKSPACE,
  containerSpec,
  defaultContainerUser,
  workspacePathMapper,
} from "./container_spec.ts";
import { proxyEnvironment } from "./credential_broker.ts";
import { checkProtectedPaths, verifiedArgv } from "./protected_binds.ts";
import { EngineClient, engineMessage, socketFromDockerHost } from "./docker_engine.ts";
import type { EgressEndpoint } from "./egress_endpoint.ts";
import { createEgressProxy, type EgressProxy } from "./egress_proxy.ts";
import type { ContainerNetwork, SubprocessSandboxOptions } from "./subprocess_sandbox_options.ts";
import { removeContainer } from "./_remove_container.ts";
import { type Bind, ReusedContainers } from "./_reused_containers.ts";
import { unavailable } from "./_sandbox_unavailable.ts";

function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(6)), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

function environmentVariable(name: string): string | undefined {
  try {
    return process.env[name];
  } catch {
    return undefined; // Deno without --allow-env
  }
}

/**
 * Runs commands in Docker containers; see the module doc for what they see.
 * The first `wrap` (or {@link SubprocessSandbox.check}) checks the engine:
 * Engine 25.0.5 or later, on this machine, and for `network: { allow }` not
 * Docker Desktop and not rootless; and that the image exists.
 *
 * @example A shell whose commands each run in a fresh container
 * ```ts
 * import { SandboxShell, SubprocessSandbox } from "@paddock/tools/sandbox";
 * const sandbox = new SubprocessSandbox({ image: "paddock/sandbox-node:local", network: "none" });
 * const shell = new SandboxShell(sandbox, { cwd: "/work/project" });
 * const result = await shell.exec({ command: "node --version", timeoutMs: 10_000, maxOutputBytes: 32_768 });
 * await sandbox.close();
 * ```
 */
export class SubprocessSandbox implements Sandbox {
  /** The backend's name. */
  readonly kind: string = "container";
  /** This instance's id: the value of `CONTAINER_LABEL` on everything it creates. */
  readonly instanceId: string = randomId();
  private readonly options: SubprocessSandboxOptions;
  private readonly network: ContainerNetwork;
  private readonly ownedProxy: EgressProxy | undefined;
  private probe: Promise<EngineClient> | undefined;
  private egress: Promise<EgressNetwork> | undefined;
  // Made with the engine's socket by the probe, so set whenever a command is wrapped.
  private relayLauncher: RelayLauncher | undefined;
  private readonly reused = new ReusedContainers({
    containerSpec: (root, egress, binds) => this.containerSpec(root, egress, binds),
    create: (client, spec) => this.create(client, spec),
    user: (root) => this.user(root),
    relay: () => this.relay(),
    idleTimeoutMs: () => this.options.idleTimeoutMs ?? CONTAINER_IDLE_TIMEOUT_MS,
  });

  /**
   * Makes a container sandbox; nothing talks to the engine before the first command or `check()`.
   *
   * @param options Image, network, limits.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a missing image, a broker without `network: { allow }`,
   *   `allowPrivate` beside a broker, or a malformed host pattern.
   */
  constructor(options: SubprocessSandboxOptions) {
    if (typeof options?.image !== "string" || options.image === "") {
      throw new WorkspaceError("INVALID_ARGUMENTS", "Cannot configure the sandbox: image must name a local image");
    }
    this.options = { ...options };
    this.network = options.network ?? "none";
    if (this.network === "none") {
      if (options.broker !== undefined) {
        throw new WorkspaceError(
          "INVALID_ARGUMENTS",
          "Cannot configure the sandbox: a broker needs network: { allow }",
        );
      }
    } else if (options.broker === undefined) {
      this.ownedProxy = createEgressProxy({ allow: this.network.allow, allowPrivate: this.network.allowPrivate ?? [] });
    } else if (this.network.allowPrivate !== undefined) {
      throw new WorkspaceError(
        "INVALID_ARGUMENTS",
        "Cannot configure the sandbox: with a broker, give allowPrivate to the broker, not to the sandbox",
      );
    }
  }

  /**
   * Checks the engine and the image (remembered; a failure is retried next time).
   *
   * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` (no engine answers, the image is missing),
   *   `SANDBOX_ENGINE_UNSUPPORTED` (engine older than 25.0.5, or on another machine),
   *   `SANDBOX_EGRESS_UNSUPPORTED` (with `network: { allow }`: Docker Desktop, a rootless engine).
   */
  async check(): Promise<void> {
    await this.ready();
  }

  /** The engine client once the engine passed its checks (probed once per sandbox). */
  private ready(): Promise<EngineClient> {
    this.probe ??= this.runProbe().catch((error: unknown) => {
      this.probe = undefined;
      throw error;
    });
    return this.probe;
  }

  /** Checks the engine: version, kind, location; and the image. */
  private async runProbe(): Promise<EngineClient> {
    const socket = this.options.socketPath ?? socketFromDockerHost(environmentVariable("DOCKER_HOST"));
    if (socket === null) {
      throw new WorkspaceError(
        "SANDBOX_ENGINE_UNSUPPORTED",
        "Cannot start the sandbox: DOCKER_HOST names a daemon that is not on a local Unix socket",
        {
          hint:
            "the workspace is bind-mounted from this machine, so the engine must run here: use unix:///var/run/docker.sock",
        },
      );
    }
    // Once: a re-probe (after the image went away) must not delete the script under a running relay.
    this.relayLauncher ??= new RelayLauncher(socket, this.options.runtimePath ?? process.execPath);
    const client = new EngineClient(socket);
    await checkEngine(client, { image: this.options.image, egress: this.network !== "none" });
    return client;
  }

  /**
   * Creates the command's container (or, with `reuse`, an exec in the
   * workspace's long-lived one) and returns the relay that runs it; its
   * `cleanup` removes the container (with `reuse`: only when the command did
   * not finish, e.g. on timeout).
   *
   * @param request The command as it would run unconfined; exactly one writable folder (the workspace).
   * @returns The relay to spawn.
   * @throws {WorkspaceError} the codes of {@link SubprocessSandbox.check}; `INVALID_ARGUMENTS` for other than one
   *   absolute writable folder holding the working folder; `SANDBOX_EGRESS_UNSUPPORTED` for a reused network that is not internal.
   */
  async wrap(request: SandboxWrapRequest): Promise<SandboxedCommand> {
    const client = await this.ready();
    const root = request.writable[0];
    if (
      request.writable.length !== 1 || !path.isAbsolute(root) || root === "/" ||
      (request.cwd !== root && !request.cwd.startsWith(`${root}/`))
    ) {
      throw new WorkspaceError(
        "INVALID_ARGUMENTS",
        "Cannot sandbox the command: the container sandbox takes one writable folder (not the root) holding the working folder",
      );
    }
    // Protected paths: pinned folders bound over themselves, protected entries read-only (protected_binds.ts).
    const checked = checkProtectedPaths(request);

    const binds: Bind[] = [
      ...checked.pinned.map((source) => ({ source, readOnly: false })),
      ...checked.readOnly.map((source) => ({ source, readOnly: true })),
      // Private paths: the host's /dev/null over a file, an empty read-only tmpfs over a folder.
      ...checked.masked.map(({ path: source, folder }) => ({
        source,
        readOnly: true,
        mask: folder ? "folder" as const : "file" as const,
      })),
    ];
    const egress = this.network === "none" ? undefined : await this.openNetwork(client);
    const toInside = workspacePathMapper(root);
    const command = request.argv.map(toInside);
    const runtime = this.options.runtimePath ?? process.execPath;
    if (command[0] === runtime || command[0] === safeRealpath(runtime)) {
      command[0] = this.options.runtimeCommand ?? "node";
    }
    // Checked again inside, before the command runs (protected_binds.ts).
    const argv = verifiedArgv(
      command,
      CONTAINER_WORKSPACE,
      binds.filter((bind) => bind.mask === undefined).map((bind) => toInside(bind.source)),
      binds.filter((bind) => bind.mask !== undefined).map((bind) => toInside(bind.source)),
    );
    const env: Record<string, string> = { ...request.env };
    for (const name of ["TEMP", "TMP", "PWD", "OLDPWD"]) delete env[name];
    Object.assign(env, { PATH: CONTAINER_PATH, HOME: "/tmp", TMPDIR: "/tmp" });
    if (egress !== undefined) {
      const proxy = proxyEnvironment(egress.proxyUrl);
      Object.assign(env, proxy, { NO_PROXY: egress.gateway, no_proxy: egress.gateway });
    }
    const envList = Object.entries(env).filter(([name]) => name !== "" && !name.includes("=")).map(([name, value]) =>
      `${name}=${value}`
    );
    const workingDir = toInside(request.cwd);
    if (this.options.reuse === true) {
      return await this.reused.execIn(client, root, egress, { argv, envList, workingDir }, binds);
    }
    const spec = this.containerSpec(root, egress, binds);
    // The engine removes the container when it ends, even if this process is gone by then.
    (spec.HostConfig as Record<string, unknown>).AutoRemove = true;
    const id = await this.create(client, {
      ...spec,
      Cmd: argv,
      Env: envList,
      WorkingDir: workingDir,
    });
    return { argv: this.relay().argv("run", id), env: this.relay().env(), cleanup: () => removeContainer(client, id) };
  }

  /** The relay that runs each container command as a host process. */
  private relay(): RelayLauncher {
    return this.relayLauncher as RelayLauncher;
  }

  /** The user commands run as in the container of a workspace root. */
  private user(root: string): string {
    return this.options.user ?? defaultContainerUser(root);
  }

  /** The labels every object this sandbox creates carries. */
  private labels(): Record<string, string> {
    return { ...this.options.labels, [CONTAINER_LABEL]: this.instanceId };
  }

  /** The hardened container configuration for one command. */
  private containerSpec(root: string, egress: EgressNetwork | undefined, binds: Bind[] = []): Record<string, unknown> {
    return containerSpec({
      ...this.options,
      user: this.user(root),
      labels: this.labels(),
      root,
      networkMode: egress === undefined ? "none" : egress.name,
      binds,
    });
  }

  /** Creates a container and returns its id. */
  private async create(client: EngineClient, spec: Record<string, unknown>): Promise<string> {
    const response = await client.request("POST", `/containers/create?name=paddock-${randomId()}`, spec);
    if (response.status === 404) {
      this.probe = undefined; // the image went away: check again next time
      throw unavailable(
        `image '${this.options.image}' is not on the engine`,
        "build or load it first; the sandbox never pulls",
      );
    }
    const id = (response.body as { Id?: unknown } | undefined)?.Id;
    if (response.status !== 201 || typeof id !== "string") {
      throw unavailable(`cannot create the container: ${engineMessage(response)}`);
    }
    return id;
  }

  /** Opens (or reuses) the internal network for `{ allow }`. */
  private openNetwork(client: EngineClient): Promise<EgressNetwork> {
    this.egress ??= openEgressNetwork(client, {
      name: this.options.networkName ?? `paddock-egress-${this.instanceId}`,
      labels: this.labels(),
      endpoint: this.ownedProxy ?? (this.options.broker as EgressEndpoint),
      allow: this.ownedProxy === undefined ? (this.network as { allow: readonly string[] }).allow : [],
    }).catch((error: unknown) => {
      this.egress = undefined;
      throw error;
    });
    return this.egress;
  }

  /**
   * Removes every container this sandbox made, stops its proxy listener, and
   * removes its network if it created it (a broker passed in stays open).
   */
  async close(): Promise<void> {
    const client = await this.probe?.catch(() => undefined);
    this.reused.clear();
    if (client !== undefined) {
      const filters = encodeURIComponent(JSON.stringify({ label: [`${CONTAINER_LABEL}=${this.instanceId}`] }));
      const listed = await client.request("GET", `/containers/json?all=1&filters=${filters}`).catch(() => null);
      const ids = Array.isArray(listed?.body) ? (listed.body as Array<{ Id?: unknown }>).map((entry) => entry.Id) : [];
      await Promise.all(
        ids.filter((id): id is string => typeof id === "string").map((id) => removeContainer(client, id)),
      );
      const egress = await this.egress?.catch(() => undefined);
      this.egress = undefined;
      if (egress !== undefined) await closeEgressNetwork(client, egress);
    }
    await this.ownedProxy?.close();
    this.relayLauncher?.close(); // its script is written again if the sandbox is used after close()
  }
}

function safeRealpath(file: string): string | undefined {
  try {
    return fs.realpathSync(file);
  } catch {
    return undefined;
  }
}
