import { VERSION } from "../version.ts";

/** Help for each subcommand, and for `paddock` itself (key `""`). */
export const HELP: Readonly<Record<string, string>> = Object.freeze({
  "": `paddock ${VERSION}: coding tools for AI agents, confined to one workspace folder

Usage:
  paddock mcp --root DIR [--root DIR]... [--read-only] [--node-process on|off] [--node-process-timeout MS] [--stale-write-guard on|off] [--warm-up on|off] [--shell off|ask|allow:PATTERN]... [--unsandboxed] [--private PATTERN]...
  paddock mcp --http [HOST:]PORT (--token-file FILE | --oauth-issuer URL --oauth-audience AUD) (--root DIR | --root-per-session DIR) [options]
  paddock call TOOL JSON [--root DIR] [--read-only]
  paddock demo

Commands:
  mcp     Serve the tools to an MCP client over stdio (or Streamable HTTP with --http)
  call    Run one tool call and print its JSON result
  demo    Watch a scripted agent fix a bug in a sample project, in a temp folder

Options everywhere:
  -h, --help       Show help
  -V, --version    Show the version

Run 'paddock COMMAND --help' for a command's options.
`,
  mcp: `Usage: paddock mcp [options]

Serves the Paddock tools over the Model Context Protocol on stdin/stdout.
Only protocol messages are written to stdout; diagnostics go to stderr.

Options:
  --root DIR              Workspace folder (required); nothing outside it is reachable.
                          Repeat to serve more folders: paths name the first; another
                          folder is NAME:path (NAME is its folder name; list_allowed_directories).
                          Roots sent by the client may narrow them, never widen them.
  --allow-broad-root      Allow --root to be the filesystem root or your home folder (prints a warning)
  --read-only             Offer only the tools that change nothing
  --node-process on|off   Offer node_process (default: on), run in the OS sandbox (bubblewrap)
  --node-process-timeout MS
                          node_process's time limit per script (default: 500)
  --stale-write-guard on|off
                          write_file, edit_file and apply_patch refuse an existing file not read in
                          this session (FILE_NOT_READ) or changed since (FILE_CHANGED_SINCE_READ) (default: on)
  --warm-up on|off        Once the client's handshake is done, search the first root in the background for
                          2 s at most (ended by the first call), so the first grep is not slowed by the
                          runtime's first runs (default: on)
  --shell off|ask|allow:PATTERN
                          Offer the shell tool: off (default); ask, approving each command through
                          MCP elicitation (refused with APPROVAL_UNAVAILABLE when the client cannot ask);
                          allow:PATTERN runs matching commands only (repeat for more patterns).
                          Commands run in the OS sandbox (bubblewrap)
  --private PATTERN       A path no file tool reads, lists, searches or changes (PATH_PRIVATE), in every
                          root: a name or glob (.env, .env.*) at any depth, or FOLDER/** (secrets/**);
                          repeat for more. In the OS sandbox commands see each as an empty file or
                          folder; with --unsandboxed they are not held by it
  --unsandboxed           Where no OS sandbox works (not Linux, no bwrap, no user namespaces):
                          offer node_process anyway, confined only by the runtime's permissions
                          (it can follow links out of the workspace, reach the network on Node and
                          signal the agent), and run --shell commands unconfined, with your rights.
                          Without it, node_process is left out there and --shell is refused

Over HTTP (Streamable HTTP at /mcp; each session gets its own tool state):
  --http [HOST:]PORT      Listen there instead of stdio (HOST defaults to 127.0.0.1)
  --allow-remote          Allow a HOST that is not a loopback address (put a TLS proxy in front)
  --token-file FILE       The bearer token every request must send (or PADDOCK_MCP_TOKEN);
                          at least 32 characters, e.g. openssl rand -hex 32
  --oauth-issuer URL      Accept OAuth access tokens (JWTs) of this issuer instead of a token
  --oauth-audience AUD    ... for this audience (this server's resource URL)
  --oauth-jwks URL        The issuer's key set (default: from its metadata)
  --insecure-no-auth      No token at all; loopback only (for the conformance suite)
  --root-per-session DIR  Give each session a fresh folder under DIR (instead of --root),
                          removed when the session ends
  --keep                  Keep each session's folder after it ends
  --allowed-host NAME     Accept this Host header too (a proxy's public name; repeatable)
  --allowed-origin URL    Accept this Origin too (a browser client's; repeatable)

  -h, --help              Show this help
  -V, --version           Show the version
`,
  call: `Usage: paddock call TOOL JSON [options]

Runs one tool call and prints the result JSON on stdout.
Exit code: 0 for a result, 1 for an error result, 2 for a usage error.

Example:
  paddock call read_file '{"path":"README.md"}'

Options:
  --root DIR       Workspace folder (default: the current folder)
  --read-only      Offer only the tools that change nothing
  -h, --help       Show this help
  -V, --version    Show the version
`,
  demo: `Usage: paddock demo

Copies a small sample project into a temp folder and runs a scripted agent
session on it: it looks around, runs the tests, finds a bug, fixes it, runs the
tests again, and tries to escape the workspace (refused). The temp folder is
removed afterwards. Colour is used on a terminal unless NO_COLOR is set.

Options:
  -h, --help       Show this help
  -V, --version    Show the version
`,
});
