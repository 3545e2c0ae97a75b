/**
 * Git commands that cannot be turned into other code: an allowed `git status`
 * runs `core.fsmonitor`, a `.git` file can point git at a repository outside
 * the workspace, and a repository's config can name programs (pagers, diff
 * drivers, filters, hooks) that git runs. The host shell applies this to
 * every command when `safeGit` is on (the default with an allow list).
 *
 * @module
 */
import { type Host, isHostError } from "../../host.ts";
import { decodeUtf8Lenient } from "../text/utf8.ts";
import { WorkspaceError } from "../errors.ts";
import { GIT_CONFIG_MAX_BYTES } from "../limits.ts";
import { isAbsoluteHostPath, joinHostPath, parentHostPath, segmentsBelow } from "../path/host_path.ts";
import { readRegularFile } from "../fs/read_regular_file.ts";

// Settings forced through the environment (git ≥ 2.31 reads GIT_CONFIG_COUNT),
// which outrank the repository's own config: no fsmonitor program, no hooks,
// no pager, no credential helpers, no `ext::` transport.
const FORCED: ReadonlyArray<readonly [string, string]> = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["credential.helper", ""],
  ["protocol.ext.allow", "never"],
];

// Repository config keys (lower case; `*` one subsection) that make git run a
// program, read another file, or move the work tree: a git command is refused
// while the repository's config holds one. Forced settings are refused too, so
// the message names the key rather than git quietly ignoring it.
const UNSAFE_KEYS: readonly RegExp[] = [
  /^core\.(fsmonitor|hookspath|pager|editor|sshcommand|askpass|gitproxy|worktree|attributesfile|excludesfile)$/,
  /^pager\..+$/,
  /^alias\..+$/,
  /^diff\.external$/,
  /^diff\..+\.(textconv|command)$/,
  /^merge\..+\.driver$/,
  /^filter\..+\.(clean|smudge|process)$/,
  /^sequence\.editor$/,
  /^(gpg|gpg\..+)\.program$/,
  /^credential\.(.+\.)?helper$/,
  /^(include|includeif\..+)\.path$/,
  /^submodule\..+\.update$/,
  /^remote\..+\.(uploadpack|receivepack|vcs)$/,
  /^uploadpack\.packobjectshook$/,
  /^protocol\..+\.allow$/,
];

/**
 * The environment every command gets when `safeGit` is on: the forced
 * settings, no pager or editor, and repository discovery that stops at the
 * workspace root (a workspace without `.git` is not part of a repository above it).
 *
 * @param platform The host's path flavour.
 * @param root The workspace root (canonical).
 * @returns Variables to add to the command's environment.
 */
export function safeGitEnvironment(platform: Host["platform"], root: string): Record<string, string> {
  const env: Record<string, string> = {
    GIT_CONFIG_COUNT: String(FORCED.length),
    GIT_CEILING_DIRECTORIES: parentHostPath(platform, root),
    GIT_PAGER: "cat",
    PAGER: "cat",
    GIT_EDITOR: ":",
    GIT_SEQUENCE_EDITOR: ":",
  };
  FORCED.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * Whether a command line runs git as its program (`git …`, or through an
 * absolute path ending in `/git`). Only such commands are checked by
 * {@link checkGitRepository}; the forced settings apply to every command.
 */
export function runsGit(command: string): boolean {
  return /^\s*(\S*\/)?git(\s|$)/.test(command);
}

/** The key names (lower-cased section and name, subsection as written) a git config file sets. */
export function gitConfigKeys(text: string): string[] {
  const keys: string[] = [];
  let section = "";
  let continued = false;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const wasContinued = continued;
    continued = /(^|[^\\])(\\\\)*\\$/.test(raw);
    if (wasContinued || line === "" || line.startsWith("#") || line.startsWith(";")) continue;
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\]/.exec(line);
    if (header !== null) {
      const [name, ...legacy] = header[1].split(".");
      const sub = header[2] ?? (legacy.length > 0 ? legacy.join(".") : undefined);
      section = name.toLowerCase() + (sub === undefined ? "" : `.${sub}`);
      const rest = line.slice(header[0].length).trim();
      const inline = /^([A-Za-z][A-Za-z0-9-]*)/.exec(rest);
      if (inline !== null) keys.push(`${section}.${inline[1].toLowerCase()}`);
      continue;
    }
    const key = /^([A-Za-z][A-Za-z0-9-]*)\s*(=|$|[#;])/.exec(line);
    if (key !== null && section !== "") keys.push(`${section}.${key[1].toLowerCase()}`);
  }
  return keys;
}

function unsafe(detail: string, hint: string): WorkspaceError {
  return new WorkspaceError("GIT_REPOSITORY_UNSAFE", `Cannot run the git command: ${detail}`, { hint });
}

async function readSmall(host: Host, path: string): Promise<string | null> {
  try {
    const read = await readRegularFile(host, path, GIT_CONFIG_MAX_BYTES);
    if (read.kind === "read") return decodeUtf8Lenient(read.bytes);
    throw unsafe(
      `'${path.split(/[\\/]/).pop()}' in the repository is not a small regular file`,
      "remove it, or run git outside the tools",
    );
  } catch (error) {
    if (error instanceof WorkspaceError) throw error;
    if (isHostError(error, "ENOENT")) return null; // missing: git does not use it either
    // A link (git would follow it out of the workspace), or unreadable.
    throw unsafe(
      `'${path.split(/[\\/]/).pop()}' in the repository cannot be checked (${(error as Error).message})`,
      "make it a regular file inside the workspace",
    );
  }
}

/**
 * Checks the workspace's repository before a git command: `.git` must be a
 * real folder inside the workspace, or a `.git` file (or link) whose target
 * lies inside it, and the repository's own config may hold none of the keys
 * that make git run programs or read other files.
 *
 * @param host The workspace's host.
 * @param root The workspace root (canonical).
 * @throws {WorkspaceError} `GIT_REPOSITORY_UNSAFE`.
 */
export async function checkGitRepository(host: Host, root: string): Promise<void> {
  const dotGit = joinHostPath(host.platform, root, [".git"]);
  const stat = await host.lstat(dotGit).catch(() => null);
  if (stat === null) return; // no repository here; discovery stops at the root
  const inside = (path: string): boolean => segmentsBelow(host.platform, root, path) !== null;
  let gitDir = dotGit;
  if (stat.kind === "symlink" || stat.kind === "file") {
    let target: string;
    if (stat.kind === "symlink") {
      target = await host.realpath(dotGit).catch(() => "");
    } else {
      const text = (await readSmall(host, dotGit)) ?? "";
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec(text)?.[1] ?? "";
      const absolute = isAbsoluteHostPath(host.platform, pointer)
        ? pointer
        : joinHostPath(host.platform, root, [pointer]);
      target = pointer === "" ? "" : await host.realpath(absolute).catch(() => absolute);
    }
    if (target === "" || !inside(target)) {
      throw unsafe(
        "'.git' points to a repository outside the workspace",
        "git runs only on a repository inside the workspace",
      );
    }
    gitDir = target;
  }
  const commonDir = (await readSmall(host, joinHostPath(host.platform, gitDir, ["commondir"])))?.trim();
  if (commonDir) {
    const absolute = isAbsoluteHostPath(host.platform, commonDir)
      ? commonDir
      : joinHostPath(host.platform, gitDir, [commonDir]);
    if (!inside(await host.realpath(absolute).catch(() => absolute))) {
      throw unsafe(
        "the repository's common folder is outside the workspace",
        "git runs only on a repository inside the workspace",
      );
    }
  }
  const config = await readSmall(host, joinHostPath(host.platform, gitDir, ["config"]));
  if (config === null) return;
  const bad = gitConfigKeys(config).find((key) => UNSAFE_KEYS.some((pattern) => pattern.test(key.toLowerCase())));
  if (bad !== undefined) {
    throw unsafe(
      `the repository's config sets '${bad}', which makes git run a program or read another file`,
      "remove that setting from .git/config outside the tools, or run git without the allow list",
    );
  }
}
