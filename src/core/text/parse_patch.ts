/**
 * The patch format of OpenAI Codex's `apply_patch`, read leniently: the forms
 * models emit beside the canonical one (no `*** End Patch`, CRLF line ends, a
 * shell heredoc around the patch, a unified diff header `@@ -1,3 +1,4 @@` for
 * a hunk, or a plain unified diff of one file) all parse to the same
 * {@link ParsedPatch}.
 *
 * @module
 */
import { patchInvalid } from "./_patch_invalid.ts";
import { parseUnifiedDiff } from "./parse_unified_diff.ts";

/** One hunk of an update: lines to find (`oldLines`) and what replaces them (`newLines`). */
export interface PatchHunk {
  /** The text after `@@ ` (a line to find before the hunk), when given. */
  context?: string;
  /** The lines the file has now, context included, in order. */
  oldLines: string[];
  /** The lines the file gets instead. */
  newLines: string[];
  /** `*** End of File`: the lines end the file. */
  endOfFile: boolean;
  /** The first old line's 1-based number, from a unified diff header, as a hint where to look first. */
  oldStart?: number;
  /**
   * The hunk's body as written, one mark per line in order: `" "` a context line (in both lists), `"-"` a removed
   * line (in `oldLines`), `"+"` an added one (in `newLines`). What tells which file lines are kept; without it
   * (a hunk built by hand) the lines the two lists share at each end are taken as the context.
   */
  marks?: string;
}

/** One file the patch changes, with the path as written in the patch. */
export type PatchOperation =
  | { kind: "add"; path: string; lines: string[] }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; hunks: PatchHunk[] };

/** A parsed patch: its operations in order. */
export interface ParsedPatch {
  /** The files it changes, in the order written. */
  operations: PatchOperation[];
  /** `true` when the input was a plain unified diff rather than `*** Begin Patch`. */
  unified: boolean;
}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
/** The headers of Codex's format followed by a path (what a hint may quote with one). */
export const PATCH_PATH_HEADERS: readonly string[] = [ADD, DELETE, UPDATE, MOVE];
const END_OF_FILE = "*** End of File";
const UNIFIED_HUNK = /^@@ -(\d+)(?:,\d+)? \+\d+(?:,\d+)? @@/;
const HEREDOC_START = /^(?:apply_patch\s+)?<<-?\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\1\s*$/;

/**
 * Reads a patch. Only the text is looked at: paths are returned as written
 * (the caller checks them through the path grammar).
 *
 * @param text The patch.
 * @returns The operations.
 * @throws {WorkspaceError} `PATCH_INVALID`, naming the line.
 *
 * @example Reading a one-file update
 * ```ts
 * import { parsePatch } from "@paddock/tools/patch";
 * const { operations } = parsePatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\n");
 * operations[0].kind; // "update"
 * ```
 */
export function parsePatch(text: string): ParsedPatch {
  return readPatch(text).patch;
}

/**
 * A patch with each file path it names passed through `rename`, every other
 * character as it was (line ends, hunks, blank lines, a heredoc around it):
 * how an MCP server with several roots takes the `NAME:` off the paths of a
 * patch for one root. Only Codex's format is rewritten; a plain unified diff
 * gives `null`.
 *
 * @param text The patch.
 * @param rename Gives the path to write for one path as written.
 * @returns The patch with its paths renamed, or `null` for a unified diff.
 * @throws {WorkspaceError} `PATCH_INVALID`, as {@link parsePatch}.
 *
 * @example Taking a root's prefix off
 * ```ts
 * import { renamePatchPaths } from "@paddock/tools/patch";
 * renamePatchPaths("*** Begin Patch\n*** Delete File: docs:old.md\n*** End Patch\n", (path) => path.slice(5));
 * // "*** Begin Patch\n*** Delete File: old.md\n*** End Patch\n"
 * ```
 */
export function renamePatchPaths(text: string, rename: (path: string) => string): string | null {
  const { patch, headers } = readPatch(text);
  if (patch.unified) return null;
  // The text's lines at even indexes, each line end kept at the odd index after it (the split parsePatch makes).
  const parts = text.split(/(\r?\n)/);
  for (const { line, prefix } of headers) {
    const raw = parts[2 * line];
    const after = raw.indexOf(prefix) + prefix.length;
    const rest = raw.slice(after);
    const path = rest.trim();
    const start = after + rest.length - rest.trimStart().length;
    parts[2 * line] = raw.slice(0, start) + rename(path) + raw.slice(start + path.length);
  }
  return parts.join("");
}

/** A line of a patch that names a path: its index among the text's lines, and the header before the path. */
interface PathHeader {
  line: number;
  prefix: string;
}

// parsePatch, and where each path it read stands in the text.
function readPatch(text: string): { patch: ParsedPatch; headers: PathHeader[] } {
  const { lines, dropped } = unwrapHeredoc(trimBlankEnds(text.replace(/^\uFEFF/, "").split(/\r?\n/)));
  const start = lines.findIndex((line) => line.trim() !== "");
  if (start < 0) throw patchInvalid("the patch is empty");
  if (lines[start].trim() !== BEGIN) {
    if (lines.some((line) => line.startsWith("--- ")) && lines.some((line) => line.startsWith("+++ "))) {
      return { patch: { operations: parseUnifiedDiff(lines), unified: true }, headers: [] };
    }
    throw patchInvalid(`line ${start + 1}: expected '${BEGIN}', got '${clip(lines[start])}'`);
  }
  const reader = new Reader(lines, start + 1);
  const operations = reader.operations();
  const headers = reader.headers.map(({ line, prefix }) => ({ line: line + dropped, prefix }));
  return { patch: { operations, unified: false }, headers };
}

class Reader {
  /** For each line, the index of the first non-blank line at or after it (`lines.length` if none). */
  private readonly nextNonBlank: Int32Array;
  /** The lines that named a path, in the order read. */
  readonly headers: PathHeader[] = [];

  constructor(private readonly lines: string[], private at: number) {
    // Computed once, so a run of blank lines costs linear time, not a scan ahead from each of them.
    this.nextNonBlank = new Int32Array(lines.length + 1);
    this.nextNonBlank[lines.length] = lines.length;
    for (let index = lines.length - 1; index >= 0; index--) {
      this.nextNonBlank[index] = lines[index].trim() === "" ? this.nextNonBlank[index + 1] : index;
    }
  }

  operations(): PatchOperation[] {
    const operations: PatchOperation[] = [];
    while (this.at < this.lines.length) {
      const line = this.lines[this.at];
      const header = line.trim();
      if (header === END) {
        const rest = this.lines.slice(this.at + 1).findIndex((later) => later.trim() !== "");
        if (rest >= 0) throw patchInvalid(`line ${this.at + rest + 2}: text after '${END}'`);
        break;
      }
      if (header === "") {
        this.at++;
        continue;
      }
      if (header.startsWith(ADD)) operations.push(this.add(this.pathAt(header, ADD)));
      else if (header.startsWith(DELETE)) {
        operations.push({ kind: "delete", path: this.pathAt(header, DELETE) });
        this.at++;
      } else if (header.startsWith(UPDATE)) operations.push(this.update(this.pathAt(header, UPDATE)));
      else {
        throw patchInvalid(
          `line ${
            this.at + 1
          }: expected a file header ('${ADD.trim()}', '${UPDATE.trim()}', '${DELETE.trim()}') or '${END}', got '${
            clip(line)
          }'`,
        );
      }
    }
    if (operations.length === 0) throw patchInvalid("the patch changes no file");
    return operations;
  }

  private add(path: string): PatchOperation {
    this.at++;
    const lines: string[] = [];
    while (this.at < this.lines.length && this.lines[this.at].startsWith("+")) {
      lines.push(this.lines[this.at].slice(1));
      this.at++;
    }
    return { kind: "add", path, lines };
  }

  private update(path: string): PatchOperation {
    const headerLine = this.at + 1;
    this.at++;
    let moveTo: string | undefined;
    if (this.at < this.lines.length && this.lines[this.at].trim().startsWith(MOVE)) {
      moveTo = this.pathAt(this.lines[this.at].trim(), MOVE);
      this.at++;
    }
    const hunks: PatchHunk[] = [];
    while (this.at < this.lines.length) {
      const line = this.lines[this.at];
      if (isHeader(line)) break;
      if (line.trim() === "" && this.nextIsHeaderOrEnd()) {
        this.at++; // a blank line between files
        continue;
      }
      hunks.push(this.hunk(path, hunks.length === 0));
    }
    if (hunks.length === 0 && moveTo === undefined) {
      throw patchInvalid(`line ${headerLine}: '${UPDATE}${path}' has no hunk`);
    }
    return moveTo === undefined ? { kind: "update", path, hunks } : { kind: "update", path, moveTo, hunks };
  }

  private hunk(path: string, first: boolean): PatchHunk {
    const hunk: PatchHunk = { oldLines: [], newLines: [], endOfFile: false };
    let marks = "";
    const header = this.lines[this.at];
    const unified = UNIFIED_HUNK.exec(header);
    if (unified !== null) {
      hunk.oldStart = Number(unified[1]);
      this.at++;
    } else if (header === "@@" || header.trimEnd() === "@@") {
      this.at++;
    } else if (header.startsWith("@@ ")) {
      hunk.context = header.slice(3);
      this.at++;
    } else if (!first) {
      throw patchInvalid(`line ${this.at + 1}: expected '@@' to start a hunk of '${path}', got '${clip(header)}'`);
    }
    const bodyStart = this.at;
    while (this.at < this.lines.length) {
      const line = this.lines[this.at];
      if (line.trim() === END_OF_FILE) {
        hunk.endOfFile = true;
        this.at++;
        break;
      }
      if (line.startsWith("@@") || isHeader(line)) break;
      if (line.trim() === "" && this.nextIsHeaderOrEnd()) break;
      const mark = line[0];
      if (mark === " " || line.trim() === "") {
        // A blank line is a blank context line (models drop the one space).
        const context = mark === " " ? line.slice(1) : "";
        hunk.oldLines.push(context);
        hunk.newLines.push(context);
        marks += " ";
      } else if (mark === "-") {
        hunk.oldLines.push(line.slice(1));
        marks += "-";
      } else if (mark === "+") {
        hunk.newLines.push(line.slice(1));
        marks += "+";
      } else if (mark === "\\") {
        // "\ No newline at end of file": the file's own final newline is kept as it is.
      } else {
        throw patchInvalid(
          `line ${this.at + 1}: in a hunk of '${path}', every line starts with ' ', '-' or '+', got '${clip(line)}'`,
          "prefix unchanged context lines with one space, removed lines with '-', added lines with '+'",
        );
      }
      this.at++;
    }
    if (this.at === bodyStart || (hunk.oldLines.length === 0 && hunk.newLines.length === 0)) {
      throw patchInvalid(`line ${bodyStart}: a hunk of '${path}' has no lines`);
    }
    hunk.marks = marks;
    return hunk;
  }

  /** The path of the header at the current line, which is recorded. */
  private pathAt(header: string, prefix: string): string {
    const path = pathOf(header, prefix);
    this.headers.push({ line: this.at, prefix });
    return path;
  }

  /** Whether only blank lines stand between here and the next header (or the end). */
  private nextIsHeaderOrEnd(): boolean {
    const next = this.nextNonBlank[this.at];
    return next >= this.lines.length || isHeader(this.lines[next]);
  }
}

function isHeader(line: string): boolean {
  const trimmed = line.trim();
  return trimmed === END || trimmed.startsWith(ADD) || trimmed.startsWith(DELETE) || trimmed.startsWith(UPDATE);
}

function pathOf(header: string, prefix: string): string {
  const path = header.slice(prefix.length).trim();
  if (path === "") throw patchInvalid(`'${prefix.trim()}' names no path`);
  return path;
}

function trimBlankEnds(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === "") end--;
  return lines.slice(0, end);
}

/**
 * `<<'EOF'` … `EOF` around the patch (a shell heredoc, as models write for Codex's CLI): dropped, with how many
 * lines before the patch went with it.
 */
function unwrapHeredoc(lines: string[]): { lines: string[]; dropped: number } {
  const first = lines.findIndex((line) => line.trim() !== "");
  if (first < 0) return { lines, dropped: 0 };
  const heredoc = HEREDOC_START.exec(lines[first].trim());
  if (heredoc === null || lines.length < first + 2 || lines[lines.length - 1].trim() !== heredoc[2]) {
    return { lines, dropped: 0 };
  }
  return { lines: lines.slice(first + 1, -1), dropped: first + 1 };
}

function clip(line: string): string {
  return line.length > 80 ? `${line.slice(0, 77)}...` : line;
}
