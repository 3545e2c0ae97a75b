import { expect } from "vitest";
import { WorkspaceError } from "../../mod.ts";
import { ERROR_HINTS } from "../../src/core/error_hints.ts";
import type { ErrorCode } from "../../src/core/errors.ts";

/** The code a call fails with, or `null` when it succeeds; anything but a WorkspaceError is rethrown. */
export async function codeOf(call: Promise<unknown> | (() => Promise<unknown>)): Promise<string | null> {
  try {
    await (typeof call === "function" ? call() : call);
    return null;
  } catch (error) {
    if (error instanceof WorkspaceError) return error.code;
    throw error;
  }
}

/** The WorkspaceError a call fails with; fails the test when it succeeds. */
export async function errorOf(call: Promise<unknown>): Promise<WorkspaceError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof WorkspaceError) return error;
    throw error;
  }
  throw new Error("expected the call to fail");
}

/**
 * The body of an argument error for a path in the hostile table: an absolute,
 * drive or `~` path carries a hint on how to write it (any text); a row that
 * pins its hint (the `..` rows) carries exactly that one; any other, its code's.
 */
export function pathArgumentError(
  path: string,
  code: string,
  hint?: string,
): { code: string; message: string; hint?: unknown } {
  if (hint !== undefined) return { code: "TOOL_ARGUMENTS_INVALID", message: code, hint };
  const fixable = /^[/\\]|^[A-Za-z]:|^~(?:[/\\]|$)/.test(path) && code === "INVALID_RELATIVE_PATH";
  return {
    code: "TOOL_ARGUMENTS_INVALID",
    message: code,
    hint: fixable ? expect.any(String) : ERROR_HINTS[code as ErrorCode],
  };
}
