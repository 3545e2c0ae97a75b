// The error of a container sandbox that cannot start or run a command.
import { WorkspaceError } from "../core/errors.ts";

/** `SANDBOX_UNAVAILABLE`: `Cannot start the sandbox: <detail>`, with an optional hint. */
export function unavailable(detail: string, hint?: string): WorkspaceError {
  return new WorkspaceError(
    "SANDBOX_UNAVAILABLE",
    `Cannot start the sandbox: ${detail}`,
    hint === undefined ? {} : { hint },
  );
}
