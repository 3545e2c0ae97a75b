/**
 * A quick, conservative test of whether any rule of one `.gitignore` can
 * match a path, so that most entries of a walk skip the full rule scan (a
 * regular expression per rule: the kernel's top `.gitignore` has about 100).
 *
 * Each rule is read for what a path it matches must contain: every run of
 * literal characters (between wildcards, classes and `/`), a run it starts or
 * ends with at the start or end of one segment (a rule without a `/` matches a
 * name at any depth, or a folder above it), and for a rule anchored to its
 * folder (a `/` at its start or in its middle) the run it starts with at the
 * start of the path. A path that fails every rule's test matches no rule, so
 * the rules can have no opinion about it; a rule that cannot be read this way
 * (a class before anything else, a trailing backslash) makes the test always
 * pass. Case-sensitive, as the rules are.
 *
 * @module
 */

/**
 * Whether a path (relative to the rules' folder, without a trailing `/`) may
 * match a rule; {@link IgnorePrefilter.root} asks the same of the names of
 * one folder, with the folders above them worked out once, as the walk enters them.
 */
export interface IgnorePrefilter {
  (relative: string): boolean;
  /** The test of the names in the rules' own folder. */
  root(): NamePrefilter;
}

/**
 * The prefilter narrowed to one folder: `root().enter("a").enter("b").may(name)`
 * is `prefilter("a/b/" + name)`.
 */
export interface NamePrefilter {
  /** Whether an entry of this folder, by name, may match a rule. */
  may(name: string): boolean;
  /** The same for a subfolder (itself when no rule's needs change). */
  enter(name: string): NamePrefilter;
}

interface RuleTest {
  /** Runs the path must contain. */
  runs: string[];
  /** Run a segment must start with (unanchored) or the path must start with (anchored). */
  first: string | null;
  /** Run a segment must end with (the path or a folder above it, when anchored). */
  last: string | null;
  anchored: boolean;
  /** `/` + first, `last` + `/`: made once. */
  slashThenFirst: string;
  lastThenSlash: string;
}

const WILDCARD = new Set(["*", "?", "["]);

/** What a rule still needs of the segments below a folder. */
interface NameTest {
  runs: readonly string[];
  /** A segment must start with it (with `anchored`, the next one: the path's first). */
  first: string | null;
  /** A segment must end with it (the name, or a folder on the way). */
  last: string | null;
  anchored: boolean;
}

const ALWAYS_NAME: NamePrefilter = { may: () => true, enter: () => ALWAYS_NAME };
const NEVER_NAME: NamePrefilter = { may: () => false, enter: () => NEVER_NAME };
const ALWAYS: IgnorePrefilter = Object.assign(() => true, { root: () => ALWAYS_NAME });
const NEVER: IgnorePrefilter = Object.assign(() => false, { root: () => NEVER_NAME });

/**
 * Builds the prefilter of one `.gitignore` text.
 *
 * @param text The file's text.
 * @returns The prefilter.
 */
export function ignorePrefilter(text: string): IgnorePrefilter {
  const tests: RuleTest[] = [];
  // Lines as git (and the `ignore` package) read them: leading whitespace is part of the rule, a
  // comment starts at the line's first character, and only trailing spaces may be dropped.
  for (const raw of text.split(/\r?\n/)) {
    let line = raw;
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("!")) line = line.slice(1);
    // Trailing whitespace: git drops unescaped spaces and keeps the rest (tabs, NBSP, an escaped
    // space). Dropped here whatever it is, the rule is then read as not ending where it seems to:
    // it asks less of a path, never more.
    const end = /\s+$/.exec(line);
    const openEnd = end !== null;
    if (end !== null) {
      const onlySpaces = /^ +$/.test(end[0]);
      line = line.slice(0, end.index);
      if (line === "" || line.endsWith("\\")) {
        if (onlySpaces && line === "") continue; // a blank line: no rule
        return ALWAYS; // a rule of whitespace, or an escaped one: not read, every path passes
      }
    }
    if (line === "") continue; // a lone "!": no rule
    const test = ruleTest(line, openEnd);
    if (test === null) return ALWAYS;
    tests.push(test);
  }
  if (tests.length === 0) return NEVER;
  // Rules that end in a literal run, by its last character: a path can only match one whose
  // character ends the path or comes just before one of its `/`. The rest are all tried.
  const byLast = new Map<string, RuleTest[]>();
  const others: RuleTest[] = [];
  for (const test of tests) {
    if (test.last === null) others.push(test);
    else {
      const key = test.last[test.last.length - 1];
      byLast.set(key, [...(byLast.get(key) ?? []), test]);
    }
  }
  const anyOf = (bucket: RuleTest[] | undefined, path: string): boolean => {
    if (bucket !== undefined) { for (const test of bucket) if (passes(test, path)) return true; }
    return false;
  };
  const prefilter = (relative: string): boolean => {
    for (const test of others) if (passes(test, relative)) return true;
    if (anyOf(byLast.get(relative[relative.length - 1]), relative)) return true;
    for (let at = relative.indexOf("/"); at > 0; at = relative.indexOf("/", at + 1)) {
      if (anyOf(byLast.get(relative[at - 1]), relative)) return true;
    }
    return false;
  };
  // Every need of a rule is met by one segment (a run holds no `/`), except a run with an escaped
  // `/`, which spans segments: then each name is tested with its whole path.
  const bySegment = tests.every((test) => test.runs.every((run) => !run.includes("/")));
  const root = bySegment
    ? () => new FolderPrefilter(tests.map(({ runs, first, last, anchored }) => ({ runs, first, last, anchored })))
    : () => wholePath(prefilter, "");
  return Object.assign(prefilter, { root });
}

function wholePath(prefilter: (relative: string) => boolean, folder: string): NamePrefilter {
  return {
    may: (name) => prefilter(folder === "" ? name : `${folder}/${name}`),
    enter: (name) => wholePath(prefilter, folder === "" ? name : `${folder}/${name}`),
  };
}

// The rules' needs that the folders on the way have not met; a folder meets a
// need when it is the segment that starts with, ends with or holds the run.
class FolderPrefilter implements NamePrefilter {
  #tests: readonly NameTest[];
  /** Whether a test is still anchored: only in the rules' own folder. */
  #anchored: boolean;
  /** By a character: the tests with a needed run that starts with it (what a folder name can change). */
  #byChar: Map<string, NameTest[]> | null = null;
  /** Tests that need the name to start with a run, by its first character. */
  #byFirst: Map<string, NameTest[]> | null = null;
  /** Tests that need the name to end with a run, by its last character. */
  #byLast: Map<string, NameTest[]> | null = null;
  /** Tests that need only runs somewhere in the name. */
  #runsOnly: NameTest[] = [];

  constructor(tests: readonly NameTest[]) {
    this.#tests = tests;
    this.#anchored = tests.some((test) => test.anchored);
  }

  enter(name: string): NamePrefilter {
    // A folder changes a test only if its name holds one of the test's runs: most hold none.
    if (!this.#anchored && !this.#touches(name)) return this;
    let narrowed: NameTest[] | null = null;
    const tests = this.#tests;
    for (let i = 0; i < tests.length; i++) {
      const test = tests[i];
      const next = narrow(test, name);
      if (next === test && narrowed === null) continue;
      narrowed ??= tests.slice(0, i);
      if (next === "met") return ALWAYS_NAME; // every need met by the folders alone
      if (next !== "never") narrowed.push(next);
    }
    if (narrowed === null) return this;
    return narrowed.length === 0 ? NEVER_NAME : new FolderPrefilter(narrowed);
  }

  may(name: string): boolean {
    if (this.#byLast === null) this.#buildNameIndex();
    const byFirst = this.#byFirst!.get(name[0]);
    if (byFirst !== undefined) { for (const test of byFirst) if (namePasses(test, name)) return true; }
    const byLast = this.#byLast!.get(name[name.length - 1]);
    if (byLast !== undefined) { for (const test of byLast) if (namePasses(test, name)) return true; }
    for (const test of this.#runsOnly) if (namePasses(test, name)) return true;
    return false;
  }

  // Whether a segment named `name` holds a run some test needs.
  #touches(name: string): boolean {
    if (this.#byChar === null) {
      const byChar = new Map<string, NameTest[]>();
      for (const test of this.#tests) {
        const runs = [
          ...test.runs,
          ...(test.first === null ? [] : [test.first]),
          ...(test.last === null ? [] : [test.last]),
        ];
        for (const key of new Set(runs.map((run) => run[0]))) byChar.set(key, [...(byChar.get(key) ?? []), test]);
      }
      this.#byChar = byChar;
    }
    for (let i = 0; i < name.length; i++) {
      const tests = this.#byChar.get(name[i]);
      if (tests === undefined) continue;
      for (const test of tests) if (narrow(test, name) !== test) return true;
    }
    return false;
  }

  #buildNameIndex(): void {
    const byFirst = new Map<string, NameTest[]>();
    const byLast = new Map<string, NameTest[]>();
    for (const test of this.#tests) {
      if (test.last !== null) {
        const key = test.last[test.last.length - 1];
        byLast.set(key, [...(byLast.get(key) ?? []), test]);
      } else if (test.first !== null) byFirst.set(test.first[0], [...(byFirst.get(test.first[0]) ?? []), test]);
      else this.#runsOnly.push(test);
    }
    this.#byFirst = byFirst;
    this.#byLast = byLast;
  }
}

// A rule's needs once a folder named `segment` is on the way: the same object
// when nothing changed, "never" when it can no longer match, "met" when nothing is left.
function narrow(test: NameTest, segment: string): NameTest | "never" | "met" {
  let { first, last, runs } = test;
  if (first !== null) {
    const met = segment.startsWith(first);
    if (test.anchored && !met) return "never"; // the path's first segment is this folder's
    if (met) first = null;
  }
  if (last !== null && segment.endsWith(last)) last = null;
  if (runs.some((run) => segment.includes(run))) runs = runs.filter((run) => !segment.includes(run));
  // Below the first folder an anchored rule's start is settled.
  const anchored = false;
  if (first === test.first && last === test.last && runs === test.runs && anchored === test.anchored) return test;
  if (first === null && last === null && runs.length === 0) return "met";
  return { runs, first, last, anchored };
}

function namePasses(test: NameTest, name: string): boolean {
  if (test.last !== null && !name.endsWith(test.last)) return false;
  if (test.first !== null && !name.startsWith(test.first)) return false;
  for (const run of test.runs) if (!name.includes(run)) return false;
  return true;
}

function passes(test: RuleTest, path: string): boolean {
  const { first, last } = test;
  if (last !== null && !path.endsWith(last) && !path.includes(test.lastThenSlash)) return false;
  if (first !== null) {
    if (test.anchored ? !path.startsWith(first) : !path.startsWith(first) && !path.includes(test.slashThenFirst)) {
      return false;
    }
  }
  for (const run of test.runs) if (!path.includes(run)) return false;
  return true;
}

// What a rule requires, or null when it cannot be read for that.
function ruleTest(pattern: string, openEnd: boolean): RuleTest | null {
  if (pattern.endsWith("/")) pattern = pattern.slice(0, -1);
  // A `/` at the start or in the middle anchors the rule to its folder.
  const anchored = pattern.includes("/");
  if (pattern.startsWith("/")) pattern = pattern.slice(1);
  const runs: string[] = [];
  let run = "";
  let startsLiteral = false;
  let endsLiteral = false;
  let stopped = false; // past a class: its end is not parsed, nothing more is required
  for (let i = 0; i < pattern.length && !stopped; i++) {
    const char = pattern[i];
    if (char === "\\") {
      if (i + 1 >= pattern.length) return null; // a trailing backslash: the rule is invalid, no guess
      run += pattern[++i];
      if (runs.length === 0 && run.length === 1 && i === 1) startsLiteral = true;
      endsLiteral = i === pattern.length - 1;
      continue;
    }
    if (WILDCARD.has(char) || char === "/") {
      if (run !== "") runs.push(run);
      run = "";
      endsLiteral = false;
      if (char === "[") stopped = true;
      continue;
    }
    if (i === 0) startsLiteral = true;
    run += char;
    endsLiteral = i === pattern.length - 1;
  }
  if (run !== "" && !stopped) runs.push(run);
  const first = startsLiteral && runs.length > 0 ? runs[0] : null;
  const last = endsLiteral && !openEnd && runs.length > 0 ? runs[runs.length - 1] : null;
  return { runs, first, last, anchored, slashThenFirst: `/${first}`, lastThenSlash: `${last}/` };
}
