// The facade behind the seed examples, beyond what the examples themselves show: the
// shell seam's defaults and errors, NodeWorkspace.exec's cwd, the broker's client-bound
// listener, and a root entry that loads no network module.
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createCredentialBroker,
  createFsTools,
  MemoryWorkspace,
  NodeWorkspace,
  SandboxShell,
  type WorkspaceError,
} from "@paddock/tools";
import { afterEach, describe, expect, test } from "vitest";
import { ClientSubnets } from "../../src/sandbox/client_subnet.ts";
import { type DiskFixture, diskFixture } from "../helpers/fixture.ts";

let fx: DiskFixture | undefined;
afterEach(() => {
  fx?.cleanup();
  fx = undefined;
});

// A sandbox that wraps nothing: the command runs as given (enough to test SandboxShell's own handling).
const passThrough = {
  kind: "pass-through",
  check: () => Promise.resolve(),
  wrap: (request: { argv: string[]; env: Record<string, string> }) =>
    Promise.resolve({ argv: request.argv, env: request.env }),
};

describe("ShellProvider.exec: missing options mean the defaults, invalid ones are errors", () => {
  test("SandboxShell.exec({ command }) no longer times out at once with '[… 0 bytes omitted …]'", async () => {
    fx = await diskFixture();
    const shell = new SandboxShell(passThrough, { cwd: fx.root });
    for (
      const result of [
        await shell.exec({ command: "echo hi" }),
        await shell.exec("echo hi"),
        await shell.exec("echo hi", {}),
      ]
    ) {
      expect(result).toEqual({
        exitCode: 0,
        signal: null,
        stdout: "hi\n",
        stderr: "",
        stdoutTruncated: false,
        stderrTruncated: false,
        timedOut: false,
      });
    }
  });

  test.each([
    ["a zero timeout", ["echo", { timeoutMs: 0 }], "timeoutMs must be a positive integer, got 0"],
    ["a string timeout", ["echo", { timeoutMs: "5" }], "timeoutMs must be a positive integer, got string"],
    [
      "a NaN output bound",
      ["echo", { maxOutputBytes: Number.NaN }],
      "maxOutputBytes must be a positive integer, got NaN",
    ],
    ["no command", [{ timeoutMs: 5 }], "the command must be a string"],
    ["a number as command", [42], "the command must be a string"],
    ["options that are not an object", ["echo", "fast"], "the options must be an object"],
  ])("%s is INVALID_ARGUMENTS", async (_name, args, detail) => {
    fx = await diskFixture();
    const providers = [
      new SandboxShell(passThrough, { cwd: fx.root }),
      new NodeWorkspace({ root: fx.root }),
      new MemoryWorkspace({ exec: { echo: "" } }),
    ];
    for (const provider of providers) {
      const exec = provider.exec.bind(provider) as (...rest: unknown[]) => Promise<unknown>;
      await expect(exec(...args)).rejects.toMatchObject({
        code: "INVALID_ARGUMENTS",
        message: `Cannot run the command: ${detail}`,
      });
    }
  });

  test("NodeWorkspace.exec runs in a confined cwd; a hostile or escaping cwd is refused", async () => {
    fx = await diskFixture(["sub/", "out => @outside"]);
    const workspace = new NodeWorkspace({ root: fx.root });
    expect((await workspace.exec("pwd -P", { cwd: "sub" })).stdout).toBe(`${path.join(fx.root, "sub")}\n`);
    await expect(workspace.exec("pwd", { cwd: "../" })).rejects.toMatchObject({ code: "INVALID_RELATIVE_PATH" });
    await expect(workspace.exec("pwd", { cwd: "out" })).rejects.toMatchObject({ code: "PATH_ESCAPES_WORKSPACE" });
    await expect(workspace.exec("pwd", { cwd: "missing" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const result = await workspace.exec("sleep 5", { timeoutMs: 100 });
    expect(result.timedOut).toBe(true);
  });

  test("NodeWorkspace is a workspace for the file tools too, opened once", async () => {
    fx = await diskFixture(["a.txt=hi"]);
    const workspace = new NodeWorkspace({ root: fx.root });
    const [read] = createFsTools(workspace, { readOnly: true });
    expect(await read.execute({ path: "a.txt" })).toEqual({ path: "a.txt", content: "hi", bytes: 2 });
    expect(await workspace.open()).toBe(await workspace.open());
    await expect(new NodeWorkspace({ root: path.join(fx.root, "missing") }).exec("true")).rejects.toMatchObject({
      code: "WORKSPACE_ROOT_INVALID",
    });
  });
});

describe("the broker: listen({ host, clients, allow })", () => {
  test.each([
    ["172.18.0.0/16", "172.18.3.4", true],
    ["172.18.0.0/16", "172.19.0.1", false],
    ["172.18.0.0/16", "::ffff:172.18.0.2", true],
    ["127.0.0.1", "127.0.0.1", true],
    ["127.0.0.1", "127.0.0.2", false],
    ["fd00::/8", "fd12::1", true],
    ["fd00::/8", "fe80::1", false],
    ["0.0.0.0/0", "8.8.8.8", true],
  ])("subnet %s matches %s: %s", (cidr, address, expected) => {
    expect(new ClientSubnets([cidr]).matches(address)).toBe(expected);
  });

  test.each(["172.18.0.0/33", "not-an-ip/8", "10.0.0.0/8/1", ""])(
    "a malformed subnet %j is INVALID_ARGUMENTS",
    (cidr) => {
      expect(() => new ClientSubnets([cidr])).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENTS" }));
    },
  );

  test("a peer outside `clients` is cut off before a byte is read; inside, the allowlist is the rules plus `allow`", async () => {
    const broker = await createCredentialBroker({
      rules: { "rule.example": { authorization: "x" } },
      allow: ["main.example"],
    });
    try {
      const closed = await broker.listen({ host: "127.0.0.1", clients: "10.0.0.0/8", allow: ["extra.example"] });
      expect(
        await rawRequest(closed.port as number, "GET http://extra.example/ HTTP/1.1\r\nHost: extra.example\r\n\r\n"),
      ).toBe("");
      const open = await broker.listen({ host: "127.0.0.1", clients: ["127.0.0.0/8"], allow: ["extra.example"] });
      const status = async (host: string) =>
        (await rawRequest(open.port as number, `GET http://${host}/ HTTP/1.1\r\nHost: ${host}\r\n\r\n`)).split(
          "\r\n",
        )[0];
      expect(await status("main.example")).toBe("HTTP/1.1 403 Forbidden"); // the loopback listener's allow only
      expect(await status("extra.example")).not.toContain("403"); // allowed here (offline: it cannot be resolved)
      expect(await status("rule.example")).not.toContain("403");
      // The loopback listener is unchanged.
      const main = Number(new URL(broker.url).port);
      expect(
        (await rawRequest(main, "GET http://extra.example/ HTTP/1.1\r\nHost: extra.example\r\n\r\n")).split("\r\n")[0],
      )
        .toBe("HTTP/1.1 403 Forbidden");
    } finally {
      await broker.close();
    }
  });
});

function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let received = "";
    socket.on("connect", () => socket.write(text));
    socket.on("data", (chunk) => {
      received += chunk.toString();
      if (received.includes("\r\n\r\n")) socket.destroy();
    });
    socket.on("error", () => {});
    socket.on("close", () => resolve(received));
  });
}

describe("the root entry", () => {
  test("imports no network module statically: the broker's node:http / node:net load on first use", () => {
    const repo = fileURLToPath(new URL("../../", import.meta.url));
    const seen = new Set<string>();
    const builtins = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = fs.readFileSync(file, "utf8");
      // Static imports and re-exports only (`import type` is erased).
      for (const match of source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)) {
        const specifier = match[1];
        if (specifier.startsWith("node:")) builtins.add(specifier);
        else if (specifier.startsWith(".")) visit(path.resolve(path.dirname(file), specifier));
      }
    };
    visit(path.join(repo, "mod.ts"));
    expect(seen.has(path.join(repo, "src/seed/create_credential_broker.ts"))).toBe(true);
    expect([...builtins].filter((name) => /^node:(net|http|https|dns|tls)/.test(name))).toEqual([]);
    expect(seen.has(path.join(repo, "src/sandbox/egress_proxy.ts"))).toBe(false);
  });

  test("the seed's WorkspaceError(message) has code IO_ERROR", async () => {
    const { WorkspaceError } = await import("@paddock/tools");
    const error: WorkspaceError = new WorkspaceError("boom");
    expect([error.code, error.message, error.name]).toEqual(["IO_ERROR", "boom", "WorkspaceError"]);
  });
});
