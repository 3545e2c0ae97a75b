// A SIGKILL of a child's process group that also reaches the descendants which left the group: a
// bubblewrap sandbox's inner `bwrap` (the PID namespace's init) runs in a session of its own
// (`--new-session`) and is meant to die with the outer one (`--die-with-parent`); in CI it was seen alive,
// reparented to init, after the outer one was killed (mcp_http "SIGTERM ends every open session").
// Linux only (`/proc/PID/task/TID/children`); elsewhere the group kill alone.
import * as fs from "node:fs";
import process from "node:process";

// Descendants followed at most (a fork bomb is the group kill's to end).
const MAX_DESCENDANTS = 4_096;

/** The pids below `pid` (children, their children, …), read from /proc before anything is killed. */
function descendantsOf(pid: number): number[] {
  if (process.platform !== "linux") return [];
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0 && found.length < MAX_DESCENDANTS) {
    const parent = queue.shift()!;
    let tasks: string[];
    try {
      tasks = fs.readdirSync(`/proc/${parent}/task`);
    } catch {
      continue; // gone
    }
    for (const task of tasks) {
      let text = "";
      try {
        text = fs.readFileSync(`/proc/${parent}/task/${task}/children`, "utf8");
      } catch {
        continue;
      }
      for (const child of text.split(" ")) {
        const number = Number(child);
        if (Number.isInteger(number) && number > 0) {
          found.push(number);
          queue.push(number);
        }
      }
    }
  }
  return found;
}

/**
 * SIGKILLs the process group led by `pid`, and every descendant of `pid` found just before (which may
 * have left the group).
 *
 * @param pid The group's leader (the child spawned detached).
 * @param kill How a signal is sent (`process.kill` or `Deno.kill`); throws for a pid that is gone.
 */
export function killTree(pid: number, kill: (pid: number, signal: "SIGKILL") => void): void {
  const below = descendantsOf(pid);
  try {
    kill(-pid, "SIGKILL");
  } catch {
    // The group is gone already.
  }
  for (const descendant of below) {
    try {
      kill(descendant, "SIGKILL");
    } catch {
      // Gone already.
    }
  }
}
