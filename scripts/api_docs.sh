#!/usr/bin/env bash
# Builds the API reference from the doc comments into docs/api/ (gitignored):
# `deno doc --html` over every entry of deno.json.
set -euo pipefail
cd "$(dirname "$0")/.."
entries=$(node -e 'console.log(Object.values(require("./deno.json").exports).join(" "))')
rm -rf docs/api
# deno doc prints a warning per unresolved @types/node reference; show the output only when it fails.
# shellcheck disable=SC2086
if ! out=$(node_modules/.bin/deno doc --html --name="@paddock/tools" --output=docs/api $entries 2>&1); then
  printf '%s\n' "$out" | grep -v -e '^.\{0,12\}Warning' -e 'node_modules/@types/node/index.d.ts'
  exit 1
fi
test -f docs/api/index.html
echo "API reference: docs/api/index.html ($(find docs/api -name '*.html' | wc -l) pages)"
