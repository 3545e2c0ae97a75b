// Run by Bun as another user (through `setpriv`) from test/sandbox_owner.test.ts: one command in a
// sandboxed shell over the workspace given, as that user's agent would run it. Prints the result as JSON.
import { BubblewrapSandbox, SandboxShell, SubprocessSandbox } from "../../sandbox.ts";

const request = JSON.parse(process.argv[2]) as {
  backend: "bubblewrap" | "container";
  root: string;
  command: string;
  image: string;
  socketPath: string;
  readOnly?: string[];
};
const sandbox = request.backend === "bubblewrap"
  ? new BubblewrapSandbox({ readOnly: request.readOnly ?? [] })
  : new SubprocessSandbox({ image: request.image, socketPath: request.socketPath, network: "none" });
try {
  const shell = new SandboxShell(sandbox, { cwd: request.root });
  const result = await shell.exec({ command: request.command, timeoutMs: 150_000, maxOutputBytes: 1_048_576 });
  console.log(JSON.stringify({ uid: process.getuid?.(), result }));
} finally {
  await sandbox.close();
}
