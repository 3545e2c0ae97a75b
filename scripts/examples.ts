// Runs every program in examples/ with no network: the OpenAI, Anthropic and AI SDK loops
// against a local fake server (node:http on 127.0.0.1, answering the SDK's endpoint
// with a scripted tool call, then an answer), the custom agent on mockModel, the sandboxed
// shell where bwrap is; then checks each MCP config in examples/mcp-config/ is
// valid JSON naming `npx -y @paddock/tools mcp --root …` and that the same arguments
// start the server (initialize + tools/list + read_file over stdio).
//   npm run examples                 from this checkout (@paddock/tools resolved to the sources)
//   tsx scripts/examples.ts --dir D  from a folder D where the package is installed and its examples/ copied
//                                    (scripts/examples_from_tarball.sh): the MCP configs then run as written, npx and all
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repo = path.resolve(import.meta.dirname, "..");
const tsx = path.join(repo, "node_modules/.bin/tsx");
const dirFlag = process.argv.indexOf("--dir");
/** Where the examples run: this checkout, or a folder with the package installed. */
const home = dirFlag < 0 ? repo : path.resolve(process.argv[dirFlag + 1]);
const fromCheckout = home === repo;
const MATH = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const RUN_TIMEOUT_MS = 60_000;
let failures = 0;
let passes = 0;

function check(name: string, ok: boolean, detail = ""): void {
  if (ok) passes += 1;
  else failures += 1;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${ok || detail === "" ? "" : `\n${detail}`}`);
}

/** A fake model endpoint: the first request gets a read_file call, the next one the answer; bodies are kept. */
async function fakeServer(
  reply: (turn: number) => unknown,
): Promise<{ url: string; bodies: Record<string, unknown>[]; close: () => Promise<void> }> {
  const bodies: Record<string, unknown>[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      bodies.push(JSON.parse(body));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply(bodies.length)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => new Promise((r) => server.close(() => r())) };
}

function run(
  file: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(tsx, [...(fromCheckout ? ["--tsconfig", "tsconfig.examples.json"] : []), file, ...args], {
      cwd: home,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: RUN_TIMEOUT_MS,
    });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("close", (code) => resolve({ code, out }));
  });
}

const project = fs.mkdtempSync(path.join(os.tmpdir(), "paddock-examples-"));
fs.mkdirSync(path.join(project, "src"));
fs.writeFileSync(path.join(project, "src/math.ts"), MATH);
const ANSWER = "src/math.ts exports add().";

try {
  const chatCompletions = (turn: number) => ({
    id: `chatcmpl-${turn}`,
    object: "chat.completion",
    created: 0,
    model: "gpt-4.1",
    choices: [{
      index: 0,
      finish_reason: turn === 1 ? "tool_calls" : "stop",
      logprobs: null,
      message: turn === 1
        ? {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [{
            id: "call_1",
            type: "function",
            function: { name: "read_file", arguments: '{"path":"src/math.ts"}' },
          }],
        }
        : { role: "assistant", content: ANSWER, refusal: null },
    }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  });
  {
    const server = await fakeServer(chatCompletions);
    const { code, out } = await run("examples/openai-chat.ts", [project], {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    await server.close();
    const second = JSON.stringify(server.bodies[1] ?? {});
    check("examples/openai-chat.ts", code === 0 && out.trim() === ANSWER && second.includes("return a + b"), out);
  }
  {
    const server = await fakeServer((turn) => ({
      id: `msg_${turn}`,
      type: "message",
      role: "assistant",
      model: "claude-sonnet-4-5",
      stop_reason: turn === 1 ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 1, output_tokens: 1 },
      content: turn === 1
        ? [{ type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "src/math.ts" } }]
        : [{ type: "text", text: ANSWER }],
    }));
    const { code, out } = await run("examples/anthropic-messages.ts", [project], {
      ANTHROPIC_API_KEY: "sk-ant-test",
      ANTHROPIC_BASE_URL: server.url,
    });
    await server.close();
    const second = JSON.stringify(server.bodies[1] ?? {});
    check(
      "examples/anthropic-messages.ts",
      code === 0 && out.trim() === ANSWER && second.includes("return a + b"),
      out,
    );
  }
  {
    const server = await fakeServer(chatCompletions);
    const { code, out } = await run("examples/ai-sdk-generate-text.ts", [project], {
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: `${server.url}/v1`,
    });
    await server.close();
    const second = JSON.stringify(server.bodies[1] ?? {});
    check(
      "examples/ai-sdk-generate-text.ts",
      code === 0 && out.trim() === `2 steps: ${ANSWER}` && second.includes("return a + b"),
      out,
    );
  }
  {
    const { code, out } = await run("examples/custom-agent-approvals.ts", []);
    check(
      "examples/custom-agent-approvals.ts",
      code === 0 && out.includes("approve shell") && out.includes("[ 'npm test' ] true"),
      out,
    );
  }
  if (fs.existsSync("/usr/bin/bwrap") || fs.existsSync("/bin/bwrap")) {
    const { code, out } = await run("examples/sandboxed-shell.ts", [project]);
    if (code !== 0 && out.includes("SANDBOX_UNAVAILABLE")) {
      console.log(`skip examples/sandboxed-shell.ts: bwrap cannot run here\n${out}`);
    } else {
      check("examples/sandboxed-shell.ts", code === 0 && out.trim() === "[ 'math.ts', 'hi' ] false", out);
    }
  } else {
    console.log("skip examples/sandboxed-shell.ts: no bwrap on this machine (apt-get install bubblewrap)");
  }
  const configs = ["claude_desktop_config.json", ".cursor/mcp.json", ".vscode/mcp.json"];
  for (const config of configs) {
    const name = `examples/mcp-config/${config}`;
    let problem = "";
    try {
      const json = JSON.parse(fs.readFileSync(path.join(home, name), "utf8"));
      const servers = json.mcpServers ?? json.servers;
      const entry = servers?.paddock;
      const args: string[] = entry?.args ?? [];
      if (entry?.command !== "npx" || args.slice(0, 3).join(" ") !== "-y @paddock/tools mcp") {
        throw new Error(`expected "npx" with ["-y", "@paddock/tools", "mcp", …], got ${JSON.stringify(entry)}`);
      }
      // The same arguments, the --root pointed at a real folder, started from this checkout.
      const served = args.slice(3).map((arg, i, all) => (all[i - 1] === "--root" ? project : arg));
      const client = new Client({ name: "examples", version: "0" });
      // From the checkout its CLI through tsx; from an installed package the command as written (npx finds the
      // package's own bin in the folder's node_modules: no network).
      await client.connect(
        new StdioClientTransport(
          fromCheckout
            ? { command: tsx, args: [path.join(repo, "cli.ts"), "mcp", ...served], stderr: "ignore" }
            : { command: "npx", args: [...args.slice(0, 3), ...served], cwd: home, stderr: "ignore" },
        ),
      );
      const { tools } = await client.listTools();
      const read = await client.callTool({ name: "read_file", arguments: { path: "src/math.ts" } });
      await client.close();
      if (!tools.some((t) => t.name === "read_file") || !JSON.stringify(read).includes("return a + b")) {
        throw new Error(`the server did not list or run read_file: ${JSON.stringify(read)}`);
      }
    } catch (error) {
      problem = String(error);
    }
    check(name, problem === "", problem);
  }
} finally {
  fs.rmSync(project, { recursive: true, force: true });
}
if (!fromCheckout) console.log(`(the examples of the package installed in ${home})`);
console.log(`examples: ${passes} passed, ${failures} failed`);
process.exitCode = failures === 0 ? 0 : 1;
