import { describe, expect, test } from "vitest";
import { normalizeWorkspacePath, WorkspaceError } from "../mod.ts";
import { HOSTILE_PATHS, NORMALIZED_PATHS } from "./cases/hostile_paths.ts";

describe("normalizeWorkspacePath()", () => {
  test.each(HOSTILE_PATHS)("refuses $name with $code", ({ path, code, hint }) => {
    let caught: unknown;
    try {
      normalizeWorkspacePath(path);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(WorkspaceError);
    expect((caught as WorkspaceError).code).toBe(code);
    if (hint !== undefined) expect((caught as WorkspaceError).hint).toBe(hint);
  });

  test.each(NORMALIZED_PATHS)("accepts '$path'", ({ path, segments }) => {
    expect(normalizeWorkspacePath(path)).toEqual(segments);
  });

  test("refuses a path one byte over the limit and accepts one at it", () => {
    // 4096 bytes: 819 × "abcd/" = 4095, plus one more byte.
    const atLimit = Array(819).fill("abcd").join("/") + "/x";
    expect(new TextEncoder().encode(atLimit).length).toBe(4096);
    expect(normalizeWorkspacePath(atLimit)).toHaveLength(820);
    expect(() => normalizeWorkspacePath(atLimit + "y")).toThrow(expect.objectContaining({ code: "PATH_TOO_LONG" }));
  });

  test("counts multi-byte characters in bytes for the segment limit", () => {
    expect(normalizeWorkspacePath("é".repeat(127) + "a")).toHaveLength(1); // 255 bytes
    expect(() => normalizeWorkspacePath("é".repeat(128))).toThrow(expect.objectContaining({ code: "PATH_TOO_LONG" }));
  });
});
