// Which runtime this is, for the arguments that differ between them.
export function runtimeName(): "node" | "deno" | "bun" {
  if (typeof (globalThis as { Deno?: unknown }).Deno === "object") return "deno";
  if (typeof (process.versions as Record<string, string | undefined>).bun === "string") return "bun";
  return "node";
}
