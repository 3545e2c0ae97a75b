/**
 * `@paddock/tools/patch`: `apply_patch`'s patch text as pure functions, for
 * code that reads, rewrites or applies a patch itself (a review step, a
 * patch shown to a person first). The `apply_patch` tool needs none of it.
 *
 * @example Reading a patch and applying its hunks in memory
 * ```ts
 * import { applyHunks, parsePatch } from "@paddock/tools/patch";
 * const { operations } = parsePatch("*** Begin Patch\n*** Update File: a.txt\n@@\n-old\n+new\n*** End Patch\n");
 * const first = operations[0];
 * if (first?.kind === "update") applyHunks("old\n", first.hunks, first.path).text; // "new\n"
 * ```
 *
 * @module
 */
export { parsePatch, renamePatchPaths } from "./core/text/parse_patch.ts";
export type { ParsedPatch, PatchHunk, PatchOperation } from "./core/text/parse_patch.ts";
export { applyHunks } from "./core/text/apply_hunks.ts";
export type { AppliedHunks } from "./core/text/apply_hunks.ts";
export type { SeekTolerance } from "./core/text/seek_lines.ts";
