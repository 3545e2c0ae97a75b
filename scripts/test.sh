#!/usr/bin/env bash
# Runs the whole suite: type checks, then the same vitest files under Node,
# Deno and Bun (Bun where it is installed).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin

echo "== tsc: core without Node/Deno types, then everything"
"$bin/tsc" -p tsconfig.core.json
"$bin/tsc" -p tsconfig.test.json
echo "== tsc: the AI SDK adapter against ai 6 and ai 7 (ai 5 is in tsconfig.test.json)"
"$bin/tsc" -p tsconfig.ai6.json
"$bin/tsc" -p tsconfig.ai7.json

echo "== vitest under Node $(node --version)"
"$bin/vitest" run

echo "== vitest under Deno"
"$bin/deno" run -A node_modules/vitest/vitest.mjs run

if [ -x "$bin/bun" ]; then
  echo "== vitest under Bun"
  "$bin/bun" node_modules/vitest/vitest.mjs run
fi
