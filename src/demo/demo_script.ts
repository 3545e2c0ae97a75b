import { SAMPLE_PROJECT_BUG, SAMPLE_PROJECT_FILES } from "./sample_project.ts";

/** One scripted tool call of the demo, with what the agent says and what must come back. */
export interface DemoStep {
  /** What the scripted agent is doing, for the transcript. */
  say: string;
  /** The tool to call. */
  name: string;
  /** Its arguments. */
  arguments: Record<string, unknown>;
  /** `ok`: a result is expected; `refused`: an error result (or a refused script) is. */
  expect: "ok" | "refused";
  /** A further check on the parsed result; the demo fails when it returns false. */
  check?: (result: Record<string, unknown>) => boolean;
}

/** What the demo script needs to know about the session. */
export interface DemoContext {
  /** Whether a tool is offered. */
  has(name: string): boolean;
  /** A link inside the workspace that points outside it, if one could be made. */
  linkOut?: string;
}

const RUN_TESTS = 'require("./test.js");';
const exitCode = (result: Record<string, unknown>): unknown => result.exitCode;

/**
 * The scripted session of `paddock demo`: look around, run the tests, find
 * the bug, fix it, run the tests again, then try to get out of the workspace
 * and be refused. Steps use the best tool on offer (`list_directory` and
 * `edit_file` when present, `write_file` otherwise), so new tools show up in
 * the demo as they land.
 *
 * @param context Which tools exist, and the link that points out.
 * @returns The steps, in order.
 */
export function demoScript(context: DemoContext): DemoStep[] {
  const steps: DemoStep[] = [];
  if (context.has("list_directory")) {
    steps.push({ say: "Look at the project", name: "list_directory", arguments: { path: "." }, expect: "ok" });
  }
  steps.push(
    { say: "Read the README", name: "read_file", arguments: { path: "README.md" }, expect: "ok" },
    {
      say: "Run the tests",
      name: "node_process",
      arguments: { source: RUN_TESTS },
      expect: "ok",
      check: (result) => exitCode(result) === 1,
    },
  );
  if (context.has("grep")) {
    steps.push({
      say: "A median test fails: find where median sorts",
      name: "grep",
      arguments: { pattern: "sort\\(", path: "src" },
      expect: "ok",
      check: (result) => JSON.stringify(result.matches ?? []).includes(SAMPLE_PROJECT_BUG.before),
    });
  }
  steps.push(
    {
      say: context.has("grep") ? "Read the code around it" : "A median test fails: read the code",
      name: "read_file",
      arguments: { path: SAMPLE_PROJECT_BUG.path },
      expect: "ok",
      check: (result) => String(result.content).includes(SAMPLE_PROJECT_BUG.before),
    },
  );
  if (context.has("edit_file")) {
    steps.push({
      say: "sort() compares numbers as strings: pass a numeric comparator",
      name: "edit_file",
      arguments: {
        path: SAMPLE_PROJECT_BUG.path,
        old_string: SAMPLE_PROJECT_BUG.before,
        new_string: SAMPLE_PROJECT_BUG.after,
      },
      expect: "ok",
    });
  } else {
    steps.push({
      say: "sort() compares numbers as strings: pass a numeric comparator",
      name: "write_file",
      arguments: {
        path: SAMPLE_PROJECT_BUG.path,
        content: SAMPLE_PROJECT_FILES[SAMPLE_PROJECT_BUG.path].replace(
          SAMPLE_PROJECT_BUG.before,
          SAMPLE_PROJECT_BUG.after,
        ),
      },
      expect: "ok",
    });
  }
  steps.push(
    {
      say: "Run the tests again",
      name: "node_process",
      arguments: { source: RUN_TESTS },
      expect: "ok",
      check: (result) => exitCode(result) === 0,
    },
    {
      say: "Try to read a file above the workspace",
      name: "read_file",
      arguments: { path: "../outside/secret.txt" },
      expect: "refused",
    },
    { say: "Try an absolute path", name: "read_file", arguments: { path: "/etc/passwd" }, expect: "refused" },
  );
  if (context.linkOut !== undefined) {
    steps.push(
      {
        say: "Try a link that points outside",
        name: "read_file",
        arguments: { path: context.linkOut },
        expect: "refused",
      },
      {
        say: "Try to write through that link",
        name: "write_file",
        arguments: { path: context.linkOut, content: "overwritten\n" },
        expect: "refused",
      },
    );
  }
  steps.push({
    say: "Try to read outside from a script",
    name: "node_process",
    arguments: {
      source: 'try { require("fs").readFileSync("../outside/secret.txt", "utf8"); console.log("read the secret"); }\n' +
        'catch (error) { console.log("refused: " + (error.code || error.name)); process.exitCode = 3; }',
    },
    expect: "refused",
    check: (result) => exitCode(result) === 3 && !String(result.stdout).includes("read the secret"),
  });
  return steps;
}
