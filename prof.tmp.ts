import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const [command, ...args] = process.argv.slice(2);
const client = new Client({ name: "p", version: "1" });
await client.connect(new StdioClientTransport({ command, args, stderr: "ignore" }));
const tool = args.includes("mcp") ? "read_file" : "read_text_file";
const p = args.includes("mcp") ? "file.txt" : "/tmp/mcpt/pw/file.txt";
for (let r = 0; r < 3; r++) {
  const t = performance.now();
  for (let i = 0; i < 1000; i++) await client.callTool({ name: tool, arguments: { path: p } });
  console.log(tool, ((performance.now() - t) / 1000).toFixed(3));
}
await client.close();
