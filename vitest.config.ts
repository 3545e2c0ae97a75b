import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const source = (file: string) => fileURLToPath(new URL(file, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests may import the package by its own name (as the README's examples do): the sources, not dist/.
    alias: [
      { find: /^@paddock\/tools$/, replacement: source("./mod.ts") },
      { find: /^@paddock\/tools\/host$/, replacement: source("./host.ts") },
      { find: /^@paddock\/tools\/node$/, replacement: source("./node.ts") },
      { find: /^@paddock\/tools\/testing$/, replacement: source("./testing.ts") },
      { find: /^@paddock\/tools\/ai-sdk$/, replacement: source("./src/adapters/ai_sdk.ts") },
      { find: /^@paddock\/tools\/openai$/, replacement: source("./src/adapters/openai.ts") },
      { find: /^@paddock\/tools\/anthropic$/, replacement: source("./src/adapters/anthropic.ts") },
      { find: /^@paddock\/tools\/sandbox$/, replacement: source("./sandbox.ts") },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Two cores: run files in parallel threads, few at a time.
    pool: "forks",
    maxWorkers: 2,
  },
});
