import * as z from "zod";
import { defineTool, type Tool } from "../../mod.ts";

/** A tool whose calls all wait for one gate. */
export interface GatedTool {
  /** The read-only tool: it takes `{ n: number }` and answers `{ n }` once the gate is open. */
  tool: Tool<{ n: number }, { n: number }>;
  /** Opens the gate: every call waiting and every later one answers. */
  release(): void;
}

/**
 * A read-only tool named `name` whose every call waits until `release()` (to hold a server's call slots).
 *
 * @example const { tool, release } = gatedTool("held"); … release();
 */
export function gatedTool(name: string): GatedTool {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const tool = defineTool({
    name,
    description: "Waits for the gate",
    readOnly: true,
    schema: z.object({ n: z.number() }).strict(),
    prepare: (args) => args,
    run: async (input) => {
      await gate;
      return { n: input.n };
    },
  });
  return { tool, release: () => release() };
}
