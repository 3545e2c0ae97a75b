import { describe, expect, test } from "vitest";
import type { ByteReader, ExitStatus, Host, HostChild } from "../host.ts";
import { omittedMarker, runProcess, type TruncationMode } from "../src/core/process/run_process.ts";

const encoder = new TextEncoder();

/** A reader over fixed chunks; with `holdOpen` it never ends by itself (a pipe someone still holds). */
function scriptedReader(chunks: Uint8Array[], holdOpen = false): ByteReader & { cancelled: boolean } {
  let index = 0;
  let release: ((value: null) => void) | undefined;
  const reader = {
    cancelled: false,
    read: (): Promise<Uint8Array | null> => {
      if (reader.cancelled) return Promise.resolve(null);
      if (index < chunks.length) return Promise.resolve(chunks[index++]);
      if (!holdOpen) return Promise.resolve(null);
      return new Promise<null>((resolve) => (release = resolve));
    },
    cancel: (): Promise<void> => {
      reader.cancelled = true;
      release?.(null);
      return Promise.resolve();
    },
  };
  return reader;
}

/** A host whose only working primitive is `spawn`, answering with the given streams. */
function fakeHost(stdout: ByteReader, stderr: ByteReader = scriptedReader([])): { host: Host; kills: string[] } {
  const kills: string[] = [];
  const child: HostChild = {
    pid: 4242,
    stdout,
    stderr,
    exited: Promise.resolve<ExitStatus>({ code: 0, signal: null }),
    killGroup: (signal) => void kills.push(signal),
  };
  return { host: { spawn: () => Promise.resolve(child) } as unknown as Host, kills };
}

async function capture(chunks: Uint8Array[], limit: number, truncation: TruncationMode = "head-and-tail") {
  const { host } = fakeHost(scriptedReader(chunks));
  const result = await runProcess(host, {
    argv: ["x"],
    cwd: "/",
    env: {},
    timeoutMs: 10_000,
    maxOutputBytes: limit,
    truncation,
  });
  return result.stdout;
}

function splitEvery(bytes: Uint8Array, size: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.slice(i, i + size));
  return out;
}

describe("runProcess() head-and-tail output", () => {
  test("keeps output exactly at the limit whole", async () => {
    expect(await capture([encoder.encode("0123456789")], 10)).toEqual({
      text: "0123456789",
      truncated: false,
      totalBytes: 10,
    });
  });

  test("one byte over keeps half the limit from each end and says one byte was cut", async () => {
    expect(await capture([encoder.encode("0123456789A")], 10)).toEqual({
      text: "01234" + omittedMarker(1) + "6789A",
      truncated: true,
      totalBytes: 11,
    });
    expect(omittedMarker(1)).toBe("\n[… 1 bytes omitted …]\n");
  });

  test("an odd limit gives the extra byte to the head", async () => {
    expect((await capture([encoder.encode("abcdefghij")], 7)).text).toBe("abcd" + omittedMarker(3) + "hij");
  });

  test("cuts only on character boundaries at both ends, counting the dropped bytes", async () => {
    // "abcdé" puts é's two bytes across the head cut; "€€z" puts the tail cut inside a €.
    const text = "abcdé" + "-".repeat(20) + "€€z";
    const bytes = encoder.encode(text);
    expect(bytes.length).toBe(33);
    const result = await capture([bytes], 10);
    expect(result.text).toBe("abcd" + omittedMarker(25) + "€z");
  });

  test("gives the same text however the stream is chunked", async () => {
    const bytes = encoder.encode("héllo wörld — ünïcödé 🎉 ".repeat(40));
    const whole = await capture([bytes], 101);
    for (const size of [1, 2, 3, 7, 64, 500]) {
      expect(await capture(splitEvery(bytes, size), 101)).toEqual(whole);
    }
  });

  test("head and tail are always a prefix and a suffix of the stream, and the marker counts the rest", async () => {
    let seed = 7;
    const random = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const alphabet = ["a", "é", "€", "🎉", "\n"];
    for (let round = 0; round < 150; round++) {
      const text = Array.from({ length: random(300) }, () => alphabet[random(alphabet.length)]).join("");
      const bytes = encoder.encode(text);
      const limit = 1 + random(80);
      const result = await capture(splitEvery(bytes, 1 + random(40)), limit);
      expect(result.totalBytes).toBe(bytes.length);
      if (bytes.length <= limit) {
        expect(result).toEqual({ text, truncated: false, totalBytes: bytes.length });
        continue;
      }
      const match = /^([\s\S]*)\n\[… (\d+) bytes omitted …\]\n([\s\S]*)$/.exec(result.text);
      expect(match).not.toBeNull();
      const [, head, omitted, tail] = match as RegExpExecArray;
      expect(text.startsWith(head)).toBe(true);
      expect(text.endsWith(tail)).toBe(true);
      const headBytes = encoder.encode(head).length;
      const tailBytes = encoder.encode(tail).length;
      expect(headBytes).toBeLessThanOrEqual(Math.ceil(limit / 2));
      expect(tailBytes).toBeLessThanOrEqual(limit - Math.ceil(limit / 2));
      expect(headBytes + Number(omitted) + tailBytes).toBe(bytes.length);
    }
  });

  test("head mode keeps the start only", async () => {
    expect(await capture([encoder.encode("0123456789A")], 10, "head")).toEqual({
      text: "0123456789",
      truncated: true,
      totalBytes: 11,
    });
  });
});

describe("runProcess() after the leader exits", () => {
  test("kills the group, then stops waiting for pipes held open by a process outside it", async () => {
    const stdout = scriptedReader([encoder.encode("before exit\n")], true);
    const stderr = scriptedReader([], true);
    const { host, kills } = fakeHost(stdout, stderr);
    const result = await runProcess(host, {
      argv: ["x"],
      cwd: "/",
      env: {},
      timeoutMs: 60_000,
      maxOutputBytes: 100,
      drainGraceMs: 50,
    });
    expect(kills).toEqual(["SIGKILL"]);
    expect(stdout.cancelled && stderr.cancelled).toBe(true);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(result.stdout.text).toBe("before exit\n");
  });
});
