// A file's text as lines and their own line ends, and back: what apply_hunks compares and what it writes.

/** A file split into lines: each line's text (compared) and its own line end (kept). */
export interface FileLines {
  /** Each line without its line end. */
  lines: string[];
  /** Each line's own line end: `"\r\n"`, `"\n"`, or `""` for a last line with no final newline. */
  ends: string[];
  /** The file's usual line end, what a new line gets: CRLF when most lines that end in one have it. */
  usual: string;
  /** Whether the file ends with a newline (an empty file counts as one: new lines end with one). */
  finalNewline: boolean;
}

/** One line of the patched file: a kept line carries its own end; a new one has none yet (`end` undefined). */
export interface OutputLine {
  text: string;
  end?: string;
}

/**
 * Splits `text` into lines and their own line ends. A last line with no final newline has no line end, and it
 * does not count when the usual line end is decided: `one\r\ntwo` is a CRLF file.
 */
export function splitFileLines(text: string): FileLines {
  const pieces = text === "" ? [] : text.split("\n");
  const finalNewline = text === "" || text.endsWith("\n");
  if (text.endsWith("\n")) pieces.pop();
  const lines: string[] = [];
  const ends: string[] = [];
  let crlf = 0;
  for (const [index, piece] of pieces.entries()) {
    const last = index === pieces.length - 1 && !finalNewline;
    const cr = piece.endsWith("\r");
    lines.push(cr ? piece.slice(0, -1) : piece);
    // A last line without "\n" keeps a stray "\r" as its end, byte for byte.
    ends.push(last ? (cr ? "\r" : "") : cr ? "\r\n" : "\n");
    if (!last && cr) crlf++;
  }
  const ended = finalNewline ? lines.length : lines.length - 1;
  return { lines, ends, usual: crlf * 2 > ended ? "\r\n" : "\n", finalNewline };
}

/**
 * Joins the patched lines: each kept line with its own line end, each new one with the file's usual one; a
 * line that is no longer last gets a line end, and the last line ends the file with a newline or without one
 * as the file did.
 */
export function joinFileLines(out: readonly OutputLine[], file: FileLines): string {
  const parts: string[] = [];
  for (const [index, line] of out.entries()) {
    let end = line.end ?? file.usual;
    if (index < out.length - 1) {
      if (end === "") end = file.usual;
      else if (end === "\r") end = "\r\n";
    } else if (!file.finalNewline) {
      if (end === "\n" || end === "\r\n") end = "";
    } else if (end === "" || end === "\r") end = file.usual;
    parts.push(line.text, end);
  }
  return parts.join("");
}
