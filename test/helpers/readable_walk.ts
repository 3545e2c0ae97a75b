// The walk of test/sandbox_readable.test.ts: inside a sandbox, as its user, every visible path is tried
// (files opened for reading, folders listed); on the host each one that opened but that the mode bits
// seen inside do not open to every user is judged again as `nobody` (uid and gid 65534) would be.
import * as fs from "node:fs";
import * as path from "node:path";
import { runtime } from "./runtime.ts";
import { sh } from "./sandbox.ts";

/**
 * Run inside: `walker.cjs <skip>...` walks `/` without following links, skipping the given folders and
 * whatever is below them, and prints one JSON line: counts and the candidates (opened or listed, though
 * some folder on the way or the entry itself lacks the bits for other users: o+x, o+r, o+rx). Owners are
 * not judged inside (a user namespace shows unmapped owners as 65534): the host does that.
 */
export const WALKER_SOURCE = `"use strict";
const fs = require("node:fs");
const skip = new Set(process.argv.slice(-Number(process.env.SKIPS)));
const counts = { walked: 0, opened: 0, listed: 0, rootDev: fs.statSync("/").dev, tmpDev: fs.statSync("/tmp").dev };
const candidates = [];
const stack = [["/", true]];
while (stack.length > 0) {
  const [dir, othersReach] = stack.pop();
  let names;
  try { names = fs.readdirSync(dir); } catch { continue; }
  for (const name of names) {
    const full = dir === "/" ? "/" + name : dir + "/" + name;
    if (skip.has(full)) continue;
    let stat;
    try { stat = fs.lstatSync(full); } catch { continue; }
    counts.walked++;
    if (stat.isSymbolicLink()) continue;
    if (stat.isDirectory()) {
      let listed = true;
      try { fs.readdirSync(full); } catch { listed = false; }
      const reach = othersReach && (stat.mode & 0o001) !== 0;
      if (listed) {
        counts.listed++;
        if (!othersReach || (stat.mode & 0o005) !== 0o005) candidates.push({ path: full, folder: true, dev: stat.dev });
      }
      stack.push([full, reach]);
      continue;
    }
    let fd;
    try { fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK); } catch { continue; }
    fs.closeSync(fd);
    counts.opened++;
    if (!othersReach || (stat.mode & 0o004) === 0) candidates.push({ path: full, folder: false, dev: stat.dev });
  }
}
console.log(JSON.stringify({ ...counts, candidates }));
`;

/** The folders the walk never enters: the kernel's, and the workspace (shown on purpose). */
export function walkSkips(workspace: string): string[] {
  return ["/proc", "/sys", "/dev", workspace];
}

/** Writes the walker into `dir` and returns the command line running it with `runtimePath`. */
export function walkerCommand(dir: string, runtimePath: string, skips: readonly string[]): string {
  fs.writeFileSync(path.join(dir, "walker.cjs"), WALKER_SOURCE);
  const exe = sh(runtimePath);
  const launcher = runtime === "deno" && runtimePath === process.execPath
    ? `${exe} run -A --no-config --no-lock --cached-only`
    : exe;
  return `SKIPS=${skips.length} ${launcher} walker.cjs ${skips.map(sh).join(" ")}`;
}

/** What one walk printed. */
export interface WalkReport {
  walked: number;
  opened: number;
  listed: number;
  /** The device of `/` inside (a container's image). */
  rootDev: number;
  /** The device of `/tmp` inside. */
  tmpDev: number;
  candidates: Array<{ path: string; folder: boolean; dev: number }>;
}

const NOBODY = 65_534;

/** The permission bits `nobody` gets on `stat`: owner's, group's or others' (as DAC picks them). */
function nobodyBits(stat: fs.Stats): number {
  if (stat.uid === NOBODY) return (stat.mode >> 6) & 0o7;
  if (stat.gid === NOBODY) return (stat.mode >> 3) & 0o7;
  return stat.mode & 0o7;
}

/**
 * Whether `nobody` could read `file` on the host (a folder: list and enter it): every folder on the way
 * lets it through (x), the entry lets it read (r, and x for a folder). `undefined` for an entry missing
 * on the host: not the host's (the sandbox's own `/tmp`).
 */
export function nobodyCanRead(file: string, folder: boolean): boolean | undefined {
  let at: string;
  try {
    at = path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
  } catch {
    return undefined;
  }
  const stat = fs.lstatSync(at, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  for (let dir = path.dirname(at);; dir = path.dirname(dir)) {
    if ((nobodyBits(fs.statSync(dir)) & 0o1) === 0) return false;
    if (dir === path.dirname(dir)) break;
  }
  const need = folder ? 0o5 : 0o4;
  return (nobodyBits(stat) & need) === need;
}

/** Parses the walker's line. */
export function parseWalk(stdout: string, stderr = ""): WalkReport {
  const report = JSON.parse(stdout.trim().split("\n").at(-1) || "{}") as Partial<WalkReport>;
  if (!Array.isArray(report.candidates)) {
    throw new Error(`the walk printed no report: ${stdout.slice(-500)} ${stderr.slice(-500)}`);
  }
  return report as WalkReport;
}

/** The name of a candidate in a report: folders end in `/`. */
export function shown(entry: { path: string; folder: boolean }): string {
  return entry.folder ? `${entry.path}/` : entry.path;
}

/**
 * A bubblewrap walk judged on the host: `mismatches` opened inside though `nobody` may not read them on
 * the host; `own` are not the host's: on bwrap's own root and `/tmp` (tmpfs), such as the folders bwrap
 * makes to hold a bind (the fixture's parent), or missing on the host; or among `shownOnPurpose` (what the
 * sandbox binds whatever its host modes: the runtime).
 */
export function judgeHostWalk(
  report: WalkReport,
  shownOnPurpose: readonly string[] = [],
): { mismatches: string[]; own: string[] } {
  const ownDevs = new Set([report.rootDev, report.tmpDev]);
  const verdicts = report.candidates.map((entry) => ({
    entry,
    nobody: ownDevs.has(entry.dev) || shownOnPurpose.includes(entry.path)
      ? undefined
      : nobodyCanRead(entry.path, entry.folder),
  }));
  return {
    mismatches: verdicts.filter((v) => v.nobody === false).map((v) => shown(v.entry)),
    own: verdicts.filter((v) => v.nobody === undefined).map((v) => shown(v.entry)),
  };
}
