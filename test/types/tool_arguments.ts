// Type test for `Tool.execute`: its argument is typed from the tool's schema,
// so a call written in code with a wrong argument does not compile. Checked by
// tsc (tsconfig.test.json) and `deno check`; each `@ts-expect-error` fails the
// check if the line below it compiles.
import * as z from "zod";
import {
  type AnyTool,
  createEditTool,
  createGrepTool,
  createMoveTool,
  createReadTool,
  createWriteTool,
  defineTool,
  executeToolCall,
  type ReadFileArguments,
  ToolRegistry,
} from "../../mod.ts";

export async function builtIn(): Promise<void> {
  const read = createReadTool("./project");
  const { content } = await read.execute({ path: "README.md", offset: 1, limit: 10 });
  content.toUpperCase();
  const args: ReadFileArguments = { path: "README.md" };
  await read.execute(args);
  // @ts-expect-error path must be a string
  await read.execute({ path: 1 });
  // @ts-expect-error offset is a number
  await read.execute({ path: "a", offset: "2" });
  // @ts-expect-error path is required
  await read.execute({});
  // @ts-expect-error no such property
  await read.execute({ path: "a", encoding: "latin1" });
  // @ts-expect-error write_file needs content
  await createWriteTool("./project").execute({ path: "a.txt" });
  // @ts-expect-error edits hold old_string and new_string
  await createEditTool("./project").execute({ path: "a.txt", edits: [{ old: "x", new: "y" }] });
  // @ts-expect-error move_path takes source and destination
  await createMoveTool("./project").execute({ from: "a", to: "b" });
  // @ts-expect-error output_mode is one of three words
  await createGrepTool("./project").execute({ pattern: "x", output_mode: "lines" });
}

export async function ownTool(): Promise<string> {
  const hello = defineTool({
    name: "hello",
    description: "Greets someone",
    readOnly: true,
    schema: z.object({ name: z.string(), loud: z.boolean().optional() }).strict(),
    prepare: (args) => args,
    run: (input) => Promise.resolve({ greeting: `Hello, ${input.name}` }),
  });
  const { greeting } = await hello.execute({ name: "Ada" });
  // @ts-expect-error name must be a string
  await hello.execute({ name: 1 });
  // @ts-expect-error loud is a boolean
  await hello.execute({ name: "Ada", loud: "yes" });
  return greeting;
}

// Where arguments come from a model (unknown), the tools go through the registry and run-time validation.
export async function fromAModel(raw: unknown): Promise<boolean> {
  const tools: AnyTool[] = [createReadTool("./project"), createGrepTool("./project")];
  await tools[0].execute(raw);
  const result = await executeToolCall(new ToolRegistry(tools), { id: "1", name: "read_file", arguments: raw });
  return result.isError;
}
