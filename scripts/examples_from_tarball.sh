#!/usr/bin/env bash
# Every example the README shows, run as written from the installed package, on each supported `ai` major:
#   bash scripts/examples_from_tarball.sh [paddock-tools-*.tgz]     (packs this checkout when no tarball is given)
# One fresh folder outside the checkout installs the tarball with the OpenAI and Anthropic SDKs, then in turn ai 5,
# 6 and 7 with their own @ai-sdk/openai (2, 3, 4: the versions in package.json's devDependencies, so npm's cache has
# them), copies the package's examples/ beside it and runs them (scripts/examples.ts --dir) against local fake
# servers. Then Deno imports the installed package the documented way: `deno run -A` takes the handles route, scoped
# flags the paths route.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
elapsed() { echo "   (${SECONDS} s so far)"; }
tarball=${1:-}
if [ -z "$tarball" ]; then
  echo "npm pack (builds dist/)"
  npm pack --silent --pack-destination "$work" >/dev/null
  tarball=$(ls "$work"/paddock-tools-*.tgz)
  elapsed
fi
tarball=$(cd "$(dirname "$tarball")" && pwd)/$(basename "$tarball")
dev() { node -p "require('./package.json').devDependencies['$1'].replace(/^npm:.*@/, '')"; }
install() { npm install --prefer-offline --no-audit --no-fund "$@" >"$work/npm.log" 2>&1 || { cat "$work/npm.log"; exit 1; }; }

app="$work/app"
mkdir -p "$app"
cd "$app"
npm init -y >/dev/null
npm pkg set type=module
install "$tarball" "openai@$(cd "$repo" && dev openai)" "@anthropic-ai/sdk@$(cd "$repo" && dev @anthropic-ai/sdk)"
cp -r node_modules/@paddock/tools/examples examples
elapsed
status=0
for major in 5 6 7; do
  case $major in
    5) ai=$(cd "$repo" && dev ai) provider=$(cd "$repo" && dev @ai-sdk/openai) ;;
    6) ai=$(cd "$repo" && dev ai6) provider=$(cd "$repo" && dev ai6-openai) ;;
    7) ai=$(cd "$repo" && dev ai7) provider=$(cd "$repo" && dev ai7-openai) ;;
  esac
  echo "== the README's examples from the tarball, ai $ai with @ai-sdk/openai $provider"
  install "ai@$ai" "@ai-sdk/openai@$provider"
  elapsed
  "$repo/node_modules/.bin/tsx" "$repo/scripts/examples.ts" --dir "$app" || status=1
  elapsed
done

echo "== Deno imports the installed package (deno run in a folder with package.json and node_modules)"
deno="$repo/node_modules/.bin/deno"
mkdir -p project && printf 'export const a = 1;\n' >project/a.ts
cat >deno_probe.ts <<'PROBE'
import { createCodingTools, executeToolCall, openWorkspace, ToolRegistry } from "@paddock/tools";
const workspace = await openWorkspace(Deno.args[0]);
const registry = new ToolRegistry(createCodingTools(workspace));
const result = await executeToolCall(registry, { id: "1", name: "grep", arguments: { pattern: "a = 1", output_mode: "count" } });
console.log(workspace.route, result.content);
PROBE
expect_deno() {
  local want=$1
  shift
  local out
  out=$("$deno" run --no-prompt "$@" deno_probe.ts project 2>&1 || true)
  if [ "$out" = "$want {\"counts\":[{\"path\":\"a.ts\",\"count\":1}],\"total\":1,\"truncated\":false,\"skipped\":{\"binary\":0,\"tooLarge\":0,\"unreadable\":0}}" ]; then
    echo "ok   deno run $* → $want"
  else
    echo "FAIL deno run $*: $out"
    status=1
  fi
}
expect_deno handles -A
expect_deno paths --allow-read=project --allow-write=project --allow-env
elapsed
exit $status
