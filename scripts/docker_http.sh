#!/usr/bin/env bash
# The container image of `paddock mcp --http` (Dockerfile), built from a packed tarball and run on the
# Docker Engine, then driven over HTTP from the host (scripts/http_smoke.ts):
#
#   bash scripts/docker_http.sh PACKED.tgz
#
# No image registry is reachable here, so the image's base is the engine's local one
# (PADDOCK_SANDBOX_IMAGE: busybox-static and this machine's node, from setup-engine.sh) and the install
# stage's is that image plus this machine's npm; the npm registry is reached from the build with the
# host's network (and the CA of a TLS proxy in between, NODE_EXTRA_CA_CERTS, for that stage only). The
# container runs with the bounds and args of docs/deploy.md's Kubernetes pod, on a port of the host's
# network (the engine runs with --bridge none), over a mounted workspace.
set -euo pipefail
cd "$(dirname "$0")/.."
tarball=$(readlink -f "$1")
base=${PADDOCK_SANDBOX_IMAGE:-paddock/sandbox-node:local}
image=paddock/mcp-http:ci
work=$(mktemp -d)
name=paddock-http-ci-$$
cleanup() {
  docker rm -f "$name" >/dev/null 2>&1 || true
  docker rmi -f "$image" paddock/node-npm:ci >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# 1. The install stage's base: the local image plus npm (a JavaScript package: copied as it is).
mkdir -p "$work/npm-base" "$work/context" "$work/ws"
cp -r "$(dirname "$(readlink -f "$(command -v npm)")")/.." "$work/npm-base/npm"
printf 'FROM %s\nCOPY npm /usr/lib/node_modules/npm\nRUN ln -sf /bin/env /usr/bin/env && ln -s /usr/lib/node_modules/npm/bin/npm-cli.js /usr/bin/npm\n' \
  "$base" >"$work/npm-base/Dockerfile"
docker build -q -t paddock/node-npm:ci "$work/npm-base" >/dev/null

# 2. The image, from the tarball.
cp Dockerfile .dockerignore "$tarball" "$work/context/"
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ] && [ -f "$NODE_EXTRA_CA_CERTS" ]; then cp "$NODE_EXTRA_CA_CERTS" "$work/context/npm-ca.crt"; fi
docker build -q --network host --build-arg BASE="$base" --build-arg INSTALL_BASE=paddock/node-npm:ci \
  --build-arg PADDOCK_PACKAGE="/context/$(basename "$tarball")" -t "$image" "$work/context" >/dev/null
echo "built $image ($(docker images "$image" --format '{{.Size}}'))"

# 3. Run it with the bounds and the args of docs/deploy.md's Kubernetes pod (scripts/deploy_manifest.ts
#    validates that manifest and turns its securityContext, limits and /tmp volume into docker run flags):
#    user 10001, read-only, no capabilities, no privilege escalation, 1 CPU, 1 GiB, a 64 MiB /tmp; on a
#    free port of the host (host network: the engine has no bridge).
chown 10001:10001 "$work/ws"
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' >"$work/token"
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
mapfile -t pod < <(node --import tsx scripts/deploy_manifest.ts --docker "$port")
split=
for i in "${!pod[@]}"; do if [ "${pod[$i]}" = -- ]; then split=$i; fi; done
if [ -z "$split" ]; then echo "scripts/deploy_manifest.ts gave no docker run flags"; exit 1; fi
flags=("${pod[@]:0:split}")
args=("${pod[@]:split+1}")
echo "the pod's bounds: ${flags[*]}"
echo "its args: ${args[*]}"
docker run -d --name "$name" --network host --pids-limit 128 "${flags[@]}" \
  -e PADDOCK_MCP_TOKEN="$(cat "$work/token")" -v "$work/ws:/workspace" \
  "$image" "${args[@]}" >/dev/null
for _ in $(seq 1 100); do
  if docker logs "$name" 2>&1 | grep -q "listening on"; then break; fi
  sleep 0.1
done
docker logs "$name" 2>&1 | tail -1

# 4. Drive it over HTTP from the host; then an orderly stop (exit 0).
node --import tsx scripts/http_smoke.ts "http://127.0.0.1:$port/mcp" "$work/token" "$work/ws"
[ "$(docker exec "$name" id -u)" = 10001 ] && echo "runs as uid 10001"
docker stop -t 10 "$name" >/dev/null
code=$(docker inspect -f '{{.State.ExitCode}}' "$name")
echo "container exited $code"
[ "$code" = 0 ]
