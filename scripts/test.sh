#!/usr/bin/env bash
# `npm test`: type checks, then the behaviour suite (vitest.config.ts) under
# Node, Deno and Bun (Bun where it is installed). The soaks, race loops and
# big-tree checks are `npm run test:soak` (scripts/test_soak.sh).
#
# PADDOCK_SUITE_PASSES names the passes, so that what one proves is not run
# again by another: the host-independent files (HOST_INDEPENDENT_FILES in
# vitest.config.ts) and the memory host's rows run in the Node pass only, and
# the Node pass starts no Deno MCP server for the tests the Deno pass runs
# (test/helpers/suite_pass.ts).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=node_modules/.bin

# Incremental: a second run re-checks only what changed since the last (the
# same diagnostics; a fresh clone checks everything). The state is kept in
# .cache/ (git-ignored).
cache=.cache/tsc
typecheck() { "$bin/tsc" -p "$1" --incremental --tsBuildInfoFile "$cache/${1%.json}.tsbuildinfo"; }

doc_checks() {
  local entries lint
  entries=$(node -e 'console.log(Object.values(require("./deno.json").exports).join(" "))')
  # deno doc prints a warning per unresolved @types/node reference; show the output only when it fails.
  # shellcheck disable=SC2086
  if ! lint=$("$bin/deno" doc --lint $entries 2>&1); then
    printf '%s\n' "$lint" | grep -v -e '^.\{0,12\}Warning' -e 'node_modules/@types/node/index.d.ts'
    return 1
  fi
  "$bin/deno" check --quiet --doc mod.ts host.ts node.ts testing.ts sandbox.ts cli.ts src/
}

# The static checks are independent and each runs on one core: they run as two
# lanes of about equal length (fresh clone, 2 cores: ~48 s one after another,
# ~27 s in two lanes). Each lane's output is printed whole, in order, once
# both are done; any failure fails `npm test`.
lanes=$(mktemp -d)
trap 'rm -rf "$lanes"' EXIT
(
  set -e
  echo "== tsc: everything (tsconfig.test.json)"
  typecheck tsconfig.test.json
  echo "== deno doc --lint over every entry of deno.json (what JSR's score reads), then every @example type-checked"
  doc_checks
) >"$lanes/1" 2>&1 &
lane1=$!
(
  set -e
  echo "== tsc: core without Node/Deno types"
  typecheck tsconfig.core.json
  echo "== tsc: the AI SDK adapter against ai 6 and ai 7 (ai 5 is in tsconfig.test.json)"
  typecheck tsconfig.ai6.json
  typecheck tsconfig.ai7.json
) >"$lanes/2" 2>&1 &
lane2=$!
status=0
wait "$lane1" || status=1
wait "$lane2" || status=1
cat "$lanes/1" "$lanes/2"
if [ "$status" != 0 ]; then exit 1; fi

passes=node,deno
if [ -x "$bin/bun" ]; then passes=node,deno,bun; fi
export PADDOCK_SUITE_PASSES=$passes

echo "== vitest under Node $(node --version)"
"$bin/vitest" run

echo "== vitest under Deno"
"$bin/deno" run -A node_modules/vitest/vitest.mjs run

if [ -x "$bin/bun" ]; then
  echo "== vitest under Bun"
  "$bin/bun" node_modules/vitest/vitest.mjs run
fi
