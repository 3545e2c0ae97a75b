/**
 * What each tool does in a race attempt, and what must hold after it: the
 * arguments, how the workspace is made ready between attempts (while the
 * adversary is paused), and the judgement of the inside files.
 *
 * @module
 */
import type { AnyTool, CodingToolsOptions } from "../../mod.ts";
import {
  fContent,
  type FoundFile,
  INSIDE,
  INSIDE_FILES,
  insideFiles,
  MARKER,
  type RaceFixture,
} from "./race_fixture.ts";

/** What carries over from one attempt to the next. */
export interface AttemptState {
  /** The state `g/d/f.txt` is in (write_file and edit_file flip it). */
  f: "A" | "B";
}

/** What is wrong with the inside files after an attempt. */
export interface InsideProblems {
  /** Inside files gone (not deleted by the tool's own request). */
  lost: string[];
  /** Inside files whose content is neither the old nor the new version. */
  halfWritten: string[];
  /** Inside files holding outside bytes (the marker). */
  outsideBytes: string[];
}

/** One row of the race: a tool and what it is asked to do. */
export interface ToolCase {
  /** The row's name (the tool's name, or the tool and a variant). */
  row: string;
  /** The tool's name in `createCodingTools`. */
  tool: string;
  /** Options for `createCodingTools`, when the row needs the tool set up differently. @default {} */
  codingTools?: CodingToolsOptions;
  /** The workspace-relative name the adversary swaps at level `file`. */
  target: string;
  /** The arguments of one attempt. */
  args(state: AttemptState): Record<string, unknown>;
  /** Makes the workspace ready for the next attempt (raw operations, adversary paused). */
  prepare(fixture: RaceFixture): void;
  /**
   * Tool calls made before the attempt, with the adversary paused (the change a `restore` row takes back).
   * @default none
   */
  setUp?(tools: readonly AnyTool[], state: AttemptState): Promise<void>;
  /** Which inside files this tool may legitimately remove or rewrite, and how. */
  allowed(state: AttemptState): { mayVanish: string[]; fVersions: string[] };
  /** The state after an attempt, from the file actually there. */
  next(state: AttemptState, fixture: RaceFixture): AttemptState;
}

const other = (state: AttemptState["f"]): AttemptState["f"] => (state === "A" ? "B" : "A");
const unchanged = (state: AttemptState): AttemptState => state;
const nothingToPrepare = (): void => {};
const readOnly = (state: AttemptState) => ({ mayVanish: [], fVersions: [fContent(state.f)] });

/** After write_file or edit_file: the state of the file now at `ws/g/d/f.txt`, if it is a known version. */
function fStateNow(state: AttemptState, fixture: RaceFixture): AttemptState {
  const at = `${fixture.ws}/g/d/f.txt`;
  if (fixture.fs.lstat(at)?.kind !== "file") return state;
  const text = new TextDecoder().decode(fixture.fs.readFile(at));
  if (text === fContent("A")) return { f: "A" };
  if (text === fContent("B")) return { f: "B" };
  return state;
}

function ensureFile(fixture: RaceFixture, relative: string): void {
  const at = `${fixture.ws}/${relative}`;
  const folder = at.slice(0, at.lastIndexOf("/"));
  if (fixture.fs.lstat(folder) === null) fixture.fs.mkdir(folder);
  if (fixture.fs.lstat(at) === null) fixture.fs.writeFile(at, INSIDE_FILES[relative]);
}

/** Runs one of the session's tools, ignoring a refusal (the attempt then has an older change, or none, to take back). */
async function call(tools: readonly AnyTool[], name: string, args: Record<string, unknown>): Promise<void> {
  await tools.find((tool) => tool.name === name)?.execute(args).catch(() => {});
}

/** The rows of the race, in report order. */
export const TOOL_CASES: readonly ToolCase[] = [
  {
    row: "read_file",
    tool: "read_file",
    target: "g/d/f.txt",
    args: () => ({ path: "g/d/f.txt" }),
    prepare: nothingToPrepare,
    allowed: readOnly,
    next: unchanged,
  },
  {
    row: "write_file",
    tool: "write_file",
    target: "g/d/f.txt",
    args: (state) => ({ path: "g/d/f.txt", content: fContent(other(state.f)) }),
    prepare: nothingToPrepare,
    allowed: (state) => ({ mayVanish: [], fVersions: [fContent(state.f), fContent(other(state.f))] }),
    next: fStateNow,
  },
  {
    row: "edit_file",
    tool: "edit_file",
    target: "g/d/f.txt",
    args: (state) => ({ path: "g/d/f.txt", old_string: `state=${state.f}`, new_string: `state=${other(state.f)}` }),
    prepare: nothingToPrepare,
    allowed: (state) => ({ mayVanish: [], fVersions: [fContent(state.f), fContent(other(state.f))] }),
    next: fStateNow,
  },
  {
    row: "apply_patch",
    tool: "apply_patch",
    target: "g/d/f.txt",
    args: (state) => ({
      patch: `*** Begin Patch\n*** Update File: g/d/f.txt\n@@\n ${INSIDE} f.txt\n-state=${state.f}\n+state=${
        other(state.f)
      }\n*** End Patch\n`,
    }),
    prepare: nothingToPrepare,
    allowed: (state) => ({ mayVanish: [], fVersions: [fContent(state.f), fContent(other(state.f))] }),
    next: fStateNow,
  },
  {
    // A patch that adds one file and deletes another: the swapped name is the one deleted.
    row: "apply_patch (add+delete)",
    tool: "apply_patch",
    target: "g/d/victim.txt",
    args: () => ({
      patch:
        `*** Begin Patch\n*** Add File: g/d/added.txt\n+${INSIDE} added\n*** Delete File: g/d/victim.txt\n*** End Patch\n`,
    }),
    prepare: (fixture) => {
      ensureFile(fixture, "g/d/victim.txt");
      const added = `${fixture.ws}/g/d/added.txt`;
      if (fixture.fs.lstat(added)?.kind === "file") fixture.fs.unlink(added);
    },
    allowed: (state) => ({ mayVanish: ["g/d/victim.txt"], fVersions: [fContent(state.f)] }),
    next: unchanged,
  },
  {
    // A pure move in a patch: the new file is written, the old one removed.
    row: "apply_patch (move)",
    tool: "apply_patch",
    target: "g/d/m.txt",
    args: () => ({ patch: "*** Begin Patch\n*** Update File: g/d/m.txt\n*** Move to: g/d/m2.txt\n*** End Patch\n" }),
    prepare: (fixture) => {
      const moved = `${fixture.ws}/g/d/m2.txt`;
      const home = `${fixture.ws}/g/d/m.txt`;
      if (fixture.fs.lstat(moved)?.kind === "file" && fixture.fs.lstat(home) === null) fixture.fs.rename(moved, home);
      else if (fixture.fs.lstat(moved)?.kind === "file") fixture.fs.unlink(moved);
    },
    allowed: readOnly,
    next: unchanged,
  },
  {
    row: "create_directory",
    tool: "create_directory",
    target: "g/d/newdir",
    args: () => ({ path: "g/d/newdir" }),
    prepare: (fixture) => {
      const at = `${fixture.ws}/g/d/newdir`;
      if (fixture.fs.lstat(at)?.kind === "directory") fixture.fs.rmdir(at);
    },
    allowed: readOnly,
    next: unchanged,
  },
  {
    row: "delete_path",
    tool: "delete_path",
    target: "g/d/victim.txt",
    args: () => ({ path: "g/d/victim.txt" }),
    prepare: (fixture) => ensureFile(fixture, "g/d/victim.txt"),
    allowed: (state) => ({ mayVanish: ["g/d/victim.txt"], fVersions: [fContent(state.f)] }),
    next: unchanged,
  },
  {
    row: "delete_path -r",
    tool: "delete_path",
    target: "g/d/victim-dir",
    args: () => ({ path: "g/d/victim-dir", recursive: true }),
    prepare: (fixture) => ensureFile(fixture, "g/d/victim-dir/x.txt"),
    allowed: (state) => ({ mayVanish: ["g/d/victim-dir/x.txt"], fVersions: [fContent(state.f)] }),
    next: unchanged,
  },
  {
    row: "move_path",
    tool: "move_path",
    target: "g/d/m.txt",
    args: () => ({ source: "g/d/m.txt", destination: "g/d/m2.txt" }),
    prepare: (fixture) => {
      const moved = `${fixture.ws}/g/d/m2.txt`;
      const home = `${fixture.ws}/g/d/m.txt`;
      if (fixture.fs.lstat(moved)?.kind === "file" && fixture.fs.lstat(home) === null) fixture.fs.rename(moved, home);
    },
    allowed: readOnly,
    next: unchanged,
  },
  {
    // undo_last_change (restore) taking back a write_file of f.txt: the old
    // bytes go back through the atomic write, at the folder the walk holds.
    row: "restore",
    tool: "undo_last_change",
    target: "g/d/f.txt",
    args: () => ({}),
    setUp: (tools, state) => call(tools, "write_file", { path: "g/d/f.txt", content: fContent(other(state.f)) }),
    prepare: nothingToPrepare,
    allowed: (state) => ({ mayVanish: [], fVersions: [fContent(state.f), fContent(other(state.f))] }),
    next: fStateNow,
  },
  {
    // undo_last_change taking back a delete_path: the file is recreated (exclusive atomic write).
    row: "restore (deleted)",
    tool: "undo_last_change",
    target: "g/d/victim.txt",
    args: () => ({}),
    setUp: (tools) => call(tools, "delete_path", { path: "g/d/victim.txt" }),
    prepare: (fixture) => ensureFile(fixture, "g/d/victim.txt"),
    allowed: (state) => ({ mayVanish: ["g/d/victim.txt"], fVersions: [fContent(state.f)] }),
    next: unchanged,
  },
  {
    row: "list_directory",
    tool: "list_directory",
    target: "g/d/f.txt",
    args: () => ({ path: "g/d" }),
    prepare: nothingToPrepare,
    allowed: readOnly,
    next: unchanged,
  },
  {
    row: "find_files",
    tool: "find_files",
    target: "g/d/f.txt",
    args: () => ({ pattern: "**/*.txt" }),
    prepare: nothingToPrepare,
    allowed: readOnly,
    next: unchanged,
  },
  {
    row: "grep",
    tool: "grep",
    target: "g/d/f.txt",
    args: () => ({ pattern: `${INSIDE}|OUTSIDE-SECRET` }),
    prepare: nothingToPrepare,
    allowed: readOnly,
    next: unchanged,
  },
  {
    // The same search with every file searched on grep's worker threads (which
    // open names at the folders the walk holds), not in the calling thread.
    row: "grep (threads)",
    tool: "grep",
    codingTools: { grep: { threadsAfterFiles: 0 } },
    target: "g/d/f.txt",
    args: () => ({ pattern: `${INSIDE}|OUTSIDE-SECRET` }),
    prepare: nothingToPrepare,
    allowed: readOnly,
    next: unchanged,
  },
];

const firstLine = (text: string): string => text.slice(0, text.indexOf("\n") + 1);

/**
 * Judges the inside files after an attempt, wherever the adversary's
 * exchange left them (matched by their first line, which names them): every
 * inside file is still there (unless the tool was asked to remove it), each
 * holds exactly one allowed version, and none holds outside bytes.
 * Leftover temp files are counted elsewhere and left out here.
 */
export function judgeInside(
  fixture: RaceFixture,
  allowed: { mayVanish: string[]; fVersions: string[] },
): InsideProblems {
  const files: FoundFile[] = insideFiles(fixture).filter((file) => !/(^|\/)\.paddock-tmp-/.test(file.at));
  const problems: InsideProblems = { lost: [], halfWritten: [], outsideBytes: [] };
  for (const file of files) if (file.content.includes(MARKER)) problems.outsideBytes.push(file.at);
  for (const [relative, content] of Object.entries(INSIDE_FILES)) {
    const versions = relative === "g/d/f.txt" ? allowed.fVersions : [content];
    const tag = firstLine(content);
    const copies = files.filter((file) => file.content.startsWith(tag));
    if (copies.length === 0 && !allowed.mayVanish.includes(relative)) problems.lost.push(relative);
    for (const copy of copies) if (!versions.includes(copy.content)) problems.halfWritten.push(copy.at);
  }
  return problems;
}

/** Whether the inside files are exactly the fixture's, in their places (f.txt in state `f`): else rebuild. */
export function insideAsBuilt(fixture: RaceFixture, state: AttemptState): boolean {
  const files = insideFiles(fixture);
  const expected = Object.entries({ ...INSIDE_FILES, "g/d/f.txt": fContent(state.f) });
  if (files.length !== expected.length) return false;
  const byPlace = new Map(files.map((file) => [file.at, file.content]));
  return expected.every(([relative, content]) => byPlace.get(`ws/${relative}`) === content) &&
    fixture.fs.lstat(`${fixture.ws}/g/d/newdir`) === null && fixture.fs.lstat(`${fixture.ws}/g/d/m2.txt`) === null;
}
