// The reusable mode of the container sandbox (`reuse: true`): one long-lived
// container per workspace, commands run in it through exec.
import type { SandboxedCommand } from "../core/process/command_sandbox.ts";
import type { EgressNetwork } from "./container_network.ts";
import type { RelayLauncher } from "./container_relay.ts";
import { CONTAINER_PATH, CONTAINER_WORKSPACE } from "./container_spec.ts";
import { type EngineClient, engineMessage } from "./docker_engine.ts";
import { removeContainer } from "./_remove_container.ts";
import { unavailable } from "./_sandbox_unavailable.ts";

/**
 * A mount below the workspace (host path): a pinned folder or a protected
 * entry bound over itself, or (`mask`) a private entry hidden under the
 * host's `/dev/null` (a file) or an empty read-only tmpfs (a folder).
 */
export type Bind = { source: string; readOnly: boolean; mask?: "file" | "folder" };

interface Keeper {
  id: string;
  queue: Promise<void>;
}

/** What the reused containers need from their sandbox. */
export interface ReuseHost {
  /** The hardened container configuration for one command. */
  containerSpec(root: string, egress: EgressNetwork | undefined, binds: Bind[]): Record<string, unknown>;
  /** Creates a container and returns its id. */
  create(client: EngineClient, spec: Record<string, unknown>): Promise<string>;
  /** The user commands run as in the container of a workspace root. */
  user(root: string): string;
  /** The relay that runs each container command as a host process. */
  relay(): RelayLauncher;
  /** Milliseconds without a command after which a long-lived container ends. */
  idleTimeoutMs(): number;
}

/** The long-lived containers of one sandbox, keyed by workspace root, user and protected binds. */
export class ReusedContainers {
  private readonly keepers = new Map<string, Promise<Keeper>>();
  private readonly sandbox: ReuseHost;

  constructor(sandbox: ReuseHost) {
    this.sandbox = sandbox;
  }

  // Reuse mode: one long-lived container per workspace whose process 1 only
  // sleeps; commands run one at a time through exec, each followed by
  // `kill -KILL -1` as the command's user, which ends whatever the command
  // left behind (process 1 is exempt, so the container stays).
  /** The long-lived container of the reusable mode, for one workspace root. */
  keeper(
    client: EngineClient,
    root: string,
    egress: EgressNetwork | undefined,
    binds: Bind[],
    user: string,
  ): Promise<Keeper> {
    // Keyed by the user too (the workspace's owner may change), and by the protected binds: when they change
    // (a protected file appeared), a new container has them.
    const key = `${root}\0${user}${binds.length === 0 ? "" : `\0${JSON.stringify(binds)}`}`;
    let keeper = this.keepers.get(key);
    if (keeper === undefined) {
      keeper = (async () => {
        const spec = this.sandbox.containerSpec(root, egress, binds);
        // The keeper runs as the user its commands run as: a container is never shared between two uids.
        spec.User = user;
        // Process 1 is the keeper itself (exempt from kill -1); when it ends, the engine removes the container.
        Object.assign(spec.HostConfig as Record<string, unknown>, { Init: false, AutoRemove: true });
        const id = await this.sandbox.create(client, {
          ...spec,
          Cmd: ["/bin/sh", "-c", keeperScript(this.sandbox.idleTimeoutMs())],
          Env: [`PATH=${CONTAINER_PATH}`],
          WorkingDir: CONTAINER_WORKSPACE,
        });
        const started = await client.request("POST", `/containers/${id}/start`);
        if (started.status !== 204 && started.status !== 304) {
          await removeContainer(client, id);
          throw unavailable(`cannot start the container: ${engineMessage(started)}`);
        }
        return { id, queue: Promise.resolve() };
      })();
      this.keepers.set(key, keeper);
      keeper.catch(() => this.keepers.delete(key));
    }
    return keeper;
  }

  /** Removes a long-lived container (of a workspace root and its protected binds). */
  async dropKeeper(client: EngineClient, id: string): Promise<void> {
    for (const [key, entry] of this.keepers) {
      if ((await entry.catch(() => undefined))?.id === id) this.keepers.delete(key);
    }
    await removeContainer(client, id);
  }

  /** Runs one command in the long-lived container through `exec`. */
  async execIn(
    client: EngineClient,
    root: string,
    egress: EgressNetwork | undefined,
    command: { argv: string[]; envList: string[]; workingDir: string },
    binds: Bind[],
  ): Promise<SandboxedCommand> {
    const user = this.sandbox.user(root);
    for (let attempt = 0;; attempt++) {
      const keeper = await this.keeper(client, root, egress, binds, user);
      let release!: () => void;
      const previous = keeper.queue;
      keeper.queue = new Promise<void>((resolve) => (release = resolve));
      await previous;
      const response = await client.request("POST", `/containers/${keeper.id}/exec`, {
        Cmd: ["/bin/sh", "-c", EXEC_WRAPPER, "paddock-exec", ...command.argv],
        Env: command.envList,
        WorkingDir: command.workingDir,
        User: user,
        AttachStdin: false,
        AttachStdout: true,
        AttachStderr: true,
        Tty: false,
      }).catch((error: unknown) => {
        release();
        throw error;
      });
      const execId = (response.body as { Id?: unknown } | undefined)?.Id;
      if (response.status === 201 && typeof execId === "string") {
        return {
          argv: this.sandbox.relay().argv("exec", execId),
          env: this.sandbox.relay().env(),
          cleanup: async () => {
            try {
              const state = await client.request("GET", `/exec/${execId}/json`).catch(() => null);
              const running = state === null || state.status !== 200 ||
                (state.body as { Running?: unknown }).Running !== false;
              // Still running: the relay was killed (timeout, abort, output limit). The container goes with it.
              if (running) await this.dropKeeper(client, keeper.id);
            } finally {
              release();
            }
          },
        };
      }
      release();
      // 404/409: the container is gone or stopped (killed from outside, out of memory); make a new one once.
      await this.dropKeeper(client, keeper.id);
      if (attempt > 0 || (response.status !== 404 && response.status !== 409)) {
        throw unavailable(`cannot run the command in the container: ${engineMessage(response)}`);
      }
    }
  }

  /** Forgets every long-lived container (the sandbox removes them by label). */
  clear(): void {
    this.keepers.clear();
  }
}

// Reuse mode's exec wrapper: marks the container busy while the command
// runs, then kills whatever the command left (all processes of its user but
// process 1, the keeper).
const EXEC_WRAPPER = ': > /tmp/.paddock-busy; "$@"; s=$?; rm -f /tmp/.paddock-busy; : > /tmp/.paddock-used; ' +
  "kill -KILL -1 2>/dev/null; exit $s";

// Reuse mode's process 1: sleeps, and ends after `idleMs` without a command
// (so a container whose sandbox was never closed, e.g. its process died,
// does not live forever).
function keeperScript(idleMs: number): string {
  const limit = Math.max(1, Math.ceil(idleMs / 1000));
  const step = Math.min(60, Math.max(1, Math.floor(limit / 10)));
  return `idle=0; while [ "$idle" -lt ${limit} ]; do sleep ${step}; ` +
    `if [ -e /tmp/.paddock-busy ] || [ -e /tmp/.paddock-used ]; then rm -f /tmp/.paddock-used; idle=0; ` +
    `else idle=$((idle + ${step})); fi; done`;
}
