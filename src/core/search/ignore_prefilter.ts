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

/** Whether a path (relative to the rules' folder, without a trailing `/`) may match a rule. */
export type IgnorePrefilter = (relative: string) => boolean;

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

/**
 * Builds the prefilter of one `.gitignore` text.
 *
 * @param text The file's text.
 * @returns The prefilter.
 */
export function ignorePrefilter(text: string): IgnorePrefilter {
  const tests: RuleTest[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (line.startsWith("!")) line = line.slice(1);
    const test = ruleTest(line);
    if (test === null) return () => true;
    tests.push(test);
  }
  if (tests.length === 0) return () => false;
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
  return (relative) => {
    for (const test of others) if (passes(test, relative)) return true;
    if (anyOf(byLast.get(relative[relative.length - 1]), relative)) return true;
    for (let at = relative.indexOf("/"); at > 0; at = relative.indexOf("/", at + 1)) {
      if (anyOf(byLast.get(relative[at - 1]), relative)) return true;
    }
    return false;
  };
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
function ruleTest(pattern: string): RuleTest | null {
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
  const last = endsLiteral && runs.length > 0 ? runs[runs.length - 1] : null;
  return { runs, first, last, anchored, slashThenFirst: `/${first}`, lastThenSlash: `${last}/` };
}
