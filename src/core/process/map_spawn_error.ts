import { isHostError } from "../../host.ts";
import { WorkspaceError } from "../errors.ts";
import { permissionDenied } from "../fs/map_host_error.ts";

/** What {@link mapSpawnError} says about a program that could not be started. */
export interface SpawnFailureWording {
  /** Words before the host's error code, e.g. "the shell could not be started". @default none (the code alone) */
  detail?: string;
  /** The hint for the model. @default none */
  hint?: string;
}

/**
 * Turns a host error thrown while starting a process into `SPAWN_FAILED`
 * ("Cannot run <subject>: <detail> (<code>)"); anything else (an AbortError, a
 * WorkspaceError) passes through unchanged. The message never holds a host path.
 *
 * @param error What the spawn threw.
 * @param subject What was run, for the message ("the script", "the command").
 * @param wording An optional detail and hint.
 * @returns The error to throw.
 */
export function mapSpawnError(error: unknown, subject: string, wording: SpawnFailureWording = {}): unknown {
  if (!isHostError(error)) return error;
  if (error.missingPermission !== undefined) {
    return permissionDenied(`Cannot run ${subject}`, error.missingPermission, error);
  }
  const reason = wording.detail === undefined ? error.code : `${wording.detail} (${error.code})`;
  return new WorkspaceError("SPAWN_FAILED", `Cannot run ${subject}: ${reason}`, { hint: wording.hint, cause: error });
}
