// Drives a running `paddock mcp --http` over loopback as a client would (the TypeScript SDK's
// StreamableHTTPClientTransport), and checks what lands in the served folder:
//
//   tsx scripts/http_smoke.ts URL TOKEN_FILE WORKSPACE
//
// Used by .ci/run against the container image (docs/deploy.md). Exits 1 with a reason on any mismatch.
import * as fs from "node:fs";
import * as path from "node:path";
import process from "node:process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, tokenFile, workspace] = process.argv.slice(2);
if (workspace === undefined || !/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\//.test(url)) {
  console.error("usage: tsx scripts/http_smoke.ts http://127.0.0.1:PORT/mcp TOKEN_FILE WORKSPACE (loopback only)");
  process.exit(2);
}
const token = fs.readFileSync(tokenFile, "utf8").trim();

function check(ok: boolean, what: string): void {
  if (!ok) {
    console.error(`http smoke: FAILED: ${what}`);
    process.exit(1);
  }
  console.log(`http smoke: ok: ${what}`);
}

// 1. The readiness probe, then a request without the token.
check((await fetch(new URL("/healthz", url))).status === 200, "GET /healthz answers 200");
const refused = await fetch(url, {
  method: "POST",
  headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
});
check(
  refused.status === 401 && (refused.headers.get("www-authenticate") ?? "").startsWith("Bearer"),
  "no token: 401 Bearer",
);

// 2. A session: the tools, a write that lands in the mounted folder, a read of it, its end.
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "paddock-http-smoke", version: "1" });
await client.connect(transport);
const { tools } = await client.listTools();
check(
  tools.some((tool) => tool.name === "read_file") && tools.some((tool) => tool.name === "edit_file"),
  `${tools.length} tools listed`,
);
const text = (result: unknown) => JSON.parse((result as { content: { text: string }[] }).content[0].text);
const written = text(
  await client.callTool({
    name: "write_file",
    arguments: { path: "smoke/hello.txt", content: "from the container\n" },
  }),
);
check(written.path === "smoke/hello.txt", "write_file answered");
check(
  fs.readFileSync(path.join(workspace, "smoke", "hello.txt"), "utf8") === "from the container\n",
  "the bytes are in the mounted folder",
);
const read = text(await client.callTool({ name: "read_file", arguments: { path: "smoke/hello.txt" } }));
check(read.content === "from the container\n", "read_file reads them back");
const escape = text(await client.callTool({ name: "read_file", arguments: { path: "../etc/passwd" } }));
check(escape.error?.code === "TOOL_ARGUMENTS_INVALID", "a path out of the workspace is refused");
await transport.terminateSession();
await client.close();
check(true, "session ended with DELETE");
