import { journalOf } from "./change_journal.ts";
import type { Workspace } from "./workspace.ts";

/** A point in a workspace's change journal, made by {@link checkpoint}; {@link restore} goes back to it. */
export interface Checkpoint {
  /** The journal sequence number of the first change after the point. */
  readonly sequence: number;
  /** When it was made, in milliseconds since the epoch (for people). */
  readonly createdAt: number;
}

// Checkpoints made here, with the workspace they belong to.
const owners = new WeakMap<Checkpoint, Workspace>();

/**
 * Marks a point in the workspace's change journal. Every change a tool makes
 * afterwards (write, edit, delete, move, folder creation) can be taken back by
 * {@link restore}, and so can what a command (`shell`, `node_process`)
 * changed in the workspace (see command_capture.ts).
 *
 * @param workspace The workspace.
 * @returns The checkpoint.
 *
 * @example Trying a change and taking it back
 * ```ts
 * import { checkpoint, createCodingTools, openWorkspace, restore } from "@paddock/tools";
 * const workspace = await openWorkspace("./project");
 * const tools = createCodingTools(workspace);
 * const before = checkpoint(workspace);
 * await tools.find((tool) => tool.name === "write_file")?.execute({ path: "notes.md", content: "draft\n" });
 * const result = await restore(workspace, before); // notes.md is gone again
 * result.changes; // [{ path: "notes.md", change: "write", status: "restored" }]
 * ```
 */
export function checkpoint(workspace: Workspace): Checkpoint {
  const point: Checkpoint = Object.freeze({ sequence: journalOf(workspace).nextSeq, createdAt: Date.now() });
  owners.set(point, workspace);
  return point;
}

/** The workspace a checkpoint was made on (`undefined` for one not made by {@link checkpoint}). */
export function checkpointOwner(point: Checkpoint): Workspace | undefined {
  return owners.get(point);
}
