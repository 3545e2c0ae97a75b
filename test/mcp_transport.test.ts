import { EventEmitter } from "node:events";
import { describe, expect, test } from "vitest";
import { BoundedLineReader, type OversizedLine } from "../src/mcp/bounded_line_reader.ts";
import { createCallLimiter } from "../src/mcp/call_limiter.ts";
import { MessageHeadScanner } from "../src/mcp/message_head_scanner.ts";
import { oversizedMessageReply } from "../src/mcp/oversized_message_reply.ts";
import { BoundedStdioTransport } from "../src/mcp/stdio_transport.ts";

const encode = (text: string) => new TextEncoder().encode(text);

const SCANNED: readonly { name: string; message: string; id?: number | string; method?: string }[] = [
  {
    name: "id last, as the SDK client writes it",
    message:
      '{"method":"tools/call","params":{"name":"write_file","arguments":{"content":"xx"}},"jsonrpc":"2.0","id":7}',
    id: 7,
    method: "tools/call",
  },
  {
    name: "id first, as a string",
    message: '{"jsonrpc":"2.0","id":"req-1","method":"tools/call","params":{}}',
    id: "req-1",
    method: "tools/call",
  },
  { name: "negative id", message: '{"jsonrpc":"2.0","id":-3,"method":"ping"}', id: -3, method: "ping" },
  {
    name: "nested id and method are ignored",
    message: '{"jsonrpc":"2.0","method":"n","params":{"id":5,"method":"x"}}',
    method: "n",
  },
  {
    name: "quotes and braces inside strings do not confuse it",
    message: '{"params":{"content":"\\"id\\":9}{[\\\\"},"method":"a\\"b","id":11}',
    id: 11,
    method: 'a"b',
  },
  { name: "whitespace around tokens", message: '{ "id" : 12 , "method" : "m" }', id: 12, method: "m" },
  {
    name: "notification without id",
    message: '{"jsonrpc":"2.0","method":"notifications/x"}',
    method: "notifications/x",
  },
  { name: "multi-byte text before the id", message: '{"params":{"t":"日本語✓"},"id":"ü"}', id: "ü" },
  { name: "an id that is an object is not recovered", message: '{"id":{"a":1},"method":"m"}', method: "m" },
];

describe("MessageHeadScanner", () => {
  test.each(SCANNED)("recovers the top-level id and method: $name", ({ message, id, method }) => {
    const whole = new MessageHeadScanner();
    whole.push(encode(message));
    const expected: Record<string, unknown> = {};
    if (id !== undefined) expected.id = id;
    if (method !== undefined) expected.method = method;
    expect(whole.result()).toEqual(expected);
    // Byte by byte: chunk boundaries anywhere give the same answer.
    const bytes = encode(message);
    const split = new MessageHeadScanner();
    for (let i = 0; i < bytes.length; i++) split.push(bytes.subarray(i, i + 1));
    expect(split.result()).toEqual(expected);
  });

  test("scans a 12 MiB argument with escapes and finds the id at the end", () => {
    const scanner = new MessageHeadScanner();
    scanner.push(encode('{"method":"tools/call","params":{"arguments":{"content":"'));
    const block = encode('ab\\"c\\\\'.repeat(1024));
    for (let i = 0; i < (12 * 1024 * 1024) / block.length; i++) scanner.push(block);
    scanner.push(encode('"}},"jsonrpc":"2.0","id":42}'));
    expect(scanner.result()).toEqual({ id: 42, method: "tools/call" });
  });
});

describe("BoundedLineReader", () => {
  function collect(maxBytes: number) {
    const lines: string[] = [];
    const oversized: OversizedLine[] = [];
    const reader = new BoundedLineReader(maxBytes, {
      line: (text) => lines.push(text),
      oversized: (info) => oversized.push(info),
    });
    return { reader, lines, oversized };
  }

  test("splits lines across chunks, drops a final \\r and skips empty lines", () => {
    const { reader, lines } = collect(100);
    reader.push(encode('{"a":1}\r\n{"b"'));
    reader.push(encode(':2}\n\n{"c":"ü'));
    reader.push(encode('"}\n'));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":"ü"}']);
  });

  test("takes a line of exactly the limit, skips a longer one and goes on with the next", () => {
    const { reader, lines, oversized } = collect(10);
    reader.push(encode('{"id":1234}\n'.slice(0, 10) + "\n"));
    reader.push(encode('{"id":12345}\n{"id":2}\n'));
    expect(lines).toEqual(['{"id":1234', '{"id":2}']);
    expect(oversized).toEqual([{ id: 12345, bytes: 12 }]);
  });

  test("holds no more than the limit of an oversized line", () => {
    const { reader, oversized } = collect(1_000);
    reader.push(encode('{"method":"tools/call","params":"'));
    for (let i = 0; i < 100; i++) reader.push(encode("x".repeat(10_000)));
    expect((reader as unknown as { chunks: Uint8Array[] }).chunks).toEqual([]);
    reader.push(encode('","id":3}\n'));
    expect(oversized).toEqual([{ id: 3, method: "tools/call", bytes: 1_000_042 }]);
  });
});

describe("BoundedStdioTransport", () => {
  function pipes(maxMessageBytes = 64) {
    const input = new EventEmitter() as EventEmitter & { pause(): void; resume(): void };
    input.pause = () => {};
    input.resume = () => {};
    const written: string[] = [];
    const output = { write: (text: string) => (written.push(text), true), once: () => output };
    const transport = new BoundedStdioTransport(input, output, {
      maxMessageBytes,
      oversizedReply: oversizedMessageReply,
    });
    const received: unknown[] = [];
    const errors: string[] = [];
    let closed = 0;
    transport.onmessage = (message) => received.push(message);
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => closed++;
    return { input, written, transport, received, errors, closed: () => closed };
  }

  test("answers a line that is not JSON with a parse error and keeps going", async () => {
    const { input, written, transport, received } = pipes();
    await transport.start();
    input.emit("data", encode('nope\n[1]\n{"jsonrpc":"2.0","id":1,"method":"ping"}\n'));
    expect(written.map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request" } },
    ]);
    expect(received).toEqual([{ jsonrpc: "2.0", id: 1, method: "ping" }]);
  });

  test("answers an oversized tools/call with a CONTENT_TOO_LARGE error result and another request with a JSON-RPC error", async () => {
    const { input, written, transport, errors } = pipes();
    await transport.start();
    input.emit(
      "data",
      encode(
        `{"method":"tools/call","params":{"arguments":{"content":"${"x".repeat(100)}"}},"jsonrpc":"2.0","id":5}\n`,
      ),
    );
    input.emit("data", encode(`{"jsonrpc":"2.0","id":6,"method":"ping","params":{"p":"${"x".repeat(100)}"}}\n`));
    input.emit("data", encode(`{"jsonrpc":"2.0","method":"notifications/x","params":{"p":"${"x".repeat(100)}"}}\n`));
    const [call, other, ...rest] = written.map((line) => JSON.parse(line));
    expect(call).toMatchObject({ id: 5, result: { isError: true } });
    expect(JSON.parse(call.result.content[0].text)).toEqual({
      error: {
        code: "TOOL_ARGUMENTS_INVALID",
        message: "CONTENT_TOO_LARGE",
        hint: expect.stringContaining("in parts"),
      },
    });
    expect(other).toMatchObject({ id: 6, error: { code: -32600 } });
    expect(rest).toEqual([]);
    expect(errors).toHaveLength(3);
  });

  // Found by a red-team pass: the SDK answered none of these (it could not parse them), so a
  // client waited forever; a tools/call with a wrong `name` or `arguments` type got -32603 and a dump.
  test("answers a request whose params have the wrong shape with one-line Invalid params, on its id", async () => {
    const { input, written, transport, received } = pipes(4_096);
    await transport.start();
    const call = { name: "read_file", arguments: { path: "a" } };
    const bad: [unknown, string, unknown][] = [
      ["t1", "tools/call", { ...call, _meta: { progressToken: { a: 1 } } }],
      ["t2", "tools/call", { ...call, _meta: { progressToken: null } }],
      [3, "tools/call", { ...call, _meta: { progressToken: 1.5 } }],
      [4, "tools/call", { ...call, _meta: { progressToken: true } }],
      [5, "tools/call", { ...call, _meta: "str" }],
      [6, "tools/call", null],
      [7, "tools/call", undefined],
      [8, "tools/list", []],
      [9, "tools/call", { name: 123, arguments: {} }],
      [10, "tools/call", { name: "read_file", arguments: "path" }],
      [11, "tools/call", { name: "read_file", arguments: ["a"] }],
      [12, "tools/call", { name: "read_file", arguments: null }],
    ];
    for (const [id, method, params] of bad) {
      input.emit("data", encode(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n"));
    }
    // A notification of the wrong shape has no id to answer on; good requests pass through.
    input.emit("data", encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: [] }) + "\n"));
    const good = [
      { jsonrpc: "2.0", id: 20, method: "tools/call", params: { ...call, _meta: { progressToken: "p" } } },
      { jsonrpc: "2.0", id: 21, method: "tools/call", params: { ...call, _meta: { progressToken: 7 } } },
      { jsonrpc: "2.0", id: 22, method: "tools/list" },
      { jsonrpc: "2.0", id: 23, method: "tools/call", params: { name: "list_directory" } },
    ];
    for (const message of good) input.emit("data", encode(JSON.stringify(message) + "\n"));
    const replies = written.map((line) => JSON.parse(line));
    expect(replies.map((reply) => reply.id)).toEqual(bad.map(([id]) => id));
    for (const reply of replies) {
      expect(reply.error.code).toBe(-32602);
      expect(reply.error.message).toMatch(/^Invalid params: params(\.[\w.]+)? must be [^\n]+$/);
    }
    expect(received).toEqual(good);
  });

  test("once the input ends, the requests already read are answered, then the session closes", async () => {
    const { input, written, transport, received, closed } = pipes(4_096);
    await transport.start();
    for (const id of [1, 2, 3]) {
      input.emit("data", encode(JSON.stringify({ jsonrpc: "2.0", id, method: "ping" }) + "\n"));
    }
    input.emit("end");
    expect(received).toHaveLength(3);
    expect(closed()).toBe(0);
    await transport.send({ jsonrpc: "2.0", id: 2, result: {} });
    expect(closed()).toBe(0);
    await transport.send({ jsonrpc: "2.0", id: 3, result: {} });
    expect(closed()).toBe(0);
    await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(closed()).toBe(1);
    expect(written.map((line) => JSON.parse(line).id)).toEqual([2, 3, 1]);
  });

  test("a cancelled request read before the input ended is not waited for", async () => {
    const { input, transport, closed } = pipes(4_096);
    await transport.start();
    input.emit(
      "data",
      encode(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "x" } }) + "\n"),
    );
    input.emit(
      "data",
      encode(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7 } }) + "\n"),
    );
    input.emit("end");
    expect(closed()).toBe(1);
  });

  test("reports the close once when the input ends, and writes nothing after", async () => {
    const { input, written, transport, closed } = pipes();
    await transport.start();
    input.emit("end");
    input.emit("close");
    expect(closed()).toBe(1);
    await transport.send({ jsonrpc: "2.0", id: 1, result: {} });
    expect(written).toEqual([]);
  });
});

describe("createCallLimiter", () => {
  test("runs at most the limit at once, in arrival order, and frees the slot of a failed task", async () => {
    const limiter = createCallLimiter(3);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const tasks = Array.from({ length: 20 }, (_, i) =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise((resolve) => setTimeout(resolve, 1));
        running--;
        if (i % 5 === 0) throw new Error(`task ${i}`);
        return i;
      }));
    const settled = await Promise.allSettled(tasks);
    expect(peak).toBe(3);
    expect(order).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(settled.filter((s) => s.status === "rejected")).toHaveLength(4);
    expect(limiter.active).toBe(0);
    expect(limiter.waiting).toBe(0);
  });
});
