/**
 * The runs of plain characters that every match of an RE2 pattern must
 * contain (`struct ` and `_operations {` of `struct \w+_operations \{`),
 * none when none can be shown. A search can then rule out a file, or a line,
 * with a plain substring search, and run the regular expression only where
 * the literals occur.
 *
 * Conservative by construction: it reads a small subset of the syntax and
 * gives up (no runs) on anything else. Only characters outside any group or
 * class, not made optional by a quantifier, and at the top level of a pattern
 * without alternation count; escapes count only when they stand for the
 * punctuation character itself (`\{`, `\.`). A pattern with inline flags
 * (`(?i)`) or `\Q…\E` gives up. Characters that can never be in a line
 * (`\n`) are never part of a run.
 *
 * @param pattern The pattern (already known to compile with RE2).
 * @returns The required runs, each non-empty, possibly none.
 *
 * @example
 * ```ts
 * requiredLiterals("struct \\w+_operations \\{"); // ["struct ", "_operations {"]
 * requiredLiterals("a|b"); // []
 * ```
 */
export function requiredLiterals(pattern: string): string[] {
  if (pattern.includes("(?") || pattern.includes("\\Q")) return [];
  const runs: string[] = [];
  let run = "";
  const endRun = () => {
    if (run.length > 0) runs.push(run);
    run = "";
  };
  let depth = 0;
  for (let i = 0; i < pattern.length;) {
    const c = pattern[i];
    // 1. Structure: groups and classes break the run; their content never counts.
    if (c === "(") {
      depth++;
      endRun();
      i++;
      continue;
    }
    if (c === ")") {
      depth--;
      i++;
      i = skipQuantifier(pattern, i).end;
      continue;
    }
    if (c === "|") {
      if (depth === 0) return []; // top-level alternation: no single required literal
      i++;
      continue;
    }
    if (c === "[") {
      endRun();
      i = skipQuantifier(pattern, skipClass(pattern, i)).end;
      continue;
    }
    // 2. One atom: a plain character or an escape.
    let literal: string | null;
    let next: number;
    if (c === "\\") {
      const e = pattern[i + 1] ?? "";
      literal = /^[!-/:-@[-`{-~]$/.test(e) ? e : null; // an escaped ASCII punctuation character is itself
      next = i + 2;
      if (e === "p" || e === "P") next = pattern[next] === "{" ? pattern.indexOf("}", next) + 1 : next + 1;
      else if (e === "x") next = pattern[next] === "{" ? pattern.indexOf("}", next) + 1 : next + 2;
      if (next <= 0) return [];
    } else if (c === "." || c === "^" || c === "$") {
      literal = null;
      next = i + 1;
    } else if (c === "*" || c === "+" || c === "?" || c === "{") {
      // A quantifier with nothing before it (RE2 refuses most of these; `{` alone is a literal there, not here).
      return [];
    } else {
      const code = pattern.codePointAt(i)!;
      literal = String.fromCodePoint(code);
      next = i + literal.length;
    }
    // 3. Its quantifier decides whether it is required, and whether the run goes on.
    const quantifier = skipQuantifier(pattern, next);
    i = quantifier.end;
    if (depth > 0) continue;
    if (literal === null || literal === "\n" || literal === "\r") {
      endRun();
      continue;
    }
    if (quantifier.min === 0) {
      endRun();
      continue;
    }
    run += literal;
    if (quantifier.end !== next) endRun(); // `a+`, `a{2,}`: one `a` is required, what follows may not be adjacent
  }
  endRun();
  return [...new Set(runs)];
}

// Skips `[…]` from its `[`, with RE2's rules: a `]` first (after an optional `^`) is a member; escapes; `[:alpha:]`.
function skipClass(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === "^") i++;
  if (pattern[i] === "]") i++;
  while (i < pattern.length && pattern[i] !== "]") {
    if (pattern[i] === "\\") i += 2;
    else if (pattern.startsWith("[:", i)) {
      const close = pattern.indexOf(":]", i + 2);
      i = close < 0 ? i + 1 : close + 2;
    } else i++;
  }
  return i + 1;
}

// A quantifier at `at`, if any: its least count, and where it ends (a lazy `?` included).
function skipQuantifier(pattern: string, at: number): { min: number; end: number } {
  const c = pattern[at];
  let min = 1;
  let end = at;
  if (c === "*" || c === "?") {
    min = 0;
    end = at + 1;
  } else if (c === "+") {
    end = at + 1;
  } else if (c === "{") {
    const match = /^\{(\d+)(,\d*)?\}/.exec(pattern.slice(at));
    if (match === null) return { min, end }; // not a repeat: `{` is a literal in RE2
    min = Number(match[1]);
    end = at + match[0].length;
  } else {
    return { min, end };
  }
  if (pattern[end] === "?") end++;
  return { min, end };
}
