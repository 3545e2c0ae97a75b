// `npm run test:soak` (scripts/test_soak.sh): the soaks, race loops and
// big-tree checks listed in vitest.config.ts, with its settings otherwise.
import { configDefaults, defineConfig } from "vitest/config";
import behaviour, { SOAK_FILES } from "./vitest.config.ts";

export default defineConfig({
  ...behaviour,
  test: { ...behaviour.test, include: SOAK_FILES, exclude: [...configDefaults.exclude] },
});
