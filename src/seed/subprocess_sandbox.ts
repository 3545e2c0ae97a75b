/**
 * A placeholder for `SubprocessSandbox` (the container sandbox, built in its
 * own issue in `src/sandbox/subprocess_sandbox.ts`): the name and the options
 * the seed documents use exist, so their examples type-check and construct;
 * running a command fails with `SANDBOX_UNAVAILABLE`, and nothing ever runs
 * unsandboxed. At merge time this file re-exports the real class lazily.
 *
 * @module
 */
import type { Sandbox, SandboxedCommand, SandboxWrapRequest } from "../core/command_sandbox.ts";
import { WorkspaceError } from "../core/errors.ts";

/** Options of {@link SubprocessSandbox}, as the seed documents write them. */
export interface SubprocessSandboxOptions {
  /** The container image commands run in, e.g. `node:20-alpine`. */
  image: string;
  /** No network, or only the allowlisted hosts through the broker. @default "none" */
  network?: "none" | { allow: readonly string[] };
  /** The credential broker the containers' proxy traffic goes through. @default none */
  broker?: { readonly url: string; close(): Promise<void> };
  /** The name of the internal network to create or reuse. @default `paddock-egress-<random>` */
  networkName?: string;
}

/** The container sandbox of the seed documents; see the module note: not available yet. */
export class SubprocessSandbox implements Sandbox {
  /** `container`. */
  readonly kind = "container";
  /** The options as given. */
  readonly options: Readonly<SubprocessSandboxOptions>;

  /** @param options Image, network policy and broker. */
  constructor(options: SubprocessSandboxOptions) {
    this.options = Object.freeze({ ...options });
  }

  /** @throws {WorkspaceError} Always `SANDBOX_UNAVAILABLE`. */
  check(): Promise<void> {
    return Promise.reject(unavailable());
  }

  /** @throws {WorkspaceError} Always `SANDBOX_UNAVAILABLE`: nothing runs unsandboxed. */
  wrap(_request: SandboxWrapRequest): Promise<SandboxedCommand> {
    return Promise.reject(unavailable());
  }

  /** Nothing to release. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}

function unavailable(): WorkspaceError {
  return new WorkspaceError("SANDBOX_UNAVAILABLE", "Cannot run the command: the container sandbox is not available in this build", {
    hint: "use BubblewrapSandbox from '@paddock/tools/sandbox' on Linux, or another ShellProvider",
  });
}
