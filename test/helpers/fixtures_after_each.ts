import { afterEach } from "vitest";
import type { DiskFixture } from "./fixture.ts";

/**
 * A list of fixtures that are closed (their workspace, so whatever a failed test left running is killed) and
 * removed after each test of the calling file. Call it once, at the file's top level.
 *
 * @example const fixtures = fixturesClosedAfterEach(); … fixtures.push(await diskFixture([]));
 */
export function fixturesClosedAfterEach(): DiskFixture[] {
  const fixtures: DiskFixture[] = [];
  afterEach(async () => {
    for (const fixture of fixtures.splice(0)) {
      await fixture.workspace.close();
      fixture.cleanup();
    }
  });
  return fixtures;
}
