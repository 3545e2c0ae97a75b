import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: run files in parallel threads, few at a time.
    pool: "forks",
    maxWorkers: 2,
  },
});
