// A plain unified diff of one file (`--- a/x` `+++ b/x` `@@ -1,3 +1,4 @@`), read as an apply_patch operation.
import { parsePatch as parseUnified } from "diff";
import type { PatchHunk, PatchOperation } from "./parse_patch.ts";
import { patchInvalid } from "./_patch_invalid.ts";

const NO_FILE = "/dev/null";

/**
 * Reads a unified diff of one file with the `diff` package: `/dev/null` as
 * the old name adds the file, as the new name deletes it, a different new
 * name moves it; `a/` and `b/` prefixes are dropped.
 *
 * @param lines The diff's lines (line ends already taken off).
 * @returns One operation.
 * @throws {WorkspaceError} `PATCH_INVALID`.
 */
export function parseUnifiedDiff(lines: readonly string[]): PatchOperation[] {
  let files;
  try {
    files = parseUnified(lines.join("\n") + "\n");
  } catch (error) {
    throw patchInvalid(`the unified diff cannot be read: ${(error as Error).message}`);
  }
  files = files.filter((file) => file.hunks.length > 0 || file.oldFileName !== undefined);
  if (files.length !== 1) {
    throw patchInvalid(
      `a unified diff must change one file, this one has ${files.length}`,
      "send several files as one '*** Begin Patch' patch with one '*** Update File:' section each",
    );
  }
  const [file] = files;
  const oldName = stripPrefix(file.oldFileName);
  const newName = stripPrefix(file.newFileName);
  if (oldName === undefined && newName === undefined) throw patchInvalid("the unified diff names no file");
  const hunks: PatchHunk[] = file.hunks.map((hunk) => {
    // The header's own number: for an empty old range `diff` gives one more (the line after the insertion).
    const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
    const out: PatchHunk = { oldLines: [], newLines: [], endOfFile: false, oldStart };
    let marks = "";
    for (const line of hunk.lines) {
      const body = line.slice(1);
      if (line[0] === "-") {
        out.oldLines.push(body);
        marks += "-";
      } else if (line[0] === "+") {
        out.newLines.push(body);
        marks += "+";
      } else if (line[0] !== "\\") {
        out.oldLines.push(body);
        out.newLines.push(body);
        marks += " ";
      }
    }
    out.marks = marks;
    return out;
  });
  if (oldName === NO_FILE || oldName === undefined) {
    return [{ kind: "add", path: newName as string, lines: hunks.flatMap((hunk) => hunk.newLines) }];
  }
  if (newName === NO_FILE) return [{ kind: "delete", path: oldName }];
  if (hunks.length === 0 && (newName === undefined || newName === oldName)) {
    throw patchInvalid(`the unified diff of '${oldName}' has no hunk`);
  }
  return newName === undefined || newName === oldName
    ? [{ kind: "update", path: oldName, hunks }]
    : [{ kind: "update", path: oldName, moveTo: newName, hunks }];
}

function stripPrefix(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const trimmed = name.trim();
  if (trimmed === NO_FILE) return NO_FILE;
  return /^[ab]\//.test(trimmed) ? trimmed.slice(2) : trimmed;
}
