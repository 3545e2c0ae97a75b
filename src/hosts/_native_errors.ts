import { HostError, type HostErrorCode } from "../host.ts";

/** POSIX error codes (Node's `error.code`, Deno's native `code`) → host error codes. Anything else is EIO. */
export const ERRNO_CODES: Readonly<Record<string, HostErrorCode>> = {
  ENOENT: "ENOENT",
  EEXIST: "EEXIST",
  ELOOP: "ELOOP",
  ENOTDIR: "ENOTDIR",
  EISDIR: "EISDIR",
  EACCES: "EACCES",
  EPERM: "EPERM",
  ENOTEMPTY: "ENOTEMPTY",
  EXDEV: "EXDEV",
  EINVAL: "EINVAL",
  ENAMETOOLONG: "ENAMETOOLONG",
  EBUSY: "EBUSY",
  ESRCH: "ESRCH",
  ENXIO: "ENXIO",
  EAGAIN: "EAGAIN",
};

/**
 * The permission flag a runtime refusal names: Deno 2 throws `NotCapable`
 * ("Requires write access to "…", run again with the --allow-write flag").
 * Only the flag is kept; the message also holds the host path, which must
 * not reach a model.
 *
 * @param error Anything thrown.
 * @returns The flag, e.g. `--allow-write`, or undefined when `error` is not such a refusal.
 */
export function missingPermissionFlag(error: unknown): string | undefined {
  const { name, message } = (error ?? {}) as { name?: unknown; message?: unknown };
  if (name !== "NotCapable") return undefined;
  const text = typeof message === "string" ? message : "";
  const flag = /--allow-[a-z-]+/.exec(text)?.[0];
  const kind = /Requires (\w+) access/.exec(text)?.[1];
  return flag ?? (kind === undefined ? "--allow-all" : `--allow-${kind}`);
}

/** One host's mapping of native errors, and the wrappers that apply it. */
export interface NativeErrors {
  /** A native error → a {@link HostError} (a HostError passes through). */
  mapError(error: unknown, syscall: string): HostError;
  /** Awaits `operation`, rejecting with the mapped error. */
  call<T>(syscall: string, operation: () => Promise<T>): Promise<T>;
  /** Runs a synchronous `operation` and returns its result as a promise, rejecting with the mapped error. */
  callSync<T>(syscall: string, operation: () => T): Promise<T>;
}

/**
 * Builds a host's error mapping from its one table: an error's `code` is
 * looked up first, then its `name` (Deno's error classes); anything not in
 * the table is `EIO`.
 *
 * @param table Native codes and error names → host error codes.
 * @returns The mapping and the call wrappers.
 */
export function nativeErrors(table: Readonly<Record<string, HostErrorCode>>): NativeErrors {
  const lookup = (key: unknown): HostErrorCode | undefined =>
    typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
  const mapError = (error: unknown, syscall: string): HostError => {
    if (error instanceof HostError) return error;
    const flag = missingPermissionFlag(error);
    if (flag !== undefined) return new HostError("EACCES", syscall, error, flag);
    const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
    return new HostError(lookup(code) ?? lookup(name) ?? "EIO", syscall, error);
  };
  return {
    mapError,
    call: async <T>(syscall: string, operation: () => Promise<T>): Promise<T> => {
      try {
        return await operation();
      } catch (error) {
        throw mapError(error, syscall);
      }
    },
    callSync: <T>(syscall: string, operation: () => T): Promise<T> => {
      try {
        return Promise.resolve(operation());
      } catch (error) {
        return Promise.reject(mapError(error, syscall));
      }
    },
  };
}
