/**
 * Client subnets for a proxy listener: `172.18.0.0/16`, `fd00::/8` or a bare
 * address, matched against a socket's remote address (an IPv4-mapped IPv6
 * address such as `::ffff:172.18.0.2` counts as its IPv4 form).
 *
 * @module
 */
import { isIP } from "node:net";
import { WorkspaceError } from "../core/errors.ts";

interface Subnet {
  bits: bigint;
  width: 32 | 128;
  prefix: number;
}

function toBits(address: string): { bits: bigint; width: 32 | 128 } | null {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped === null ? address : mapped[1];
  const version = isIP(plain);
  if (version === 4) {
    return { bits: plain.split(".").reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n), width: 32 };
  }
  if (version !== 6) return null;
  // Expand '::' and a trailing dotted IPv4 part into eight 16-bit groups.
  let text = plain.toLowerCase().split("%")[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted !== null) {
    const v4 = dotted[1].split(".").map(Number);
    text = text.slice(0, -dotted[1].length) +
      `${((v4[0] << 8) | v4[1]).toString(16)}:${((v4[2] << 8) | v4[3]).toString(16)}`;
  }
  const [left, right] = text.includes("::") ? text.split("::") : [text, undefined];
  const head = left === "" ? [] : left.split(":");
  const tail = right === undefined || right === "" ? [] : right.split(":");
  const groups = right === undefined ? head : [...head, ...Array(8 - head.length - tail.length).fill("0"), ...tail];
  if (groups.length !== 8) return null;
  return { bits: groups.reduce((acc, group) => (acc << 16n) | BigInt(parseInt(group, 16)), 0n), width: 128 };
}

/** A list of client subnets; an empty list matches nobody. */
export class ClientSubnets {
  private readonly subnets: Subnet[] = [];

  /**
   * @param cidrs Subnets (`a.b.c.d/n`, `x::/n`) or single addresses.
   * @throws {WorkspaceError} `INVALID_ARGUMENTS` for anything else.
   */
  constructor(cidrs: Iterable<string>) {
    for (const cidr of cidrs) {
      const [address, length, ...rest] = String(cidr).trim().split("/");
      const parsed = toBits(address);
      const prefix = length === undefined ? parsed?.width : /^\d{1,3}$/.test(length) ? Number(length) : NaN;
      if (parsed === null || rest.length > 0 || prefix === undefined || !(prefix >= 0 && prefix <= parsed.width)) {
        throw new WorkspaceError(
          "INVALID_ARGUMENTS",
          `Cannot use the client subnet '${cidr}': expected an address or address/prefix`,
        );
      }
      this.subnets.push({ bits: parsed.bits, width: parsed.width, prefix });
    }
  }

  /** Whether `address` (a socket's remote address) lies in one of the subnets. */
  matches(address: string | undefined): boolean {
    const parsed = address === undefined ? null : toBits(address);
    if (parsed === null) return false;
    return this.subnets.some((subnet) => {
      if (subnet.width !== parsed.width) return false;
      const shift = BigInt(subnet.width - subnet.prefix);
      return (subnet.bits >> shift) === (parsed.bits >> shift);
    });
  }
}
