// The one rename of move_path, confirmed on the paths route.
import { randomSuffix, TEMP_FILE_PREFIX } from "../core/fs/atomic_write.ts";
import { holdTransientName, targetKey } from "../core/fs/run_in_target_queue.ts";
import { stillNamesObject } from "../core/fs/still_names_object.ts";
import type { Resolved, Workspace } from "../core/fs/workspace.ts";
import type { HostStat } from "../host.ts";
import type { Fail } from "./_move_failure.ts";

/**
 * The one rename of a move. At held folders (`handles`): `rename` from one to
 * the other. On the `paths` route, where a folder above either end can be
 * swapped between the last check and the rename, it goes in two confirmed
 * steps through a random name beside the source: (1) source → aside, then the
 * source's chain and the aside entry are confirmed, else it is renamed back;
 * (2) aside → destination, then the destination's chain and the moved entry are
 * confirmed, else it is renamed back to the source. A swap before a step is
 * undone by the same paths (nothing outside keeps a new name or loses one); a
 * swap after a step leaves the entry inside, in the folder that was moved.
 */
export async function renameConfirmed(
  workspace: Workspace,
  source: Resolved,
  to: Resolved,
  stat: HostStat,
  fail: Fail,
): Promise<void> {
  if (source.folder.handle !== null && to.folder.handle !== null) {
    await workspace.host.rename(source.hostPath, to.hostPath);
    return;
  }
  const changed = () => fail("PATH_CHANGED", "a folder changed while the entry was moved");
  const asideName = `${TEMP_FILE_PREFIX}move-${randomSuffix()}`;
  const aside = workspace.childPath(source.folder, asideName);
  // A recursive delete of this process leaves the aside to this move.
  const letAsideGo = holdTransientName(targetKey(source.folder, asideName));
  try {
    await moveThroughAside(workspace, source, to, stat, aside, changed);
  } finally {
    letAsideGo();
  }
}

async function moveThroughAside(
  workspace: Workspace,
  source: Resolved,
  to: Resolved,
  stat: HostStat,
  aside: string,
  changed: () => unknown,
): Promise<void> {
  await workspace.host.rename(source.hostPath, aside);
  try {
    await workspace.confirm(source.folder);
    if (!(await stillNamesObject(workspace.host, aside, stat, stat.kind))) throw changed();
  } catch (error) {
    await workspace.host.rename(aside, source.hostPath).catch(() => {});
    throw error;
  }
  await workspace.host.rename(aside, to.hostPath).catch(async (error) => {
    await workspace.host.rename(aside, source.hostPath).catch(() => {});
    throw error;
  });
  try {
    await workspace.confirm(to.folder);
    if (!(await stillNamesObject(workspace.host, to.hostPath, stat, stat.kind))) throw changed();
  } catch (error) {
    await workspace.host.rename(to.hostPath, aside).then(() => workspace.host.rename(aside, source.hostPath)).catch(
      () => {},
    );
    throw error;
  }
}
