/**
 * Which IP addresses count as private: loopback, link-local (where cloud
 * metadata services live: 169.254.169.254, fe80::/10), private ranges and
 * every other non-global block. The egress proxy refuses a host that resolves
 * to one of them unless the host is listed in `allowPrivate`.
 *
 * @module
 */
import { isIP } from "node:net";

// IPv4 blocks that are not globally routable: [first octets as a number, prefix length].
const PRIVATE_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4ToNumber(address: string): number {
  return address.split(".").reduce((sum, part) => sum * 256 + Number(part), 0);
}

function isPrivateV4(address: string): boolean {
  const value = v4ToNumber(address);
  return PRIVATE_V4.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4ToNumber(base);
    return value >= start && value < start + size;
  });
}

// Expands an IPv6 literal into eight 16-bit groups (an embedded IPv4 tail becomes two groups).
function v6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone >= 0) text = text.slice(0, zone);
  const tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  const last = text.slice(lastColon + 1);
  if (last.includes(".")) {
    const v4 = v4ToNumber(last);
    tail.push(Math.floor(v4 / 65536), v4 % 65536);
    text = text.slice(0, lastColon + 1) + "0:0"; // two placeholder groups, replaced below
  }
  const [head, rest] = text.includes("::") ? text.split("::") : [text, undefined];
  const parse = (part: string): number[] => (part === "" ? [] : part.split(":").map((group) => parseInt(group, 16)));
  let groups: number[];
  if (rest === undefined) {
    groups = parse(head);
  } else {
    const left = parse(head);
    const right = parse(rest);
    groups = [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  }
  if (tail.length > 0) groups.splice(groups.length - 2, 2, ...tail);
  return groups;
}

function isPrivateV6(address: string): boolean {
  const g = v6Groups(address);
  if (g.length !== 8) return true; // unparsable: treat as private (refuse)
  const allZero = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (allZero(0, 8)) return true; // ::
  if (allZero(0, 7) && g[7] === 1) return true; // ::1 loopback
  if (allZero(0, 5) && g[5] === 0xffff) return isPrivateV4(`${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`); // v4-mapped
  if (allZero(0, 6)) return true; // deprecated v4-compatible
  if (g[0] === 0x64 && g[1] === 0xff9b) return isPrivateV4(`${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`); // NAT64
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local
  if ((g[0] & 0xffc0) === 0xfec0) return true; // site-local (deprecated)
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x2001 && g[1] < 0x200) return true; // IETF protocol assignments (Teredo, ORCHID, …)
  if (g[0] === 0x2002) return true; // 6to4 can embed any IPv4 address
  return false;
}

/**
 * Whether `address` (an IPv4 or IPv6 literal) is not a public, globally
 * routable address: loopback, link-local, private, multicast, reserved or
 * unparsable.
 *
 * @param address An IP literal.
 * @returns `true` for anything the proxy must not reach without `allowPrivate`.
 *
 * @example What the proxy refuses to reach
 * ```ts
 * import { isPrivateAddress } from "@paddock/tools/sandbox";
 * isPrivateAddress("10.0.0.7"); // true
 * isPrivateAddress("169.254.169.254"); // true: the cloud metadata service
 * isPrivateAddress("140.82.112.3"); // false
 * isPrivateAddress("registry.npmjs.org"); // true: not an IP literal (resolve the name first)
 * ```
 */
export function isPrivateAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return isPrivateV4(address);
  if (version === 6) return isPrivateV6(address);
  return true;
}
