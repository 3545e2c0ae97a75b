import type { Host } from "../../host.ts";

type Platform = Host["platform"];

/** The separator hosts of `platform` join segments with. */
export function separatorOf(platform: Platform): string {
  return platform === "win32" ? "\\" : "/";
}

/** Joins an absolute host path and workspace segments with the platform's separator. */
export function joinHostPath(platform: Platform, base: string, segments: readonly string[]): string {
  if (segments.length === 0) return base;
  const separator = separatorOf(platform);
  const prefix = base.endsWith(separator) ? base : base + separator;
  return prefix + segments.join(separator);
}

/** Whether a host path (or a link target) is absolute on `platform`. */
export function isAbsoluteHostPath(platform: Platform, path: string): boolean {
  if (platform === "win32") return /^[A-Za-z]:[\\/]/.test(path) || path.startsWith("\\\\") || path.startsWith("//");
  return path.startsWith("/");
}

/** Splits a host path or link target into segments (`/`, and `\` on Windows). */
export function splitHostPath(platform: Platform, path: string): string[] {
  const parts = platform === "win32" ? path.split(/[\\/]/) : path.split("/");
  return parts.filter((part) => part !== "" && part !== ".");
}

/**
 * The segments of absolute `path` below `root`, lexically (`..` folded), or
 * `null` when it is not `root` or below it.
 */
export function segmentsBelow(platform: Platform, root: string, path: string): string[] | null {
  const fold = (value: string): string[] => {
    const out: string[] = [];
    for (const part of splitHostPath(platform, value.replace(/^\\\\\?\\/, ""))) {
      if (part === "..") out.pop();
      else out.push(part);
    }
    return out;
  };
  const rootParts = fold(root);
  const pathParts = fold(path);
  if (pathParts.length < rootParts.length) return null;
  const same = platform === "win32"
    ? (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
    : (a: string, b: string) => a === b;
  for (let i = 0; i < rootParts.length; i++) if (!same(rootParts[i], pathParts[i])) return null;
  return pathParts.slice(rootParts.length);
}

/** The parent of an absolute host path. */
export function parentHostPath(platform: Platform, path: string): string {
  const separator = separatorOf(platform);
  const index = path.lastIndexOf(separator);
  if (index <= 0) return separator;
  if (platform === "win32" && index === 2 && path[1] === ":") return path.slice(0, 3);
  return path.slice(0, index);
}
