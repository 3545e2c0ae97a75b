// The `paddock` command loads neither package entry (`@paddock/tools`, `@paddock/tools/mcp`), which register the
// runtime's call scope for a library user: it registers the scope itself. This file imports nothing else that does.
import { expect, test } from "vitest";
import "../src/cli/main.ts";
import { currentCallGroup, runJournaledCall } from "../src/core/fs/call_scope.ts";

test("the paddock command keeps the undo groups of calls that overlap in time apart", async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => release = resolve);
  const first = runJournaledCall(async () => {
    await gate;
    return currentCallGroup();
  });
  const second = await runJournaledCall(() => Promise.resolve(currentCallGroup()));
  release();
  const firstGroup = await first;
  expect(second).toBeTypeOf("number");
  expect(firstGroup).toBeTypeOf("number");
  expect(firstGroup).not.toBe(second);
  expect(currentCallGroup()).toBeUndefined();
});
