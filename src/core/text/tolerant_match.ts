/** A range of code units `[start, end)` in the original text. */
export interface TextRange {
  start: number;
  end: number;
}

/**
 * Characters models and editors swap for ASCII ones: curly quotes, primes,
 * dashes and hyphens, and non-breaking or wide spaces.
 */
export const LOOKALIKES: Readonly<Record<string, string>> = {
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u2032": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u2033": '"',
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u00A0": " ",
  "\u2007": " ",
  "\u202F": " ",
};

function isBlank(char: string): boolean {
  return char === " " || char === "\t" || LOOKALIKES[char] === " ";
}

/** Text with whitespace folded and look-alikes replaced, mapped back to the original. */
interface Folded {
  text: string;
  /** Original index where folded unit `i` starts. */
  starts: number[];
  /** Original index just past folded unit `i`. */
  ends: number[];
  /** Whether the original text's first line has leading blanks. */
  indented: boolean;
}

/**
 * Folds `text` for tolerant comparison: on every line, leading and trailing
 * blanks are dropped and inner runs of blanks become one space; `\r\n`
 * becomes `\n`; curly quotes, primes and dashes become their ASCII forms.
 */
function fold(text: string): Folded {
  const out: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const emit = (char: string, start: number, end: number) => {
    out.push(char);
    starts.push(start);
    ends.push(end);
  };
  let lineStart = 0;
  let indented = false;
  for (;;) {
    const newline = text.indexOf("\n", lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    const contentEnd = newline > 0 && text[newline - 1] === "\r" ? newline - 1 : lineEnd;
    let first = lineStart;
    while (first < contentEnd && isBlank(text[first])) first++;
    if (lineStart === 0) indented = first > 0;
    let last = contentEnd;
    while (last > first && isBlank(text[last - 1])) last--;
    for (let i = first; i < last; i++) {
      if (isBlank(text[i])) {
        let run = i;
        while (run + 1 < last && isBlank(text[run + 1])) run++;
        emit(" ", i, run + 1);
        i = run;
      } else {
        emit(LOOKALIKES[text[i]] ?? text[i], i, i + 1);
      }
    }
    if (newline < 0) break;
    // The newline stands for the line's trailing blanks too, so a match that
    // spans it replaces them rather than leaving them stranded.
    emit("\n", last, newline + 1);
    lineStart = newline + 1;
  }
  return { text: out.join(""), starts, ends, indented };
}

/**
 * Finds `needle` in `haystack` tolerating differences models often make:
 * indentation, trailing spaces, runs of blanks, CRLF versus LF, curly quotes
 * and dashes. Returns the non-overlapping ranges of the original text that
 * match; each range covers only the matched text (plus the line's indentation
 * when the needle itself starts indented), so replacing it leaves every other
 * code unit as it was.
 *
 * @param haystack The file's text.
 * @param needle The text looked for.
 * @returns The matched ranges, in order (empty when there is none).
 */
export function findTolerantMatches(haystack: string, needle: string): TextRange[] {
  const folded = fold(haystack);
  const wanted = fold(needle);
  if (wanted.text.trim().length === 0) return [];
  const ranges: TextRange[] = [];
  for (
    let at = folded.text.indexOf(wanted.text);
    at >= 0;
    at = folded.text.indexOf(wanted.text, at + wanted.text.length)
  ) {
    let start = folded.starts[at];
    const end = folded.ends[at + wanted.text.length - 1];
    if (wanted.indented) {
      // The needle brings its own indentation: take the line's along with the match.
      let lineStart = start;
      while (lineStart > 0 && isBlank(haystack[lineStart - 1])) lineStart--;
      if (lineStart === 0 || haystack[lineStart - 1] === "\n") start = lineStart;
    }
    ranges.push({ start, end });
  }
  return ranges;
}
