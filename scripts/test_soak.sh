#!/usr/bin/env bash
# `npm run test:soak`: the soaks, race loops and big-tree checks kept out of
# `npm test` (SOAK_FILES in vitest.config.ts) under Node, Deno and Bun (Bun
# where it is installed). `.ci/run` runs it after `npm test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin

echo "== soak under Node $(node --version)"
"$bin/vitest" run -c vitest.soak.config.ts "$@"

echo "== soak under Deno"
"$bin/deno" run -A node_modules/vitest/vitest.mjs run -c vitest.soak.config.ts "$@"

if [ -x "$bin/bun" ]; then
  echo "== soak under Bun"
  "$bin/bun" node_modules/vitest/vitest.mjs run -c vitest.soak.config.ts "$@"
fi
