/**
 * A regular expression's source matching `path` only where the path ends: at
 * a separator or a character no path name would carry on with, so `/w` never
 * matches inside `/work`. Used to rewrite host paths in text a model sees (a
 * script's output, a container's arguments).
 *
 * @param path The path, matched literally.
 * @returns The pattern's source (compile it with the flags the caller needs).
 */
export function pathPattern(path: string): string {
  return `${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=$|[/\\\\:'"\`)\\]\\s,;])`;
}
