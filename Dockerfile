# `paddock mcp --http` in a container: the npm package @paddock/tools on a Debian base, run as a
# non-root user over a workspace mounted at /workspace. docs/deploy.md says how to run it.
#
#   docker build -t paddock-mcp .
#       installs @paddock/tools from the npm registry on node:22-bookworm-slim (Debian 12)
#   docker build --build-arg PADDOCK_PACKAGE=/context/paddock-tools-0.1.0.tgz -t paddock-mcp .
#       installs a tarball made by `npm pack` and put beside this file (the build context)
#   BASE / INSTALL_BASE: another Debian-based image with Node >= 20.19 (INSTALL_BASE also needs npm;
#       it only installs, nothing of it but the installed package reaches the final image).
ARG BASE=node:22-bookworm-slim
ARG INSTALL_BASE=${BASE}

FROM ${INSTALL_BASE} AS install
ARG PADDOCK_PACKAGE=@paddock/tools@0.1.0
# Only *.tgz and *.crt files of the context come in (.dockerignore): a packed package, and the CA of a
# TLS-intercepting proxy between this build and the registry (npm-ca.crt; used by this stage only).
COPY . /context/
WORKDIR /opt/paddock
# The package and its dependencies only (no dev dependencies, no optional native module, no install scripts).
RUN if [ -f /context/npm-ca.crt ]; then export NODE_EXTRA_CA_CERTS=/context/npm-ca.crt; fi \
 && npm init -y >/dev/null \
 && npm install --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --no-update-notifier "${PADDOCK_PACKAGE}" \
 && node_modules/.bin/paddock --version

FROM ${BASE}
COPY --from=install /opt/paddock/node_modules /opt/paddock/node_modules
# A user with no entry in /etc/passwd and no rights on anything but the mounted workspace.
ENV HOME=/tmp NODE_ENV=production
USER 10001:10001
WORKDIR /workspace
EXPOSE 8080
# The token comes from PADDOCK_MCP_TOKEN (docker run -e, or a Kubernetes Secret) or --token-file.
# 0.0.0.0 inside the container, so that its published port (or the pod's) reaches it; --allowed-host
# names what clients send as Host (docs/deploy.md). --unsandboxed: bubblewrap needs user namespaces,
# which a container does not give; the container is the sandbox (no node_process/shell by default here).
ENTRYPOINT ["node", "/opt/paddock/node_modules/@paddock/tools/bin/paddock.js"]
CMD ["mcp", "--http", "0.0.0.0:8080", "--allow-remote", "--root", "/workspace", "--node-process", "off"]
