// A shell tool whose commands run in a bubblewrap sandbox: only the workspace is writable, no network.
// Run (Linux with bwrap): npx tsx examples/sandboxed-shell.ts ./project
import * as fs from "node:fs";
import * as path from "node:path";
import { createShellTool } from "@paddock/tools";
import { BubblewrapSandbox, SandboxShell } from "@paddock/tools/sandbox";

const root = path.resolve(process.argv[2] ?? ".");
const sandbox = new BubblewrapSandbox({ network: "none" });
await sandbox.check(); // throws SANDBOX_UNAVAILABLE when bwrap cannot run here
const shell = createShellTool(new SandboxShell(sandbox, { cwd: root }), { needsApproval: false });
const inside = await shell.execute({ command: "ls src && echo hi > note.txt && cat note.txt" });
await shell.execute({ command: "echo leaked > /tmp/paddock-example.txt" }); // the sandbox's /tmp is its own
console.log(inside.stdout.trim().split("\n"), fs.existsSync("/tmp/paddock-example.txt")); // [ 'a.ts', 'hi' ] false
await sandbox.close();
