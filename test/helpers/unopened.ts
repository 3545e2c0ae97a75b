import { DeferredWorkspace } from "../../mod.ts";

/**
 * A workspace source that is never opened (its root does not exist): for tests of what a tool is before
 * any call (names, schemas, validation). A root path string that does not exist is refused when the tools
 * are made; an explicit DeferredWorkspace is the caller's choice to open later, so it is not.
 */
export function unopened(): DeferredWorkspace {
  return new DeferredWorkspace("/nonexistent-never-opened");
}
