/** Longest string argument shown in full in the transcript. */
const MAX_SHOWN_STRING = 60;
/** Lines of script output shown per call. */
const MAX_SHOWN_LINES = 8;

/** Compact JSON of call arguments, long strings shortened. */
export function formatArguments(args: Record<string, unknown>): string {
  return JSON.stringify(args, (_key, value: unknown) => {
    if (typeof value === "string" && value.length > MAX_SHOWN_STRING) {
      return `${value.slice(0, MAX_SHOWN_STRING - 1)}… (${value.length} chars)`;
    }
    return value;
  });
}

/**
 * A short, readable account of one result: the error code for an error,
 * otherwise what the tool did (bytes read, exit code and output, entries).
 *
 * @param toolName The tool called.
 * @param result The parsed result JSON.
 * @returns Lines to print (the first is the headline).
 */
export function summarizeResult(toolName: string, result: Record<string, unknown>): string[] {
  const error = result.error as { code?: string; message?: string } | undefined;
  if (error !== undefined) {
    const detail = error.code === "TOOL_ARGUMENTS_INVALID" ? String(error.message) : String(error.message);
    return [`${error.code}: ${detail}`];
  }
  if (toolName === "node_process" || typeof result.exitCode !== "undefined") {
    const lines = [`exit code ${String(result.exitCode)}${result.timedOut === true ? " (timed out)" : ""}`];
    const output = `${String(result.stdout ?? "")}${String(result.stderr ?? "")}`.trimEnd();
    const outputLines = output === "" ? [] : output.split("\n");
    lines.push(...outputLines.slice(0, MAX_SHOWN_LINES).map((line) => `│ ${line}`));
    if (outputLines.length > MAX_SHOWN_LINES) lines.push(`│ … ${outputLines.length - MAX_SHOWN_LINES} more lines`);
    return lines;
  }
  if (typeof result.content === "string") {
    const lineCount = result.content.split("\n").length - (result.content.endsWith("\n") ? 1 : 0);
    return [`${String(result.bytes ?? result.content.length)} bytes, ${lineCount} lines`];
  }
  if (Array.isArray(result.entries)) {
    const names = result.entries.map((entry: unknown) => {
      if (typeof entry === "string") return entry;
      const { name, path, kind, type } = entry as Record<string, unknown>;
      const label = String(name ?? path ?? "?");
      if (kind === "directory" || type === "directory") return `${label}/`;
      return kind === "symlink" || type === "symlink" ? `${label}@` : label;
    });
    return [`${names.length} entries: ${names.join(", ")}`];
  }
  if (Array.isArray(result.matches)) {
    // grep: one line per match.
    const matches = result.matches as { path?: unknown; line?: unknown; text?: unknown }[];
    return [
      `${matches.length} match${matches.length === 1 ? "" : "es"}${
        result.truncated === true ? " (more not shown)" : ""
      }`,
      ...matches.slice(0, MAX_SHOWN_LINES).map((match) =>
        `│ ${String(match.path)}:${String(match.line)}: ${String(match.text).trim()}`
      ),
    ];
  }
  if (toolName === "apply_patch" && Array.isArray(result.files)) {
    // apply_patch: one line per file.
    const files = result.files as {
      path?: unknown;
      action?: unknown;
      destination?: unknown;
      added?: unknown;
      removed?: unknown;
    }[];
    return [
      `${files.length} file${files.length === 1 ? "" : "s"} patched`,
      ...files.slice(0, MAX_SHOWN_LINES).map((file) =>
        `│ ${String(file.action)} ${String(file.path)}${
          file.destination === undefined ? "" : ` → ${String(file.destination)}`
        } (+${String(file.added)} -${String(file.removed)})`
      ),
    ];
  }
  if (typeof result.diff === "string") {
    // edit_file: the change itself, as a unified diff without its file headers.
    const changed = result.diff.split("\n").filter((line) => /^[-+@]/.test(line) && !/^(---|\+\+\+) /.test(line));
    const count = typeof result.replacements === "number" ? result.replacements : changed.length;
    return [
      `${count} replacement${count === 1 ? "" : "s"}, ${String(result.bytes)} bytes`,
      ...changed.slice(0, MAX_SHOWN_LINES).map((line) => `│ ${line}`),
    ];
  }
  if (toolName === "write_file" && typeof result.bytes === "number") return [`wrote ${result.bytes} bytes`];
  const text = JSON.stringify(result);
  return [text.length > 100 ? `${text.slice(0, 99)}…` : text];
}
