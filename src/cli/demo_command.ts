import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import process from "node:process";
import { AgentExecutor } from "../agent/agent_executor.ts";
import type { ModelProvider } from "../agent/model_provider.ts";
import { openWorkspace } from "../core/fs/open_workspace.ts";
import { demoScript, type DemoStep } from "../demo/demo_script.ts";
import { SAMPLE_PROJECT_FILES } from "../demo/sample_project.ts";
import { createAutoHost } from "../hosts/auto.ts";
import { ToolRegistry } from "../registry/tool_registry.ts";
import { mockModel } from "../testing/mock_model.ts";
import { createCodingTools } from "../tools/coding_tools.ts";
import type { CliIo } from "./cli_io.ts";
import { colorEnabled, type Colors, createColors } from "./colors.ts";
import { parseArgs } from "./parse_args.ts";
import { formatArguments, summarizeResult } from "./summarize_result.ts";
import { UsageError } from "./usage_error.ts";

/** Name of the sample project's folder inside the demo's temp folder. */
const PROJECT_DIR = "tiny-stats";
/** The link the demo plants inside the project, pointing at the secret outside it. */
const LINK_OUT = "docs/secret.txt";

/** The demo's temp folder: the project and, beside it, a secret it must not reach. */
interface DemoFolder {
  parent: string;
  root: string;
  linkOut?: string;
}

function createDemoFolder(): DemoFolder {
  const parent = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "paddock-demo-")));
  const root = path.join(parent, PROJECT_DIR);
  for (const [relative, content] of Object.entries(SAMPLE_PROJECT_FILES)) {
    fs.mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    fs.writeFileSync(path.join(root, relative), content);
  }
  fs.mkdirSync(path.join(parent, "outside"));
  fs.writeFileSync(path.join(parent, "outside", "secret.txt"), "the demo's secret, outside the workspace\n");
  try {
    fs.mkdirSync(path.join(root, "docs"));
    fs.symlinkSync(path.join("..", "..", "outside", "secret.txt"), path.join(root, LINK_OUT));
    return { parent, root, linkOut: LINK_OUT };
  } catch {
    return { parent, root }; // no symbolic links here (e.g. Windows without the privilege): skip that escape
  }
}

/** Removes the demo's temp folder, retrying a removal that meets a folder not yet empty. */
function removeDemoFolder(folder: DemoFolder): void {
  fs.rmSync(folder.parent, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
}

/** Whether a result matches what the step expected. */
function stepPassed(step: DemoStep, isError: boolean, result: Record<string, unknown>): boolean {
  if (isError) return step.expect === "refused";
  return step.check !== undefined ? step.check(result) : step.expect === "ok";
}

/**
 * `paddock demo`: a scripted agent session on a temp copy of the sample
 * project, printed as a transcript. The temp folder is removed afterwards,
 * whatever happens.
 *
 * @param args The arguments after `demo` (none).
 * @param io Where the transcript goes.
 * @returns 0 when every step went as scripted, 1 otherwise.
 */
export async function demoCommand(args: string[], io: CliIo): Promise<number> {
  const { positionals } = parseArgs(args, {});
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (typeof (globalThis as { Bun?: unknown }).Bun !== "undefined") {
    io.stderr(
      "paddock demo: cannot run under Bun: the demo runs the sample project's tests through node_process, " +
        "which needs a runtime with a permission model (Node or Deno)\n",
    );
    return 1;
  }
  const c = createColors(colorEnabled(io.stdoutIsTTY, io.env));
  const folder = createDemoFolder();
  // Interrupted (Ctrl-C, kill): remove the temp folder before going.
  // The removal may meet a write still in flight on the thread pool (a folder not yet empty): it retries,
  // and whatever it meets, the process still exits with the signal's code.
  const interrupted = (signal: NodeJS.Signals) => {
    try {
      removeDemoFolder(folder);
    } finally {
      process.exit(signal === "SIGINT" ? 130 : 143);
    }
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  let outcome: { calls: number; ok: number; refused: number; failed: string[] };
  try {
    const workspace = await openWorkspace(folder.root, { host: createAutoHost() });
    // The sample project's tests start a runtime with permissions; on a busy machine that alone can pass
    // node_process's 500 ms default, so the demo gives its scripts 10 s.
    const registry = new ToolRegistry(
      createCodingTools(workspace, { nodeProcess: { timeoutMs: DEMO_SCRIPT_TIMEOUT_MS } }),
    );
    io.stdout(
      `${c.bold("paddock demo")}: a scripted agent fixes a bug in ${c.bold(PROJECT_DIR)}, a sample project\n` +
        c.dim(`workspace: a temp copy of ${PROJECT_DIR}; tools: ${registry.list().map((t) => t.name).join(", ")}\n\n`),
    );
    outcome = await runSteps(
      demoScript({ has: (name) => registry.has(name), linkOut: folder.linkOut }),
      registry,
      io,
      c,
    );
  } finally {
    // Removed while the handlers are still in place: a signal now still finds them, not the default exit.
    removeDemoFolder(folder);
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
  }
  const removed = !fs.existsSync(folder.parent);
  const good = outcome.failed.length === 0 && removed;
  io.stdout(
    `\n${c.bold("Summary")}: ${outcome.calls} tool calls, ${outcome.ok} results, ` +
      `${outcome.refused} escapes refused; the bug is ${outcome.failed.length === 0 ? "fixed" : "not fixed"} ` +
      `and the temp folder ${removed ? "removed" : "NOT removed"}.\n`,
  );
  if (!good) io.stdout(c.red(`Unexpected: ${outcome.failed.join("; ")}\n`));
  else io.stdout(c.green("Everything happened as scripted: tests fixed, nothing outside the workspace touched.\n"));
  return good ? 0 : 1;
}

/** Milliseconds the demo's `node_process` scripts may run (the sample project's test run). */
const DEMO_SCRIPT_TIMEOUT_MS = 10_000;

/** What the user asks the scripted agent. */
const DEMO_TASK =
  "The tests of tiny-stats fail. Find the bug and fix it, and check that nothing outside the project is reachable.";
/** The scripted agent's closing answer. */
const DEMO_ANSWER =
  "Fixed: median() sorted numbers as strings; it now passes a numeric comparator and all tests pass. " +
  "Every attempt to leave the workspace was refused.";

async function runSteps(
  steps: DemoStep[],
  registry: ToolRegistry,
  io: CliIo,
  c: Colors,
): Promise<{ calls: number; ok: number; refused: number; failed: string[] }> {
  const tally = { calls: 0, ok: 0, refused: 0, failed: [] as string[] };
  const announce = (index: number): void => {
    const step = steps[index];
    const number = String(index + 1).padStart(2, " ");
    io.stdout(`${c.bold(number)} ${step.say}\n   ${c.cyan(step.name)} ${c.dim(formatArguments(step.arguments))}\n`);
  };
  const report = (index: number, result: { isError: boolean; content: string }): void => {
    const step = steps[index];
    const parsed = JSON.parse(result.content) as Record<string, unknown>;
    const passed = stepPassed(step, result.isError, parsed);
    tally.calls++;
    if (step.expect === "refused") tally.refused += passed ? 1 : 0;
    else tally.ok += passed ? 1 : 0;
    if (!passed) tally.failed.push(`step ${index + 1} (${step.say})`);
    const [headline, ...rest] = summarizeResult(step.name, parsed);
    const mark = !passed ? c.red("✗ unexpected:") : step.expect === "refused" ? c.yellow("⊘ refused:") : c.green("✓");
    io.stdout(`   ${mark} ${headline}\n`);
    for (const line of rest) io.stdout(`     ${c.dim(line)}\n`);
  };
  // The scripted model: one tool call per turn, then the closing answer.
  const model = mockModel([
    ...steps.map((step) => ({ text: step.say, toolCalls: [{ name: step.name, args: step.arguments }] })),
    DEMO_ANSWER,
  ]);
  // Prints the transcript as the run goes: each request to the model carries the previous call's result.
  let turn = 0;
  const provider: ModelProvider = {
    async generate(request) {
      const last = request.messages.at(-1);
      if (last?.role === "tool" && turn > 0) report(turn - 1, last);
      const response = await model.generate(request);
      if (turn < steps.length) announce(turn);
      turn++;
      return response;
    },
  };
  io.stdout(`${c.bold("Task")}: ${DEMO_TASK}\n\n`);
  const run = await new AgentExecutor().execute({
    agent: { instructions: "You fix bugs in the workspace with the tools you are given.", maxSteps: steps.length + 1 },
    input: DEMO_TASK,
    provider,
    toolRegistry: registry,
  });
  if (run.finishReason === "stop") io.stdout(`\n${c.bold("Agent")}: ${run.text}\n`);
  else tally.failed.push(`the run ended with '${run.finishReason}'`);
  if (tally.calls !== steps.length) tally.failed.push(`${tally.calls} of ${steps.length} calls ran`);
  return tally;
}
