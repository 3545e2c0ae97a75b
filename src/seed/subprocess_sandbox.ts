/**
 * `SubprocessSandbox` for the package root, loaded on first use: the
 * container sandbox (`@paddock/tools/sandbox`) talks to the Docker Engine over
 * `node:http`, and importing `@paddock/tools` must not load it. The class is
 * constructed synchronously, as the seed documents do; its first `check`,
 * `wrap` or `close` loads the real one and hands every call to it.
 *
 * @module
 */
import type { Sandbox, SandboxedCommand, SandboxWrapRequest } from "../core/process/command_sandbox.ts";
import type { SubprocessSandbox as ContainerSandbox } from "../sandbox/subprocess_sandbox.ts";
import type { SubprocessSandboxOptions } from "../sandbox/subprocess_sandbox_options.ts";

export type { SubprocessSandboxOptions } from "../sandbox/subprocess_sandbox_options.ts";

/**
 * The container sandbox of the seed documents: each command in a hardened
 * container of a local Docker Engine. The same as `SubprocessSandbox` from
 * `@paddock/tools/sandbox`, whose module is loaded on first use.
 *
 * @example
 * ```ts
 * import { NodeWorkspace, SandboxShell, SubprocessSandbox } from "@paddock/tools";
 * const workspace = new NodeWorkspace({ root: "./project" });
 * const sandbox = new SubprocessSandbox({ image: "paddock/sandbox-node:local", network: "none" });
 * const shell = new SandboxShell(sandbox, { cwd: workspace.root });
 * ```
 */
export class SubprocessSandbox implements Sandbox {
  /** `container`. */
  readonly kind = "container";
  /** The options as given. */
  readonly options: Readonly<SubprocessSandboxOptions>;
  #real: Promise<ContainerSandbox> | undefined;

  /**
   * Makes the sandbox; its module loads on the first `check`, `wrap` or `close`.
   *
   * @param options Image, network policy, broker and limits (see `@paddock/tools/sandbox`).
   */
  constructor(options: SubprocessSandboxOptions) {
    this.options = Object.freeze({ ...options });
  }

  /** What the commands' network can reach. */
  get networkReach(): "none" | "allowlist" {
    return this.options.network === undefined || this.options.network === "none" ? "none" : "allowlist";
  }

  #load(): Promise<ContainerSandbox> {
    this.#real ??= import("../sandbox/subprocess_sandbox.ts").then((module) =>
      new module.SubprocessSandbox(this.options)
    );
    return this.#real;
  }

  /** Checks that the engine can run this sandbox; see `@paddock/tools/sandbox`. */
  async check(): Promise<void> {
    await (await this.#load()).check();
  }

  /** Wraps one command to run in a container; see `@paddock/tools/sandbox`. */
  async wrap(request: SandboxWrapRequest): Promise<SandboxedCommand> {
    return await (await this.#load()).wrap(request);
  }

  /** Removes what the sandbox created (nothing when it was never used). */
  async close(): Promise<void> {
    if (this.#real !== undefined) await (await this.#real).close();
  }
}
