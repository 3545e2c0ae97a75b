/**
 * The `outputSchema` of each built-in tool, as `tools/list` advertises it:
 * the tool's result object, or Paddock's error body — `structuredContent`
 * carries either, and an MCP client checks it against this schema. Extra
 * properties are allowed, so a field added to a result later does not break
 * a client that validates. Tools of one's own advertise none.
 *
 * @module
 */

type Schema = Record<string, unknown>;

const string: Schema = { type: "string" };
const integer: Schema = { type: "integer" };
const boolean: Schema = { type: "boolean" };
const kind: Schema = { type: "string", enum: ["file", "directory", "symlink", "other"] };

/** An object with `required` properties (each of `properties` may also appear). */
function object(required: Record<string, Schema>, optional: Record<string, Schema> = {}): Schema {
  return { type: "object", properties: { ...required, ...optional }, required: Object.keys(required) };
}

/** `{ error: { code, message, hint?, details? } }`, the body of every failed call. */
const ERROR: Schema = object({ code: string, message: string }, { hint: string, details: { type: "object" } });
const ERROR_BODY: Schema = object({ error: ERROR });

const PROCESS_RESULT: Record<string, Schema> = {
  exitCode: { type: ["integer", "null"] },
  signal: { type: ["string", "null"] },
  stdout: string,
  stderr: string,
  stdoutTruncated: boolean,
  stderrTruncated: boolean,
};

/** What a background start adds to shell's and node_process's result. */
const STARTED: Record<string, Schema> = { process_id: string, status: { type: "string", enum: ["running"] } };

const BACKGROUND_OUTPUT: Schema = object({
  process_id: string,
  status: { type: "string", enum: ["running", "exited"] },
  ...PROCESS_RESULT,
  stdoutDroppedBytes: integer,
  stderrDroppedBytes: integer,
  timedOut: boolean,
  killed: boolean,
});

const GREP_BASE: Record<string, Schema> = {
  truncated: boolean,
  skipped: object({ binary: integer, tooLarge: integer, unreadable: integer }),
};
/** Present when the search left private paths out (their count). */
const GREP_OPTIONAL: Record<string, Schema> = { privateLeftOut: integer };

const READ_FILE: Schema = object({ path: string, content: string, bytes: integer }, {
  startLine: integer,
  endLine: integer,
  totalLines: integer,
  hasMore: boolean,
  nextOffset: { type: ["integer", "null"] },
  fileBytes: integer,
  lineCut: boolean,
});

const RESULTS: Readonly<Record<string, Schema>> = {
  read_file: READ_FILE,
  read_multiple_files: object({
    files: { type: "array", items: { anyOf: [READ_FILE, object({ path: string, error: ERROR })] } },
  }),
  write_file: object({ path: string, bytes: integer }),
  edit_file: object({
    path: string,
    replacements: integer,
    fuzzy: boolean,
    dryRun: boolean,
    bytes: integer,
    diff: string,
  }, {
    diffTruncated: boolean,
  }),
  apply_patch: object({
    files: {
      type: "array",
      items: object({
        path: string,
        action: { type: "string", enum: ["added", "updated", "moved", "deleted"] },
        added: integer,
        removed: integer,
      }, { destination: string }),
    },
  }),
  list_directory: object({
    path: string,
    entries: { type: "array", items: object({ name: string, kind }, { size: integer }) },
    total: integer,
    truncated: boolean,
  }, { privateLeftOut: integer }),
  read_media_file: object({
    path: string,
    kind: { type: "string", enum: ["image", "audio"] },
    mimeType: string,
    bytes: integer,
  }, {
    data: string,
  }),
  directory_tree: object({
    path: string,
    tree: { type: "array", items: object({ name: string, kind }, { children: { type: "array" } }) },
    entries: integer,
    truncated: boolean,
    depthLimited: boolean,
  }, { privateLeftOut: integer }),
  get_file_info: object({ path: string, kind, modified: string, mode: string, permissions: string }, {
    resolvedPath: string,
    size: integer,
    created: string,
  }),
  list_allowed_directories: object({
    roots: { type: "array", items: object({ name: string, prefix: string, default: boolean }) },
  }),
  find_files: object({ paths: { type: "array", items: string }, truncated: boolean }, {
    walkLimitReached: boolean,
    privateLeftOut: integer,
  }),
  grep: {
    type: "object",
    anyOf: [
      object({
        ...GREP_BASE,
        matches: {
          type: "array",
          items: object({ path: string, line: integer, column: integer, text: string }, {
            cut: boolean,
            before: { type: "array", items: string },
            after: { type: "array", items: string },
          }),
        },
      }, GREP_OPTIONAL),
      object({ ...GREP_BASE, files: { type: "array", items: string } }, GREP_OPTIONAL),
      object({
        ...GREP_BASE,
        counts: { type: "array", items: object({ path: string, count: integer }) },
        total: integer,
      }, GREP_OPTIONAL),
    ],
  },
  delete_path: object({ path: string, kind, removed: integer }),
  move_path: object({ source: string, destination: string, kind, overwritten: boolean }),
  create_directory: object({ path: string, created: boolean }),
  undo_last_change: object({
    complete: boolean,
    changes: {
      type: "array",
      items: object({ path: string, change: string, status: string }, { from: string, code: string, message: string }),
    },
  }),
  node_process: object({ ...PROCESS_RESULT, timedOut: boolean }, STARTED),
  shell: object(PROCESS_RESULT, STARTED),
  process_output: {
    type: "object",
    anyOf: [
      BACKGROUND_OUTPUT,
      object({
        process_id: string,
        stream: string,
        status: { type: "string", enum: ["running", "exited"] },
        totalLines: integer,
        firstKeptLine: integer,
      }, {
        lines: { type: "array", items: object({ line: integer, text: string }) },
        nextOffset: { type: ["integer", "null"] },
        matches: { type: "array", items: object({ line: integer, text: string }) },
        truncated: boolean,
      }),
    ],
  },
  process_kill: BACKGROUND_OUTPUT,
  process_input: object({ process_id: string, bytes: integer, unsentBytes: integer }),
  process_list: object({
    processes: {
      type: "array",
      items: object({
        process_id: string,
        tool: string,
        command: string,
        status: { type: "string", enum: ["running", "exited"] },
        started: string,
      }),
    },
  }),
};

/**
 * The output schema of a built-in tool (by its default name): its result or
 * the error body.
 *
 * @param name The tool's name.
 * @returns The schema, or `undefined` for a tool Paddock does not know.
 */
export function outputSchemaOf(name: string): Schema | undefined {
  const result = Object.hasOwn(RESULTS, name) ? RESULTS[name] : undefined;
  return result === undefined ? undefined : { type: "object", anyOf: [result, ERROR_BODY] };
}
