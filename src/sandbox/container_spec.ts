/**
 * What a container of the container sandbox is made of: the constants, the
 * Engine API create body (mount, read-only root, tmpfs, user, capabilities,
 * limits), the user commands run as, and the rewriting of workspace paths.
 *
 * @module
 */
import * as fs from "node:fs";
import { pathPattern } from "../core/text/path_pattern.ts";

/** Where the workspace appears inside the container. */
export const CONTAINER_WORKSPACE = "/workspace";

/** `PATH` inside the container (the host's would name host folders). */
export const CONTAINER_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/**
 * The user commands run as when neither the caller nor the workspace's owner
 * can be known (Deno without `--allow-sys`, a workspace that cannot be stat'ed).
 */
export const CONTAINER_FALLBACK_USER = "1000:1000";

/**
 * Paths read-only inside on top of the read-only root filesystem: `/dev` (a
 * writable tmpfs otherwise, owned by uid 0, so a command mapped to uid 0 could
 * create files there), its `shm` and `mqueue` mounts, and the `/proc` entries
 * Docker makes read-only by default (giving the list replaces Docker's). Device
 * nodes such as `/dev/null` stay writable: a read-only mount does not stop writes
 * to a device.
 */
export const CONTAINER_READONLY_PATHS: readonly string[] = Object.freeze([
  "/dev",
  "/dev/shm",
  "/dev/mqueue",
  "/proc/bus",
  "/proc/fs",
  "/proc/irq",
  "/proc/sys",
  "/proc/sysrq-trigger",
]);

/** The label every container and network of ours carries; its value is the sandbox instance's id. */
export const CONTAINER_LABEL = "dev.paddock.sandbox";

/**
 * With `reuse`, how long the long-lived container waits without a command
 * before it ends (and the engine removes it): a sandbox whose process died
 * without `close()` leaves nothing running for long.
 */
export const CONTAINER_IDLE_TIMEOUT_MS = 600_000;

/**
 * Default limits of one container: enough for `npm ci` of a mid-sized
 * project, small enough that a fork bomb or a runaway allocation ends in the
 * container (`fork: Resource temporarily unavailable`, exit 137).
 */
export const CONTAINER_LIMITS: Readonly<{ memoryBytes: number; pidsLimit: number; cpus: number; tmpfsBytes: number }> =
  Object.freeze({
    memoryBytes: 512 * 1024 * 1024,
    pidsLimit: 128,
    cpus: 1,
    tmpfsBytes: 64 * 1024 * 1024,
  });

/** The create body's inputs: the image, who runs, where the workspace is, which network, the limits. */
export interface ContainerSpecInput {
  image: string;
  user: string;
  labels: Record<string, string>;
  root: string;
  networkMode: string;
  memoryBytes?: number;
  pidsLimit?: number;
  cpus?: number;
  tmpfsBytes?: number;
  init?: boolean;
  /**
   * More mounts below the workspace, host paths: protected paths (pinned
   * folders, read-only entries) and private ones (`mask`: `/dev/null` over a
   * file, an empty read-only tmpfs over a folder). @default []
   */
  binds?: ReadonlyArray<{ source: string; readOnly: boolean; mask?: "file" | "folder" }>;
}

/**
 * The Engine API body of `POST /containers/create`, less `Cmd`, `Env` and `WorkingDir`.
 *
 * @param input Image, user, labels, workspace, network and limits (defaults: {@link CONTAINER_LIMITS}).
 * @returns The body.
 */
export function containerSpec(input: ContainerSpecInput): Record<string, unknown> {
  const limits = {
    memoryBytes: input.memoryBytes ?? CONTAINER_LIMITS.memoryBytes,
    pidsLimit: input.pidsLimit ?? CONTAINER_LIMITS.pidsLimit,
    cpus: input.cpus ?? CONTAINER_LIMITS.cpus,
    tmpfsBytes: input.tmpfsBytes ?? CONTAINER_LIMITS.tmpfsBytes,
  };
  return {
    Image: input.image,
    // The command runs as given, not as arguments to the image's entrypoint.
    Entrypoint: [],
    User: input.user,
    Labels: input.labels,
    AttachStdin: false,
    AttachStdout: true,
    AttachStderr: true,
    OpenStdin: false,
    Tty: false,
    HostConfig: {
      // The engine mounts by target depth, so the workspace comes first and the binds below it after.
      Mounts: [
        { Type: "bind", Source: input.root, Target: CONTAINER_WORKSPACE, ReadOnly: false },
        ...(input.binds ?? []).map((bind) => {
          const target = CONTAINER_WORKSPACE + bind.source.slice(input.root.replace(/\/+$/, "").length);
          if (bind.mask === "folder") {
            return { Type: "tmpfs", Target: target, ReadOnly: true, TmpfsOptions: { SizeBytes: 4096, Mode: 0o555 } };
          }
          if (bind.mask === "file") return { Type: "bind", Source: "/dev/null", Target: target, ReadOnly: true };
          return { Type: "bind", Source: bind.source, Target: target, ReadOnly: bind.readOnly };
        }),
      ],
      NetworkMode: input.networkMode,
      ReadonlyRootfs: true,
      ReadonlyPaths: [...CONTAINER_READONLY_PATHS],
      Tmpfs: { "/tmp": `rw,nosuid,nodev,size=${limits.tmpfsBytes},mode=1777` },
      CapDrop: ["ALL"],
      SecurityOpt: ["no-new-privileges"],
      PidsLimit: limits.pidsLimit,
      Memory: limits.memoryBytes,
      MemorySwap: limits.memoryBytes,
      NanoCpus: Math.round(limits.cpus * 1e9),
      Init: input.init ?? true,
      IpcMode: "private",
      // The relay reads the output through attach; nothing is written to the daemon's disk.
      LogConfig: { Type: "none", Config: {} },
    },
  };
}

/**
 * The user commands run as when none is configured, chosen so that the
 * workspace is exactly as writable inside as it is for the caller outside,
 * never more:
 * - a non-root caller: its own `uid:gid` (inside it can do to the workspace
 *   what it can do outside; files it makes belong to it);
 * - a root caller: the workspace folder's owner `uid:gid`, as dev containers
 *   do (files the command makes belong to that owner). A root-owned workspace
 *   maps to `0:0`, which inside has no capability, `no-new-privileges`, a
 *   read-only root, `/dev` read-only ({@link CONTAINER_READONLY_PATHS}): it
 *   writes the workspace and `/tmp` and nothing else;
 * - neither known (Deno without `--allow-sys`, the workspace cannot be
 *   stat'ed): {@link CONTAINER_FALLBACK_USER}.
 *
 * @param root The workspace's host path.
 * @returns `uid:gid`.
 */
export function defaultContainerUser(root: string): string {
  let uid: number | undefined;
  let gid: number | undefined;
  try {
    uid = process.getuid?.();
    gid = process.getgid?.();
  } catch {
    // Deno without --allow-sys: the caller is unknown.
  }
  if (uid === undefined || gid === undefined) return CONTAINER_FALLBACK_USER;
  if (uid !== 0) return `${uid}:${gid}`;
  try {
    const owner = fs.statSync(root);
    return `${owner.uid}:${owner.gid}`;
  } catch {
    return CONTAINER_FALLBACK_USER;
  }
}

/**
 * Rewrites the workspace's host path to {@link CONTAINER_WORKSPACE} wherever
 * it starts a path in a string (`node_process` names its script, and Node's
 * permission flags the workspace, by host path).
 *
 * @param root The workspace's host path.
 * @returns The rewriting function.
 */
export function workspacePathMapper(root: string): (value: string) => string {
  const pattern = new RegExp(pathPattern(root), "g");
  return (value) => value.replace(pattern, CONTAINER_WORKSPACE);
}
