import type * as z from "zod";
import { WorkspaceError } from "../core/errors.ts";

/**
 * Parses `args` against `schema`, turning the first problem into a
 * `INVALID_ARGUMENTS` error whose hint names the property.
 */
export function parseArguments<Schema extends z.ZodType>(schema: Schema, args: unknown): z.infer<Schema> {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    throw new WorkspaceError("INVALID_ARGUMENTS", "Invalid arguments: expected a JSON object", {
      hint: "pass the arguments as a JSON object with the properties the schema lists",
    });
  }
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join(".") : "(arguments)";
  let hint: string;
  if (issue.code === "unrecognized_keys") hint = `unknown property ${issue.keys.map((key) => `'${key}'`).join(", ")}`;
  else if (issue.code === "invalid_type" && valueAt(args, issue.path) === undefined) {
    hint = `missing property '${where}'`;
  } else if (issue.code === "invalid_type") hint = `property '${where}': expected ${issue.expected}`;
  else hint = `property '${where}': ${issue.message}`;
  throw invalidArguments(hint);
}

/**
 * The `INVALID_ARGUMENTS` error for a problem the schema cannot express; the
 * hint, which names the property, is also the end of the message.
 *
 * @param hint What is wrong, e.g. "missing property 'new_string'".
 * @returns The error to throw from a tool's `prepare`.
 */
export function invalidArguments(hint: string): WorkspaceError {
  return new WorkspaceError("INVALID_ARGUMENTS", `Invalid arguments: ${hint}`, { hint });
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, key)) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}
