import { HostError } from "../host.ts";
import { MINIMAL_ENVIRONMENT_NAMES } from "../core/process/environment.ts";
import { missingPermissionFlag } from "./_native_errors.ts";

/** The part of `Deno.env` the environment is read through. */
export interface DenoEnv {
  toObject(): Record<string, string>;
  get(name: string): string | undefined;
}

/**
 * The environment under Deno's permissions. With `--allow-env` the whole
 * environment is read; with a scoped `--allow-env=PATH,HOME,…` only `names`
 * are read, one at a time, and a name Deno does not grant counts as unset.
 *
 * @param env `Deno.env`.
 * @param names The variables the caller picks. @default the minimal environment's names
 * @returns The variables that are set and readable.
 * @throws {HostError} `EACCES` naming `--allow-env` when not one variable may be read.
 */
export function denoEnvironment(
  env: DenoEnv,
  names: readonly string[] = MINIMAL_ENVIRONMENT_NAMES,
): Record<string, string> {
  try {
    return env.toObject();
  } catch (error) {
    if (missingPermissionFlag(error) === undefined) throw error;
    const out: Record<string, string> = {};
    let granted = 0;
    let refusal: unknown = error;
    for (const name of new Set(names)) {
      try {
        const value = env.get(name);
        granted++;
        if (value !== undefined) out[name] = value;
      } catch (nameError) {
        if (missingPermissionFlag(nameError) === undefined) throw nameError;
        refusal = nameError;
      }
    }
    if (granted === 0) throw new HostError("EACCES", "env", refusal, "--allow-env");
    return out;
  }
}
