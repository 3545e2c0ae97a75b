/**
 * The bubblewrap (`bwrap`) backend of {@link Sandbox}, for Linux.
 *
 * What a wrapped command sees:
 * - the writable folders (the workspace) read-write at their own paths;
 * - `/usr`, `/bin`, `/sbin`, `/lib*` read-only (links kept as links), and a
 *   short list of `/etc` entries needed for DNS, TLS roots, user and group
 *   names, the dynamic linker and time zones ({@link SANDBOX_ETC_ENTRIES});
 *   nothing else of `/etc` (no `shadow`, `ssh/`, `sudoers`, …);
 * - the running runtime's own executable, read-only at its path (so
 *   `node_process` works inside);
 * - a private, empty `/tmp` (also `HOME` and `TMPDIR`), a minimal `/dev`, a
 *   new `/proc`;
 * - nothing else: not the host's home, not other users' files, not the
 *   agent's own configuration, not the rest of the folder around the
 *   workspace;
 * - of what is shown, nothing other users may not read: such entries are
 *   hidden (listed once per sandbox, see _bwrap_masks.ts), since a command
 *   run as uid 0 owns root's files.
 *
 * The keyring calls (`add_key`, `request_key`, `keyctl`) fail with EPERM
 * under a seccomp program (_seccomp_filter.ts, handed over by
 * _bwrap_seccomp.ts), so a command cannot read the agent's session keyring.
 *
 * `/`, `/dev` and `/proc/sys` are read-only too: the workspace and `/tmp`
 * are the only writable places. bwrap runs as the caller; a root caller whose
 * workspace belongs to another user starts it as that user (`setpriv`), so
 * that the command writes the workspace as its owner does.
 *
 * It runs with every namespace unshared (user, mount, pid, ipc, uts, cgroup,
 * net), a new session (no terminal injection), `--die-with-parent`, all
 * capabilities dropped and `no_new_privs` (bubblewrap always sets it), and
 * nested user namespaces disabled where bwrap supports it (0.8+).
 *
 * @module
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Sandbox, SandboxedCommand, SandboxWrapRequest } from "../core/process/command_sandbox.ts";
import { WorkspaceError } from "../core/errors.ts";
import { SANDBOX_DRAIN_GRACE_MS } from "../core/limits.ts";
import type { Host } from "../host.ts";
import { createAutoHost } from "../hosts/auto.ts";
import { onceUnlessFailed } from "../core/once_unless_failed.ts";
import type { BubblewrapSandboxOptions, SandboxNetwork } from "./bubblewrap_sandbox_options.ts";
import { proxyEnvironment } from "./credential_broker.ts";
import { checkProtectedPaths, protectedBinds, verifiedArgv } from "./protected_binds.ts";
import type { EgressEndpoint, ProxyListener } from "./egress_endpoint.ts";
import { createEgressProxy, type EgressProxy } from "./egress_proxy.ts";
import {
  FORWARDER_SOURCE,
  forwarderLauncher,
  SANDBOX_PROXY_DIR,
  SANDBOX_PROXY_PORT,
  shellQuote,
} from "./proxy_forwarder.ts";
import { SANDBOX_HOME, SANDBOX_SYSTEM_PATHS } from "./sandbox_paths.ts";
import { baseArguments, SEALED_MOUNTS, shownRoots } from "./_bwrap_base_arguments.ts";
import { maskArguments, unreadableEntries } from "./_bwrap_masks.ts";
import { seccompLauncher } from "./_bwrap_seccomp.ts";
import { type OwnerIds, probeAsOwner, workspaceOwner } from "./_bwrap_owner.ts";
import { findOnPath, isExecutableFile, reasonOf, run } from "./_bwrap_probe.ts";
import { runtimeName } from "./_runtime_name.ts";
import { unavailable } from "./_sandbox_unavailable.ts";

interface Probe {
  /** The shell that opens the seccomp program for bwrap, then execs the rest. */
  launcher: readonly string[];
  bwrap: string;
  /**
   * Arguments shared by every command: namespaces, the filesystem view, the masks over what other users may not
   * read. The masks need a walk of the shown host folders (about half a second), made at the first command rather
   * than in `check()`: a server that probes at start-up is not held up by it (`paddock mcp` answered `initialize`
   * ~750 ms later with it there).
   */
  base: () => Promise<string[]>;
}

interface NetworkSetup {
  dir: string;
  listener: ProxyListener;
}

/**
 * Runs commands in a bubblewrap sandbox; see the module doc for what they see.
 * The first `wrap` (or an explicit {@link BubblewrapSandbox.check}) probes
 * that bwrap works; when it does not, every call fails with
 * `SANDBOX_UNAVAILABLE` and nothing runs unsandboxed.
 *
 * @example A shell confined to the workspace, with npm's registry reachable
 * ```ts
 * import { BubblewrapSandbox, SandboxShell } from "@paddock/tools/sandbox";
 * const sandbox = new BubblewrapSandbox({ network: { allow: ["registry.npmjs.org"] } });
 * await sandbox.check();
 * const shell = new SandboxShell(sandbox, { cwd: "/work/project" });
 * const result = await shell.exec({ command: "npm ci", timeoutMs: 120_000, maxOutputBytes: 65_536 });
 * await sandbox.close();
 * ```
 */
export class BubblewrapSandbox implements Sandbox {
  /** The backend's name. */
  readonly kind: string = "bubblewrap";
  private readonly options: BubblewrapSandboxOptions;
  private readonly network: SandboxNetwork;
  private readonly ownedProxy: EgressProxy | undefined;
  private readonly host: Host;
  /** Probes once and shares the result; a failed probe is tried again next time. */
  private readonly ready = onceUnlessFailed(() => this.runProbe());
  // The probes of bwrap started as a workspace's owner (a root caller), by `uid:gid`.
  private readonly ownerProbes = new Map<string, Promise<string[]>>();
  private networkSetup: Promise<NetworkSetup> | undefined;

  /** `none` by default; `allowlist` with `allow` or a `proxy` (only allowed hosts, through the proxy). */
  get networkReach(): "none" | "allowlist" {
    return this.network === "none" ? "none" : "allowlist";
  }

  /**
   * Makes a sandbox; nothing runs until the first command (or `check()`).
   *
   * @param options bwrap path, network, extra read-only paths.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for a malformed host pattern or both `allow` and `proxy`.
   */
  constructor(options: BubblewrapSandboxOptions = {}) {
    this.options = { ...options };
    this.network = options.network ?? "none";
    this.host = options.host ?? createAutoHost();
    if (this.network !== "none") {
      const network = this.network as {
        allow?: readonly string[];
        allowPrivate?: readonly string[];
        proxy?: EgressEndpoint;
      };
      if (network.proxy !== undefined && (network.allow !== undefined || network.allowPrivate !== undefined)) {
        throw new WorkspaceError(
          "INVALID_ARGUMENTS",
          "Cannot configure the sandbox network: give either allow (and allowPrivate) or proxy, not both",
        );
      }
      if (network.proxy === undefined) {
        this.ownedProxy = createEgressProxy({ allow: network.allow ?? [], allowPrivate: network.allowPrivate ?? [] });
      }
    }
  }

  /**
   * Probes that bwrap exists and can create the sandbox here (namespaces
   * allowed). The result is remembered; a failure is retried next time.
   *
   * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` with the reason.
   */
  async check(): Promise<void> {
    await this.ready();
  }

  /** Finds bwrap and checks that a namespace can be made here. */
  private async runProbe(): Promise<Probe> {
    if (process.platform !== "linux") {
      throw unavailable(
        "bubblewrap runs only on Linux",
        "run the agent on Linux, or use a sandbox backend for this system",
      );
    }
    const bwrap = this.options.bwrapPath ?? findOnPath("bwrap");
    if (bwrap === undefined || !isExecutableFile(bwrap)) {
      throw unavailable("bwrap was not found", "install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap)");
    }
    let help: { stdout: string; stderr: string };
    try {
      help = await run(this.host, [bwrap, "--help"]);
    } catch {
      throw unavailable(
        "this runtime may not start programs",
        "grant the runtime permission to run bwrap (Deno: --allow-run)",
      );
    }
    const disableUserns = `${help.stdout}${help.stderr}`.includes("--disable-userns");
    const launcher = seccompLauncher();
    // Whether a sandbox can be made here does not depend on the masks: the probe runs without them.
    const unmasked = baseArguments(disableUserns, this.options, []);
    const probe = await run(this.host, [...launcher, bwrap, ...unmasked, "--", "/bin/sh", "-c", ":"]).catch(() => null);
    if (probe === null || probe.code !== 0) {
      throw unavailable(
        `bwrap cannot create the sandbox (${reasonOf(probe?.stderr ?? "")})`,
        "user namespaces may be blocked: check sysctl user.max_user_namespaces, kernel.unprivileged_userns_clone, " +
          "or an AppArmor rule restricting unprivileged user namespaces",
      );
    }
    // Once per sandbox, before its first command: the shown host entries other users may not read, hidden in
    // every command. A failed walk is tried again at the next command.
    const base = onceUnlessFailed(async () =>
      baseArguments(
        disableUserns,
        this.options,
        maskArguments(await unreadableEntries(this.host, shownRoots(this.options))),
      )
    );
    return { launcher, bwrap, base };
  }

  /**
   * Turns a command into `bwrap … -- command`: the writable folders bound
   * read-write, the working folder set, `HOME` and `TMPDIR` on the private
   * `/tmp`, and with an allowlisted network the proxy variables and a
   * forwarder started first.
   *
   * @param request The command as it would run unconfined.
   * @returns The command to spawn.
   * @throws {WorkspaceError} `SANDBOX_UNAVAILABLE` when the probe fails or the proxy cannot start.
   */
  async wrap(request: SandboxWrapRequest): Promise<SandboxedCommand> {
    const probe = await this.ready();
    for (const dir of request.writable) {
      // A writable root or system folder would undo the whole view.
      if (
        !path.isAbsolute(dir) || dir === "/" ||
        SANDBOX_SYSTEM_PATHS.some((system) => dir === system || system.startsWith(`${dir}/`))
      ) {
        throw new WorkspaceError(
          "INVALID_ARGUMENTS",
          "Cannot sandbox the command: a writable folder must be an absolute path that is not the root and holds no system folder",
        );
      }
    }
    // A root caller and a workspace of another user: bwrap starts as that user (see _bwrap_owner.ts).
    const owner = workspaceOwner(request.writable, request.cwd);
    if (owner !== undefined && this.network !== "none") {
      throw unavailable(
        "a network allowlist is not handed to a sandbox started as the workspace's owner (its proxy socket is the caller's)",
        'run the agent as the workspace\'s owner, or use network: "none"',
      );
    }
    const prefix = owner === undefined ? [] : await this.ownerPrefix(probe, owner);
    const args = [...probe.launcher, ...prefix, probe.bwrap, ...await probe.base()];
    for (const dir of request.writable) args.push("--bind", dir, dir);
    // Protected paths: pinned and read-only binds, checked again inside before the command runs.
    const checked = checkProtectedPaths(request);
    args.push(...protectedBinds(checked), "--chdir", request.cwd);
    let argv = request.argv;
    for (const dir of request.writable) {
      const below = (target: string) => target.startsWith(`${dir.replace(/\/+$/, "")}/`);
      argv = verifiedArgv(
        argv,
        dir.replace(/\/+$/, ""),
        [...checked.pinned, ...checked.readOnly].filter(below),
        checked.masked.map((mask) => mask.path).filter(below),
      );
    }
    const env: Record<string, string> = { ...request.env, HOME: SANDBOX_HOME, TMPDIR: SANDBOX_HOME };
    // `--new-session` puts the command out of reach of its group's kill; it ends when bwrap does
    // (`--die-with-parent`, then its PID namespace), a moment later: the runner waits for its pipes to close.
    if (this.network === "none") {
      args.push(...SEALED_MOUNTS, "--", ...argv);
      return { argv: args, env, drainGraceMs: SANDBOX_DRAIN_GRACE_MS };
    }
    const setup = await this.startNetwork();
    const socket = `${SANDBOX_PROXY_DIR}/proxy.sock`;
    const forwarder = `${SANDBOX_PROXY_DIR}/forwarder.cjs`;
    args.push(
      "--ro-bind",
      path.join(setup.dir, "proxy.sock"),
      socket,
      "--ro-bind",
      path.join(setup.dir, "forwarder.cjs"),
      forwarder,
      ...SEALED_MOUNTS,
    );
    const runtime = this.options.runtimePath ?? process.execPath;
    const kind = runtimeName();
    const forwarderArgv = kind === "deno"
      ? [
        runtime,
        "run",
        "--no-config",
        "--no-lock",
        "--cached-only",
        // All permissions: the sandbox is the confinement here, and Deno's
        // node:net needs more than read+write on the socket path to connect.
        "--allow-all",
        forwarder,
      ]
      : [runtime, forwarder];
    forwarderArgv.push(socket, String(SANDBOX_PROXY_PORT));
    args.push("--", "/bin/sh", "-c", forwarderLauncher(forwarderArgv.map(shellQuote).join(" ")), "paddock-sandbox");
    args.push(...argv);
    Object.assign(env, proxyEnvironment(`http://127.0.0.1:${SANDBOX_PROXY_PORT}`));
    if (kind === "deno") env["NO_COLOR"] = "1";
    return { argv: args, env, drainGraceMs: SANDBOX_DRAIN_GRACE_MS };
  }

  /** `setpriv … --` to start bwrap as `owner`, probed once per owner. */
  private ownerPrefix(probe: Probe, owner: OwnerIds): Promise<string[]> {
    const key = `${owner.uid}:${owner.gid}`;
    let prefix = this.ownerProbes.get(key);
    if (prefix === undefined) {
      prefix = probe.base().then((base) => probeAsOwner(this.host, probe.launcher, [probe.bwrap, ...base], owner));
      this.ownerProbes.set(key, prefix);
      prefix.catch(() => this.ownerProbes.delete(key));
    }
    return prefix;
  }

  // The proxy's Unix socket and the forwarder script, in a private folder on
  // the host, made once per sandbox.
  /** Starts the network plumbing once (see above). */
  private startNetwork(): Promise<NetworkSetup> {
    this.networkSetup ??= (async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-sandbox-"));
      try {
        fs.chmodSync(dir, 0o700);
        fs.writeFileSync(path.join(dir, "forwarder.cjs"), FORWARDER_SOURCE, { mode: 0o644 });
        const endpoint = this.ownedProxy ?? (this.network as { proxy: EgressEndpoint }).proxy;
        const listener = await endpoint.listen(path.join(dir, "proxy.sock"));
        listener.unref();
        return { dir, listener };
      } catch {
        fs.rmSync(dir, { recursive: true, force: true });
        throw unavailable("its egress proxy cannot listen");
      }
    })().catch((error: unknown) => {
      this.networkSetup = undefined;
      throw error;
    });
    return this.networkSetup;
  }

  /** Stops the sandbox's proxy listener (a proxy passed in stays open) and removes its files. */
  async close(): Promise<void> {
    const setup = await this.networkSetup?.catch(() => undefined);
    this.networkSetup = undefined;
    if (setup !== undefined) {
      await setup.listener.close();
      fs.rmSync(setup.dir, { recursive: true, force: true });
    }
    await this.ownedProxy?.close();
  }
}
