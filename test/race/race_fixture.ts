/**
 * The race fixture: a base folder holding
 *
 * ```
 * ws/                      the workspace
 *   top.txt  g/g.txt  g/d/f.txt  g/d/victim.txt  g/d/victim-dir/x.txt  g/d/m.txt
 * outside/                 the same shape, every file holding the marker, plus
 *   <MARKER>-root.txt  g/<MARKER>-g.txt  g/d/<MARKER>-d.txt   (names holding it)
 * swap/link                the link the adversary exchanges with one level:
 *   file         ws/<target>  ⇄  link → outside/<target>
 *   parent       ws/g/d       ⇄  link → outside/g/d
 *   grandparent  ws/g         ⇄  link → outside/g
 *   root         ws           ⇄  link → outside
 * ```
 *
 * plus the helpers that judge an attempt: a full listing of `outside/`
 * (names, kinds, sizes, modes, content hashes, link targets, folder mtimes)
 * to diff before and after, a scan for `.paddock-tmp-*` anywhere below the
 * base, and the inside files wherever the swap has put them.
 *
 * @module
 */
import { createHash, randomBytes } from "node:crypto";
import type { FixtureFs } from "./fixture_fs.ts";

/** Where the adversary swaps: the target itself, its folder, that folder's parent, or the workspace root. */
export type Level = "file" | "parent" | "grandparent" | "root";

/** Every swap level, innermost first. */
export const LEVELS: readonly Level[] = ["file", "parent", "grandparent", "root"];

/** A text found only outside the workspace: in outside file contents and in outside names. */
export const MARKER = `OUTSIDE-SECRET-${randomBytes(6).toString("hex")}`;

/** Every inside file's first line starts with this; the rest of the line names the file. */
export const INSIDE = "INSIDE";

/** Padding so written files take more than one small write (a half-written file would show). */
const FILLER = `${"inside filler line, no secret here\n".repeat(120)}`;

/** The content of the inside `g/d/f.txt` in state `A` or `B` (write_file and edit_file flip it). */
export const fContent = (state: "A" | "B"): string => `${INSIDE} f.txt\nstate=${state}\n${FILLER}`;

/** The inside files and their first content (f.txt's is {@link fContent}). */
export const INSIDE_FILES: Readonly<Record<string, string>> = {
  "top.txt": `${INSIDE} top.txt\n`,
  "g/g.txt": `${INSIDE} g/g.txt\n`,
  "g/d/f.txt": fContent("A"),
  "g/d/victim.txt": `${INSIDE} g/d/victim.txt\n`,
  "g/d/victim-dir/x.txt": `${INSIDE} g/d/victim-dir/x.txt\n`,
  "g/d/m.txt": `${INSIDE} g/d/m.txt\n`,
};

/** The outside files: the same names (holding the marker, and f.txt both edit states), and names holding it. */
export const OUTSIDE_FILES: Readonly<Record<string, string>> = {
  "top.txt": `${MARKER} top.txt\n`,
  [`${MARKER}-root.txt`]: `${MARKER} root\n`,
  "g/g.txt": `${MARKER} g/g.txt\n`,
  [`g/${MARKER}-g.txt`]: `${MARKER} g\n`,
  "g/d/f.txt": `${MARKER} f.txt\nstate=A\nstate=B\n${FILLER}`,
  "g/d/victim.txt": `${MARKER} g/d/victim.txt\n`,
  "g/d/victim-dir/x.txt": `${MARKER} g/d/victim-dir/x.txt\n`,
  "g/d/m.txt": `${MARKER} g/d/m.txt\n`,
  [`g/d/${MARKER}-d.txt`]: `${MARKER} d\n`,
};

/** One built fixture for one swap level. */
export interface RaceFixture {
  readonly fs: FixtureFs;
  readonly base: string;
  readonly ws: string;
  readonly outside: string;
  /** The adversary's link, at `swap/link`. */
  readonly link: string;
  readonly level: Level;
  /** The workspace-relative name swapped at level `file`. */
  readonly target: string;
  /** The two names the adversary exchanges: the workspace side, then the link. */
  readonly pair: readonly [string, string];
  /** The link's target. */
  readonly linkTarget: string;
}

/** The workspace-relative path swapped at `level`, for a tool whose file-level target is `target`. */
export function levelPath(level: Level, target: string): string {
  switch (level) {
    case "file":
      return target;
    case "parent":
      return "g/d";
    case "grandparent":
      return "g";
    case "root":
      return "";
  }
}

/** Describes (does not build) the fixture at `base` for `level`. */
export function describeFixture(fs: FixtureFs, base: string, level: Level, target: string): RaceFixture {
  const ws = `${base}/ws`;
  const outside = `${base}/outside`;
  const link = `${base}/swap/link`;
  const relative = levelPath(level, target);
  return {
    fs,
    base,
    ws,
    outside,
    link,
    level,
    target,
    pair: [relative === "" ? ws : `${ws}/${relative}`, link],
    linkTarget: relative === "" ? outside : `${outside}/${relative}`,
  };
}

function writeFiles(fs: FixtureFs, root: string, files: Readonly<Record<string, string>>): void {
  fs.mkdir(root);
  for (const [relative, content] of Object.entries(files)) {
    const parts = relative.split("/");
    for (let i = 1; i < parts.length; i++) {
      const folder = `${root}/${parts.slice(0, i).join("/")}`;
      if (fs.lstat(folder) === null) fs.mkdir(folder);
    }
    fs.writeFile(`${root}/${relative}`, content);
  }
}

/**
 * (Re)builds the fixture: removes `ws/`, `outside/` and `swap/` and writes
 * them afresh; `g/d/f.txt` gets `fText`.
 */
export function buildFixture(fixture: RaceFixture, fText: string = fContent("A")): void {
  const { fs } = fixture;
  for (const folder of ["ws", "outside", "swap"]) fs.removeTree(`${fixture.base}/${folder}`);
  writeFiles(fs, fixture.ws, { ...INSIDE_FILES, "g/d/f.txt": fText });
  writeFiles(fs, fixture.outside, OUTSIDE_FILES);
  fs.mkdir(`${fixture.base}/swap`);
  fs.symlink(fixture.linkTarget, fixture.link);
}

/** One entry of a listing. */
export interface EntrySnapshot {
  kind: string;
  size: number;
  mode: number;
  /** Files: a hash of the content. Links: the target. Folders: the mtime (a name made and removed shows there). */
  detail: string;
}

/** A full recursive listing, relative names to entries, never following a link. */
export type TreeSnapshot = Map<string, EntrySnapshot>;

/** Lists everything below `root` (names, kinds, sizes, modes, content hashes, link targets, folder mtimes). */
export function snapshotTree(fs: FixtureFs, root: string): TreeSnapshot {
  const out: TreeSnapshot = new Map();
  const walk = (relative: string) => {
    const at = relative === "" ? root : `${root}/${relative}`;
    const stat = fs.lstat(at);
    if (stat === null) return;
    let detail = "";
    if (stat.kind === "file") detail = createHash("sha256").update(fs.readFile(at)).digest("hex");
    else if (stat.kind === "symlink") detail = fs.readlink(at);
    else if (stat.kind === "directory") detail = `mtime ${stat.mtimeMs}`;
    out.set(relative, { kind: stat.kind, size: stat.kind === "directory" ? 0 : stat.size, mode: stat.mode, detail });
    if (stat.kind === "directory") {
      for (const name of fs.readdir(at).sort()) walk(relative === "" ? name : `${relative}/${name}`);
    }
  };
  walk("");
  return out;
}

/** What changed between two listings. */
export interface TreeDiff {
  created: string[];
  deleted: string[];
  /** Kind, size, mode, content or link target differ. */
  changed: string[];
  /** Folders whose listing is the same but whose mtime moved: something was made there and removed again. */
  touched: string[];
}

/** Compares two listings of the same tree. */
export function diffTrees(before: TreeSnapshot, after: TreeSnapshot): TreeDiff {
  const diff: TreeDiff = { created: [], deleted: [], changed: [], touched: [] };
  for (const [name, entry] of after) {
    const old = before.get(name);
    if (old === undefined) diff.created.push(name);
    else if (old.kind !== entry.kind || old.size !== entry.size || old.mode !== entry.mode) diff.changed.push(name);
    else if (old.detail !== entry.detail) (entry.kind === "directory" ? diff.touched : diff.changed).push(name);
  }
  for (const name of before.keys()) if (!after.has(name)) diff.deleted.push(name);
  return diff;
}

/** Whether a diff is empty. */
export const noDifference = (diff: TreeDiff): boolean =>
  diff.created.length + diff.deleted.length + diff.changed.length + diff.touched.length === 0;

/** Paths (relative to the base) of every `.paddock-tmp-*` entry anywhere below the fixture's base. */
export function tempFiles(fixture: RaceFixture): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    const at = relative === "" ? fixture.base : `${fixture.base}/${relative}`;
    const stat = fixture.fs.lstat(at);
    if (stat?.kind !== "directory") return;
    for (const name of fixture.fs.readdir(at)) {
      const child = relative === "" ? name : `${relative}/${name}`;
      if (name.startsWith(".paddock-tmp-")) found.push(child);
      walk(child);
    }
  };
  walk("");
  return found;
}

/** An inside file as found: its path below the base and its content. */
export interface FoundFile {
  at: string;
  content: string;
}

/**
 * Every regular file of the inside world: below `ws/`, and below the link's
 * place when the adversary's exchange left an inside object there (a tool
 * replaced or moved the link that was swapped in). Links are not followed.
 */
export function insideFiles(fixture: RaceFixture): FoundFile[] {
  const found: FoundFile[] = [];
  const decoder = new TextDecoder();
  const walk = (at: string, shown: string) => {
    const stat = fixture.fs.lstat(at);
    if (stat === null) return;
    if (stat.kind === "file") found.push({ at: shown, content: decoder.decode(fixture.fs.readFile(at)) });
    else if (stat.kind === "directory") {
      for (const name of fixture.fs.readdir(at)) walk(`${at}/${name}`, `${shown}/${name}`);
    }
  };
  walk(fixture.ws, "ws");
  walk(fixture.link, "swap/link");
  return found;
}

/** Whether the pair is as built: the workspace side is not a link (or is absent), the link is the link. */
export function pairIntact(fixture: RaceFixture): boolean {
  const link = fixture.fs.lstat(fixture.link);
  if (link?.kind !== "symlink" || fixture.fs.readlink(fixture.link) !== fixture.linkTarget) return false;
  const inside = fixture.fs.lstat(fixture.pair[0]);
  return inside === null || inside.kind !== "symlink";
}
