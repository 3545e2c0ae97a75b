/**
 * The hint for a workspace path refused for a `..` segment: the path with
 * each `..` taken out together with the name before it, computed on the
 * string alone. It is only a suggestion for the model's next call; nothing
 * is resolved with it (a `..` after a link would lead elsewhere on disk, so
 * the grammar refuses every `..` rather than resolve it this way).
 *
 * 1. Walk the segments (`/` and `\` separate; empty and `.` dropped): a name is pushed, `..` pops one.
 * 2. A `..` with nothing to pop leaves the root: say so, and suggest nothing.
 * 3. Otherwise suggest what is left, joined with `/` (`.` for the root), if the grammar accepts it.
 *
 * @param input The refused path, as the caller gave it.
 * @param accepted Whether the grammar accepts a path (the suggestion is checked before it is offered).
 * @returns The hint, e.g. for `src/../run.sh`: "write 'run.sh' (the path without '..'): …".
 */
export function parentSegmentHint(input: string, accepted: (path: string) => boolean): string {
  // 1. The segments, with each '..' taking the name before it.
  const kept: string[] = [];
  for (const segment of input.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") kept.push(segment);
    // 2. Above the root.
    else if (kept.pop() === undefined) return ABOVE_ROOT;
  }
  // 3. The suggestion, if the grammar takes it.
  const suggestion = kept.length === 0 ? "." : kept.join("/");
  return accepted(suggestion) ? `write '${suggestion}' (the path without '..'): ${RULE}` : `${RULE}; ${FROM_ROOT}`;
}

const RULE = "paths start at the workspace root and may not hold '..'";
const FROM_ROOT = "write the path from the workspace root";
const ABOVE_ROOT = `'..' here would leave the workspace, which no tool can reach: ${RULE}; name a file inside it`;
