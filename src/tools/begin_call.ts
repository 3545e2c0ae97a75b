import { throwIfAborted } from "../core/errors.ts";
import type { Workspace } from "../core/fs/workspace.ts";

/**
 * The first steps of a call on one workspace path: open (or take) the
 * workspace, name the path for messages, stop if aborted, and check that the
 * root is still the folder that was opened.
 *
 * @param getWorkspace The tool's workspace getter.
 * @param segments The normalized path.
 * @param signal The call's abort signal.
 * @returns The workspace and the path as shown in results and errors (`.` for the root).
 */
export async function beginCall(
  getWorkspace: () => Promise<Workspace>,
  segments: readonly string[],
  signal: AbortSignal | undefined,
): Promise<{ workspace: Workspace; display: string }> {
  const workspace = await getWorkspace();
  const display = segments.join("/") || ".";
  throwIfAborted(signal);
  await workspace.checkRoot();
  return { workspace, display };
}
