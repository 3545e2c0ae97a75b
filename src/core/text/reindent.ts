/**
 * Gives a replacement the file's own indentation, when its `old_string`
 * matched only with another indentation (tabs for spaces, or another depth):
 * each old line's indentation is paired with the file line it matched, and
 * each new line's indentation is rewritten by those pairs (the longest old
 * indentation that starts it); what lies deeper takes the file's unit, a tab
 * for as many spaces as the pairs show (else 4).
 *
 * @param oldString The `old_string` as given.
 * @param matched The file's text the tolerant match covered, from its first line's start.
 * @param newString The replacement as given.
 * @returns The replacement with the file's indentation, or `newString` when the lines do not pair up.
 *
 * @example Spaces in the edit, tabs in the file
 * ```ts
 * import { reindent } from "./reindent.ts";
 * reindent("    a();\n", "\ta();\n", "    a();\n    b();\n"); // "\ta();\n\tb();\n"
 * ```
 */
export function reindent(oldString: string, matched: string, newString: string): string {
  const oldLines = oldString.split("\n");
  const fileLines = matched.split("\n");
  if (oldLines.length !== fileLines.length) return newString;
  const pairs = new Map<string, string>();
  let spacesPerTab = 0;
  for (const [index, line] of oldLines.entries()) {
    if (line.trim() === "") continue;
    const from = indentOf(line);
    const to = indentOf(fileLines[index]);
    if (!pairs.has(from)) pairs.set(from, to);
    // A pure-space indentation matched by a pure-tab one tells the tab's width.
    if (/^ +$/.test(from) && /^\t+$/.test(to) && from.length % to.length === 0) spacesPerTab = from.length / to.length;
    if (/^\t+$/.test(from) && /^ +$/.test(to) && to.length % from.length === 0) spacesPerTab = to.length / from.length;
  }
  const fileUsesTabs = [...pairs.values()].some((indent) => indent.includes("\t"));
  const width = spacesPerTab || 4;
  const byLength = [...pairs.keys()].sort((a, b) => b.length - a.length);
  return newString.split("\n").map((line) => {
    if (line.trim() === "") return line;
    const indent = indentOf(line);
    const known = byLength.find((from) => indent.startsWith(from));
    if (known === undefined) return line;
    const rest = indent.slice(known.length);
    const deeper = fileUsesTabs
      ? rest.replace(new RegExp(` {${width}}`, "g"), "\t")
      : rest.replaceAll("\t", " ".repeat(width));
    return (pairs.get(known) as string) + deeper + line.slice(indent.length);
  }).join("\n");
}

function indentOf(line: string): string {
  return /^[ \t]*/.exec(line)?.[0] ?? "";
}
