/**
 * The tiny forwarder that runs inside a sandbox with an allowlisted network:
 * the sandbox has its own network namespace with loopback only, so the host's
 * egress proxy is reached through a Unix socket bound into it, and this
 * forwarder (run by the host runtime's own executable) makes that socket
 * available as `127.0.0.1:<port>` for clients that only speak TCP proxies.
 *
 * @module
 */

/** Inside the sandbox, the port the forwarder listens on (the sandbox has its own network namespace, so it never clashes). */
export const SANDBOX_PROXY_PORT = 3128;

/** Where the sandbox's folder of proxy files (socket, forwarder script) is bound inside the sandbox. */
export const SANDBOX_PROXY_DIR = "/run/paddock";

/**
 * CommonJS source of the forwarder. Arguments (the last two): the Unix
 * socket path and the TCP port. It prints `ready` on stdout once listening.
 */
export const FORWARDER_SOURCE: string = `"use strict";
const net = require("node:net");
const args = process.argv.slice(-2);
const socketPath = args[0];
const port = Number(args[1]);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const stop = () => { client.destroy(); upstream.destroy(); };
  client.on("error", stop);
  upstream.on("error", stop);
  client.pipe(upstream);
  upstream.pipe(client);
});
server.on("error", (error) => {
  process.stderr.write("paddock sandbox: the proxy forwarder failed: " + (error && error.code) + "\\n");
  process.exit(1);
});
server.listen(port, "127.0.0.1", () => process.stdout.write("ready\\n"));
`;

/**
 * The shell launcher run first inside the sandbox: starts the forwarder in
 * the background, waits for its `ready` line through a FIFO (an exit without
 * it ends the wait at once), then `exec`s the real command (`"$@"`), which
 * becomes the direct child of the sandbox's init; when it exits, the
 * namespace and the forwarder with it are torn down.
 *
 * @param forwarderArgv The forwarder's command line, already shell-quoted.
 * @returns The `sh -c` script.
 */
export function forwarderLauncher(forwarderArgv: string): string {
  return [
    "fifo=/tmp/.paddock-proxy-ready",
    'mkfifo -m 600 "$fifo" || exit 125',
    `${forwarderArgv} > "$fifo" &`,
    'read -r line < "$fifo"',
    'rm -f "$fifo"',
    'if [ "$line" != ready ]; then echo "paddock sandbox: the proxy forwarder did not start" >&2; exit 125; fi',
    'exec "$@"',
  ].join("\n");
}

/** Quotes one word for a POSIX shell. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'"'"'`)}'`;
}
