import type { EntryKind, Host } from "../../host.ts";
import { type Identity, sameIdentity } from "./same_identity.ts";

/**
 * Whether `path` still names the object a check saw: an lstat (never
 * following a final link) finds the same identity and, when `kind` is given,
 * the same kind. A path that is gone or cannot be examined is not the same.
 * Each caller says what a `false` means (usually `PATH_CHANGED`).
 *
 * @param host The host.
 * @param path The host path to look at.
 * @param identity The identity seen earlier.
 * @param kind The kind seen earlier, when it must match too.
 * @returns Whether the path still names that object.
 */
export async function stillNamesObject(
  host: Host,
  path: string,
  identity: Identity,
  kind?: EntryKind,
): Promise<boolean> {
  const now = await host.lstat(path).catch(() => null);
  return now !== null && sameIdentity(now, identity) && (kind === undefined || now.kind === kind);
}
