// How a move's checks build their error: the code, a detail, and a hint.
import type { WorkspaceError } from "../core/errors.ts";

/** Makes the move's `WorkspaceError` (its message names both paths). */
export type Fail = (code: WorkspaceError["code"], detail: string, hint?: string) => WorkspaceError;
