/**
 * The shape a JSON-RPC request must have before the MCP SDK sees it: a
 * request the SDK cannot parse gets no reply at all from it, and a
 * `tools/call` whose `name` or `arguments` has the wrong type gets an
 * internal error carrying a validation dump. Both get a one-line
 * "Invalid params" (-32602) here instead.
 *
 * @module
 */

/** JSON-RPC's code for parameters of the wrong shape. */
export const INVALID_PARAMS = -32602;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What is wrong with a request's parameters, or `null` when nothing is:
 * `params`, when given, is an object; its `_meta`, when given, is an object
 * whose `progressToken`, when given, is a string or an integer; a
 * `tools/call` names its tool with a string and passes its `arguments`, when
 * given, as an object.
 *
 * @param method The request's method.
 * @param params Its `params` member (`undefined` when absent).
 * @returns The problem in one line, or `null`.
 *
 * @example
 * ```ts
 * import { requestShapeProblem } from "./request_shape.ts";
 * requestShapeProblem("tools/call", { name: "read_file", arguments: [] });
 * // "params.arguments must be an object"
 * ```
 */
export function requestShapeProblem(method: string, params: unknown): string | null {
  if (params === undefined) return method === "tools/call" ? "params must be an object" : null;
  if (!isObject(params)) return "params must be an object";
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isObject(meta)) return "params._meta must be an object";
    const token = meta.progressToken;
    if (token !== undefined && typeof token !== "string" && !Number.isSafeInteger(token)) {
      return "params._meta.progressToken must be a string or an integer";
    }
  }
  if (method === "tools/call") {
    if (typeof params.name !== "string") return "params.name must be a string";
    if (params.arguments !== undefined && !isObject(params.arguments)) return "params.arguments must be an object";
  }
  return null;
}
