// Runs one sandboxed command as an agent started as another uid would: Bun, through `setpriv`, runs
// test/helpers/sandbox_as_user.ts, which makes the sandbox and the shell itself. `wrapper` goes between
// setpriv and Bun (e.g. `keyctl session -` to give that agent a session keyring of its own).
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";

/** What the helper printed: the agent's uid and the shell's result. */
export interface AgentRun {
  uid: number;
  result: { exitCode: number; stdout: string; stderr: string };
}

/**
 * Runs `command` in a bubblewrap sandbox over `root`, from an agent running as `uid:uid`.
 *
 * @param uid The agent's uid and gid.
 * @param home A folder for the agent's HOME and TMPDIR (given to `uid`; removed after).
 */
export async function runAgentAs(
  uid: number,
  home: string,
  request: { root: string; command: string; readOnly?: string[] },
  wrapper: readonly string[] = [],
): Promise<AgentRun> {
  fs.mkdirSync(home, { recursive: true });
  fs.chownSync(home, uid, uid);
  try {
    const bun = fs.realpathSync("node_modules/.bin/bun");
    const helper = path.resolve("test/helpers/sandbox_as_user.ts");
    const body = JSON.stringify({ backend: "bubblewrap", image: "", socketPath: "", ...request });
    const argv = [
      "--reuid",
      String(uid),
      "--regid",
      String(uid),
      "--clear-groups",
      "--",
      ...wrapper,
      bun,
      helper,
      body,
    ];
    const stdout = await new Promise<string>((resolve, reject) =>
      execFile(
        "setpriv",
        argv,
        {
          env: { PATH: "/usr/local/bin:/usr/bin:/bin", HOME: home, TMPDIR: home },
          encoding: "utf8",
          timeout: 170_000,
          maxBuffer: 4_194_304,
        },
        (error, out, err) => (error ? reject(new Error(`${error.message}\n${err}`)) : resolve(out)),
      )
    );
    return JSON.parse(stdout.trim().split("\n").at(-1) as string) as AgentRun;
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/**
 * Why another user cannot reach `file` (a folder above it not searchable by others, as under a 0700
 * `mktemp -d` clone), or undefined when every folder above it is.
 */
export function unreachableByOthers(file: string): string | undefined {
  for (let dir = path.dirname(fs.realpathSync(file));; dir = path.dirname(dir)) {
    if ((fs.statSync(dir).mode & 0o001) === 0) {
      return `another user cannot reach ${
        path.basename(file)
      } (${dir} is not searchable by others): clone under a 0755 folder`;
    }
    if (dir === path.dirname(dir)) return undefined;
  }
}

/**
 * Why an agent cannot be run as another uid here, or undefined when it can: not root, no `setpriv`, or a
 * checkout another user cannot reach (Bun and the helper live in it).
 */
export function agentAsUserSkipReason(asRoot: boolean, hasSetpriv: boolean): string | undefined {
  if (!asRoot) return "not root";
  if (!hasSetpriv) return "setpriv is not installed (util-linux)";
  return unreachableByOthers("test/helpers/sandbox_as_user.ts") ?? unreachableByOthers("node_modules/.bin/bun");
}
